import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deterministicValue, javaHashCode, randomValue } from '../../src/workload/fields.ts';
import { fnvhash64Mod, fnvhash64String, uint64ToString } from '../../src/workload/fnv.ts';
import { AcknowledgedCounterGenerator } from '../../src/workload/generators/acknowledged-counter.ts';
import { CounterGenerator } from '../../src/workload/generators/counter.ts';
import { DiscreteGenerator } from '../../src/workload/generators/discrete.ts';
import { ExponentialGenerator } from '../../src/workload/generators/exponential.ts';
import { HotspotGenerator } from '../../src/workload/generators/hotspot.ts';
import { ITEM_COUNT, ScrambledZipfianGenerator, ZETAN } from '../../src/workload/generators/scrambled-zipfian.ts';
import { SequentialGenerator } from '../../src/workload/generators/sequential.ts';
import { SkewedLatestGenerator } from '../../src/workload/generators/skewed-latest.ts';
import { UniformGenerator } from '../../src/workload/generators/uniform.ts';
import { zeta, ZipfianGenerator } from '../../src/workload/generators/zipfian.ts';
import { buildKeyName } from '../../src/workload/keys.ts';
import { Random } from '../../src/workload/random.ts';

/** YCSB Utils.fnvhash64 with BigInt, straight from its definition, to check the fast version. */
function referenceFnv64(value: bigint): bigint {
  const mask = (1n << 64n) - 1n;
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < 8; i++) {
    const octet = value & 0xffn;
    value >>= 8n;
    hash ^= octet;
    hash = (hash * 1099511628211n) & mask;
  }
  const signed = hash >= 1n << 63n ? hash - (1n << 64n) : hash;
  return signed < 0n ? -signed : signed;
}

describe('fnvhash64', () => {
  it('matches the FNV-1a definition over 8 little-endian bytes, then abs, for many inputs', () => {
    const random = new Random(7);
    const inputs = [
      0,
      1,
      2,
      255,
      256,
      65535,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 32 + 1,
      10_000_000_000,
      2 ** 53 - 1,
    ];
    for (let i = 0; i < 5000; i++) inputs.push(Math.floor(random.nextDouble() * 2 ** (1 + (i % 53))));
    for (const n of inputs) {
      const expected = referenceFnv64(BigInt(n));
      assert.equal(fnvhash64String(n), expected.toString(), `fnvhash64(${n})`);
      for (const m of [1000, 1001, 2 ** 21, 2 ** 21 + 1, 10_000_000_001, 2 ** 36 - 5])
        assert.equal(fnvhash64Mod(n, m), Number(expected % BigInt(m)), `fnvhash64(${n}) % ${m}`);
    }
  });

  it('remembers recent strings without ever mixing up two values that share a slot', () => {
    for (let round = 0; round < 3; round++) {
      for (const n of [7, 7 + 2 ** 16, 7 + 2 ** 32, 2 ** 53 - 1 - 65535, 2 ** 53 - 1]) {
        assert.equal(fnvhash64String(n), referenceFnv64(BigInt(n)).toString(), `fnvhash64(${n}), round ${round}`);
      }
    }
  });

  it('is the published FNV-1a 64 of eight zero bytes for 0', () => {
    // FNV-1a 64 of 8 zero bytes is 0xa8c7f832281a39c5 (negative as a long, so YCSB takes abs).
    const raw = 0xa8c7f832281a39c5n;
    assert.equal(fnvhash64String(0), ((1n << 64n) - raw).toString());
  });

  it('prints 64-bit values exactly', () => {
    for (const [hi, lo] of [
      [0, 0],
      [0x1fffff, 0xffffffff],
      [0x200000, 0],
      [0x7fffffff, 0xffffffff],
      [0x12345678, 0x9abcdef0],
    ] as const) {
      assert.equal(uint64ToString(hi, lo), ((BigInt(hi) << 32n) + BigInt(lo)).toString());
    }
  });
});

