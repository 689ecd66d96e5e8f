/**
 * The split of a sharded run (src/shard/shard-spec.ts): each part's share is deterministic, the
 * shares sum to the whole (keys, operations, threads, target rate), load key ranges tile the key
 * space, run-phase inserts of different parts never name one key, and every bad --shard or
 * JOB_COMPLETION_INDEX is one line.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evenShares } from '../../src/common/even-shares.ts';
import { UsageError } from '../../src/common/user-error.ts';
import { splitWorkers } from '../../src/runner/process-pool.ts';
import { offsetOf } from '../../src/shard/barrier.ts';
import { parseShardOption, rateShareOf, shardOf, shareWorkload } from '../../src/shard/shard-spec.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';

const parts = (n: number) => Array.from({ length: n }, (_, index) => ({ index, count: n }));

describe('evenShares', () => {
  it('splits contiguously, the remainder over the first parts, summing to the whole', () => {
    assert.deepEqual(evenShares(10, 4), [
      { first: 0, count: 3 },
      { first: 3, count: 3 },
      { first: 6, count: 2 },
      { first: 8, count: 2 },
    ]);
    for (const [total, n] of [
      [0, 3],
      [7, 7],
      [1_000_003, 16],
      [5, 8],
    ] as const) {
      const shares = evenShares(total, n);
      assert.equal(
        shares.reduce((s, x) => s + x.count, 0),
        total,
      );
      for (let i = 1; i < n; i++) assert.equal(shares[i]!.first, shares[i - 1]!.first + shares[i - 1]!.count);
      assert.ok(Math.max(...shares.map((s) => s.count)) - Math.min(...shares.map((s) => s.count)) <= 1);
    }
  });

  it('is the split worker processes use', () => {
    assert.deepEqual(
      splitWorkers(10, 4),
      evenShares(10, 4).map((s) => ({ firstWorker: s.first, workers: s.count })),
    );
  });
});

describe('--shard and --shards', () => {
  it('parses i/N, and takes i from JOB_COMPLETION_INDEX with --shards', () => {
    assert.deepEqual(parseShardOption('2/4'), { index: 2, count: 4 });
    assert.deepEqual(shardOf({ shards: 4 }, { JOB_COMPLETION_INDEX: '3' }), { index: 3, count: 4 });
    assert.equal(shardOf({}, { JOB_COMPLETION_INDEX: '3' }), undefined);
  });

  it('refuses bad input with one line', () => {
    const refused = (f: () => unknown, pattern: RegExp) =>
      assert.throws(f, (e: unknown) => e instanceof UsageError && pattern.test(e.message) && !e.message.includes('\n'));
    refused(() => parseShardOption('4/4'), /--shard 4\/4: the part index counts from 0 and must be below 4/);
    refused(() => parseShardOption('1-4'), /--shard expects i\/N/);
    refused(() => parseShardOption('0/0'), /N must be 1 or more/);
    refused(() => shardOf({ shards: 4 }, {}), /--shards 4: JOB_COMPLETION_INDEX is not set/);
    refused(() => shardOf({ shards: 4 }, { JOB_COMPLETION_INDEX: '4' }), /must be a whole number from 0 to 3, got "4"/);
    refused(() => shardOf({ shards: 4 }, { JOB_COMPLETION_INDEX: 'x' }), /got "x"/);
    refused(() => shardOf({ shard: '0/4', shards: 4 }, {}), /--shard and --shards: give one/);
  });
});

describe('a part’s share', () => {
  const p = workloadFromText(
    'recordcount=1003\noperationcount=10001\nthreadcount=10\ntarget=1000.5\ninsertproportion=0.5\nreadproportion=0.5\nupdateproportion=0\nrequestdistribution=zipfian',
    'test',
  );

  it('load: key ranges tiling insertstart…insertstart+insertcount-1, threads summing to the whole', () => {
    const shares = parts(4).map((spec) => shareWorkload(p, spec, 'load'));
    let next = 0;
    for (const share of shares) {
      assert.equal(share.properties.insertstart, next);
      assert.deepEqual(share.keys, { first: next, count: share.properties.insertcount });
      next += share.properties.insertcount;
    }
    assert.equal(next, 1003);
    assert.equal(
      shares.reduce((s, x) => s + x.properties.threadcount, 0),
      10,
    );
    assert.deepEqual(shares[0]!.whole, {
      threadcount: 10,
      target: 1000.5,
      operationcount: 10001,
      insertstart: 0,
      insertcount: 1003,
      seed: 1,
    });
  });

  it('run: operations, threads and the target rate summing exactly; its own seed; the whole key space read', () => {
    const shares = parts(4).map((spec) => shareWorkload(p, spec, 'run'));
    assert.equal(
      shares.reduce((s, x) => s + x.properties.operationcount, 0),
      10001,
    );
    assert.equal(
      shares.reduce((s, x) => s + x.properties.target, 0),
      1000.5,
    );
    assert.deepEqual(
      parts(4).map((spec) => rateShareOf(1000.5, spec)),
      [250, 250, 250, 250.5],
    );
    assert.equal(new Set(shares.map((s) => s.properties.seed)).size, 4);
    assert.equal(shares[0]!.properties.seed, p.seed);
    for (const s of shares) assert.deepEqual([s.properties.insertstart, s.properties.insertcount], [0, 1003]);
    // One part is the unsharded run.
    const one = shareWorkload(p, { index: 0, count: 1 }, 'run').properties;
    assert.deepEqual({ ...one, insertKeys: undefined }, { ...p, insertKeys: undefined });
  });

  it('run: the parts’ inserts never name one key, and reads stay on loaded or own acknowledged keys', () => {
    const seen = new Map<string, number>();
    for (const spec of parts(4)) {
      const share = shareWorkload(p, spec, 'run');
      const workload = new CoreWorkload(share.properties, new Random(share.properties.seed));
      const own = new Set<string>();
      for (let i = 0; i < 500; i++) {
        const { key, keyNumber } = workload.nextInsertKey();
        assert.equal(seen.has(key), false, `part ${spec.index} inserts ${key}, inserted by part ${seen.get(key)}`);
        seen.set(key, spec.index);
        own.add(key);
        workload.acknowledgeInsert(keyNumber);
      }
      const loaded = new Set(Array.from({ length: 1003 }, (_, n) => workload.keyName(n)));
      for (let i = 0; i < 500; i++) {
        const key = workload.nextTransactionKey();
        assert.ok(
          loaded.has(key) || own.has(key),
          `part ${spec.index} reads ${key}, neither loaded nor its own insert`,
        );
      }
    }
    assert.equal(seen.size, 2000);
  });

  it('refuses a split that leaves a part nothing, naming the property', () => {
    const tiny = workloadFromText('recordcount=3\noperationcount=3\nthreadcount=2\ntarget=3', 'test');
    assert.throws(
      () => shareWorkload(tiny, { index: 0, count: 4 }, 'run'),
      /threadcount 2 cannot be split over 4 parts/,
    );
    const threads = { ...tiny, threadcount: 4 };
    assert.throws(
      () => shareWorkload(threads, { index: 0, count: 4 }, 'run'),
      /target 3 ops\/s cannot be split over 4 parts/,
    );
    assert.throws(
      () => shareWorkload({ ...threads, target: 0 }, { index: 0, count: 4 }, 'run'),
      /operationcount 3 cannot be split/,
    );
    assert.throws(
      () => shareWorkload({ ...threads, target: 0 }, { index: 0, count: 4 }, 'load'),
      /insertcount 3 cannot be split/,
    );
  });
});

describe('the barrier’s clock offset', () => {
  it('is the coordinator’s reading minus the midpoint of the round trip', () => {
    assert.deepEqual(offsetOf(1000, 1600, 1010), { offsetMs: 595, roundTripMs: 10 });
  });
});