describe('key names', () => {
  it('hashes by default and orders when asked, with zero padding', () => {
    assert.equal(buildKeyName(0, 1, false), `user${referenceFnv64(0n)}`);
    assert.equal(buildKeyName(42, 1, false), `user${referenceFnv64(42n)}`);
    assert.equal(buildKeyName(42, 1, true), 'user42');
    assert.equal(buildKeyName(42, 6, true), 'user000042');
    assert.equal(buildKeyName(123456, 3, true), 'user123456');
  });
});

describe('zipfian', () => {
  it("draws the top ranks of n=1000 with the frequencies of YCSB's algorithm", () => {
    const n = 1000;
    const theta = 0.99;
    const gen = new ZipfianGenerator(new Random(11), 0, n - 1);
    const draws = 1_000_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < draws; i++) {
      const v = gen.nextValue();
      assert.ok(v >= 0 && v < n);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    // YCSB (Gray et al.) returns rank 0 for u·zetan < 1, rank 1 below 1 + 0.5^theta, and
    // floor(n·(eta·u − eta + 1)^alpha) beyond: the probability of rank k is the width of its u-interval.
    const zetaN = zeta(0, n, theta, 0);
    const alpha = 1 / (1 - theta);
    const eta = (1 - Math.pow(2 / n, 1 - theta)) / (1 - zeta(0, 2, theta, 0) / zetaN);
    const uOf = (k: number) =>
      Math.max((1 + Math.pow(0.5, theta)) / zetaN, (Math.pow(k / n, 1 / alpha) - 1 + eta) / eta);
    const ycsb = (k: number) =>
      k === 0 ? 1 / zetaN : k === 1 ? Math.pow(0.5, theta) / zetaN : Math.max(0, uOf(k + 1) - uOf(k));
    for (const rank of [0, 1, 2, 3, 10, 100]) {
      const expected = ycsb(rank);
      const observed = (counts.get(rank) ?? 0) / draws;
      const tolerance = 4 * Math.sqrt(expected / draws) + 1e-6; // 4 standard deviations
      assert.ok(
        Math.abs(observed - expected) < tolerance,
        `rank ${rank}: observed ${observed}, YCSB's algorithm gives ${expected}`,
      );
    }
    // And ranks 0 and 1 are exactly zipfian: 1/(k+1)^theta / zeta(n).
    for (const rank of [0, 1]) {
      const zipf = 1 / Math.pow(rank + 1, theta) / zetaN;
      assert.ok(Math.abs((counts.get(rank) ?? 0) / draws - zipf) / zipf < 0.02);
    }
  });

  it("uses YCSB's precomputed zeta for 10^10 items", () => {
    assert.equal(ZETAN, 26.46902820178302);
    assert.equal(ITEM_COUNT, 1e10);
  });

  it('scrambles: hot keys spread over the whole range, not clustered at the start', () => {
    const gen = new ScrambledZipfianGenerator(new Random(3), 0, 9999);
    const counts = new Map<number, number>();
    for (let i = 0; i < 200_000; i++) {
      const v = gen.nextValue();
      assert.ok(v >= 0 && v <= 9999);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([k]) => k);
    assert.ok(
      top.some((k) => k > 5000),
      `top keys ${top}`,
    );
    // Still skewed: the hottest key gets far more than a uniform share (20 of 200,000).
    assert.ok(counts.get(top[0]!)! > 2000);
  });

  it('maps rank r to min + fnvhash64(r) % itemcount, as YCSB does', () => {
    const gen = new ScrambledZipfianGenerator(new Random(5), 100, 1099);
    for (let i = 0; i < 1000; i++) {
      const v = gen.nextValue();
      assert.ok(v >= 100 && v <= 1099);
    }
    // Rank 0 (the most popular draw) lands on fnvhash64(0) % 1000.
    const hottest = 100 + Number(referenceFnv64(0n) % 1000n);
    const counts = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) counts.set(gen.nextValue(), (counts.get(gen.lastValue()) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    assert.equal(top, hottest);
  });
});

describe('fixed sequences', () => {
  // Draws of the generators as they were before they were made faster (seed, range -> the first
  // 20 draws and a checksum of the next 200,000): an optimisation must not move a single key.
  const checksum = (next: () => number) => {
    let sum = 0;
    for (let i = 0; i < 200_000; i++) sum = (sum * 31 + next()) % 1_000_000_007;
    return sum;
  };
  const scrambled: [seed: number, min: number, max: number, first: number[], sum: number][] = [
    [
      1,
      0,
      999,
      [82, 899, 862, 111, 782, 515, 360, 961, 620, 550, 52, 469, 980, 992, 10, 679, 894, 900, 620, 990],
      971733624,
    ],
    [
      7,
      100,
      1_099,
      [612, 371, 278, 120, 1042, 720, 374, 658, 1056, 252, 1081, 873, 148, 946, 493, 925, 675, 210, 251, 277],
      554711470,
    ],
    [
      3,
      0,
      999_999,
      [
        933614, 711540, 312940, 787802, 509763, 825818, 364686, 635269, 298320, 544798, 854039, 123037, 397297, 733117,
        319589, 218214, 563937, 678666, 545999, 525959,
      ],
      590321943,
    ],
    [
      5,
      0,
      2_097_151,
      [
        399716, 1638579, 1687208, 1217056, 1240825, 1560536, 1069844, 1675935, 471545, 1831993, 961202, 1272087, 639989,
        1984223, 5955, 23499, 781468, 1813740, 1820090, 553110,
      ],
      925070105,
    ],
    [
      9,
      0,
      2_097_152,
      [
        380166, 1471292, 811299, 1448908, 453534, 499414, 1086222, 1430799, 135391, 839968, 1383086, 1769993, 783465,
        1649421, 1910142, 651199, 740641, 785602, 375081, 1004977,
      ],
      301636560,
    ],
    [
      11,
      1_000,
      50_000_000_000,
      [
        17528062599, 46543971773, 24825355955, 43218598938, 31068677196, 33217677504, 48191923657, 18815091711,
        37806573672, 712430918, 38561403200, 2698223257, 3537413819, 34168245218, 10915289600, 34668069472, 20694031054,
        18587245905, 6686523534, 47630404256,
      ],
      928413368,
    ],
  ];
  for (const [seed, min, max, first, sum] of scrambled) {
    it(`scrambled zipfian, seed ${seed}, [${min}, ${max}]`, () => {
      const gen = new ScrambledZipfianGenerator(new Random(seed), min, max);
      assert.deepEqual(
        Array.from({ length: 20 }, () => gen.nextValue()),
        first,
      );
      assert.equal(
        checksum(() => gen.nextValue()),
        sum,
      );
    });
  }

  it('zipfian and skewed latest', () => {
    const zipfian = new ZipfianGenerator(new Random(2), 5, 1004);
    assert.equal(
      checksum(() => zipfian.nextValue()),
      132802421,
    );
    const basis = new CounterGenerator(1000);
    const latest = new SkewedLatestGenerator(new Random(4), basis);
    let i = 0;
    assert.equal(
      checksum(() => {
        if (i++ % 10 === 0) basis.nextValue();
        return latest.nextValue();
      }),
      337884716,
    );
  });
});

describe('other distributions', () => {
  it('uniform stays in range with a flat histogram', () => {
    const gen = new UniformGenerator(new Random(1), 10, 19);
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) counts[gen.nextValue() - 10]++;
    for (const c of counts) assert.ok(Math.abs(c - 10_000) < 600, `${counts}`);
  });

  it('hotspot sends hotopnfraction of draws to the first hotsetfraction of keys', () => {
    const gen = new HotspotGenerator(new Random(2), 0, 999, 0.2, 0.8);
    let hot = 0;
    for (let i = 0; i < 100_000; i++) if (gen.nextValue() < 200) hot++;
    assert.ok(Math.abs(hot / 100_000 - 0.8) < 0.01, `hot share ${hot / 100_000}`);
  });

  it('exponential puts `percentile`% of draws below the range', () => {
    const gen = new ExponentialGenerator(new Random(4), 95, 1000 * 0.8571428571);
    let below = 0;
    for (let i = 0; i < 100_000; i++) if (gen.nextValue() < 857) below++;
    assert.ok(Math.abs(below / 100_000 - 0.95) < 0.01, `share ${below / 100_000}`);
  });

  it('sequential walks the range and wraps', () => {
    const gen = new SequentialGenerator(5, 7);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map(() => gen.nextValue()),
      [5, 6, 7, 5, 6],
    );
  });

  it('skewed latest favours the newest keys and follows the counter', () => {
    const basis = new CounterGenerator(1000);
    const gen = new SkewedLatestGenerator(new Random(6), basis);
    const counts = new Map<number, number>();
    for (let i = 0; i < 50_000; i++) {
      const v = gen.nextValue();
      assert.ok(v >= 0 && v <= 999);
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    assert.equal(top, 999);
    for (let i = 0; i < 100; i++) basis.nextValue();
    let newest = 0;
    for (let i = 0; i < 10_000; i++) newest = Math.max(newest, gen.nextValue());
    assert.equal(newest, 1099);
  });

  it('the operation chooser honours proportions', () => {
    const chooser = new DiscreteGenerator(new Random(8), [
      ['READ', 0.5],
      ['UPDATE', 0.3],
      ['SCAN', 0],
      ['INSERT', 0.2],
    ] as const);
    const counts: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) {
      const op = chooser.nextValue();
      counts[op] = (counts[op] ?? 0) + 1;
    }
    assert.equal(counts.SCAN, undefined);
    assert.ok(Math.abs(counts.READ! / 1e5 - 0.5) < 0.01);
    assert.ok(Math.abs(counts.UPDATE! / 1e5 - 0.3) < 0.01);
    assert.ok(Math.abs(counts.INSERT! / 1e5 - 0.2) < 0.01);
  });
});

describe('acknowledged counter', () => {
  it('advances its limit only over contiguous acknowledged values', () => {
    const counter = new AcknowledgedCounterGenerator(100);
    assert.equal(counter.lastValue(), 99);
    const [a, b, c] = [counter.nextValue(), counter.nextValue(), counter.nextValue()];
    assert.deepEqual([a, b, c], [100, 101, 102]);
    counter.acknowledge(b);
    assert.equal(counter.lastValue(), 99, 'a gap at 100 holds the limit');
    counter.acknowledge(a);
    assert.equal(counter.lastValue(), 101);
    counter.acknowledge(c);
    assert.equal(counter.lastValue(), 102);
  });
});

describe('values', () => {
  it('builds YCSB dataintegrity values: key:field then :hashCode of the string so far, cut to size', () => {
    // Straight from YCSB's definition, re-hashing the whole string each round.
    const reference = (key: string, field: string, size: number) => {
      let s = `${key}:${field}`;
      while (s.length < size) s += `:${javaHashCode(`${s}:`)}`;
      return s.slice(0, size);
    };
    for (const size of [1, 10, 100, 500]) {
      const value = deterministicValue('user6284781860667377211', 'field3', size);
      assert.equal(value.length, size);
      assert.equal(value, reference('user6284781860667377211', 'field3', size));
    }
    assert.equal(javaHashCode('hello'), 99162322);
  });

  it("random values have the requested length and YCSB's character range", () => {
    const random = new Random(9);
    for (const length of [1, 5, 6, 7, 100]) {
      const v = randomValue(random, length);
      assert.equal(v.length, length);
      for (let i = 0; i < v.length; i++) assert.ok(v.charCodeAt(i) >= 32 && v.charCodeAt(i) <= 127);
    }
  });

  it('the same seed gives the same sequence; another seed another one', () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const seqA = Array.from({ length: 10 }, () => a.nextUint32());
    assert.deepEqual(
      seqA,
      Array.from({ length: 10 }, () => b.nextUint32()),
    );
    assert.notDeepEqual(
      seqA,
      Array.from({ length: 10 }, () => c.nextUint32()),
    );
    for (let i = 0; i < 10000; i++) {
      const d = a.nextDouble();
      assert.ok(d >= 0 && d < 1);
    }
  });
});
