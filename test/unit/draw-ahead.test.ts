/**
 * The workload draws operations and keys ahead, a batch at a time (src/workload/draw-ahead.ts).
 * A key drawn before some inserts were acknowledged is taken later: it must still never pass the
 * acknowledged limit at the moment it is taken, its name must be its own, and the mix and the
 * hot keys must be the workload's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CoreWorkload, localCounters } from '../../src/workload/core-workload.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';

describe('draws made ahead', () => {
  it('never hand out a key beyond the inserts acknowledged when it is taken, and name each key as itself', () => {
    // Zipfian over a key space that grows with the inserts (YCSB sizes it for them), ordered key
    // names so a name shows its number; half the operations insert, and acknowledgements lag.
    const p = workloadFromText(
      'recordcount=500\noperationcount=20000\nreadproportion=0.5\ninsertproportion=0.5\nupdateproportion=0\nrequestdistribution=zipfian\ninsertorder=ordered',
      'test',
    );
    const counters = localCounters(p);
    const workload = new CoreWorkload(p, new Random(3), counters);
    const unacknowledged: number[] = [];
    let reads = 0;
    for (let i = 0; i < 20_000; i++) {
      if (workload.nextOperation() === 'INSERT') {
        unacknowledged.push(workload.nextInsertKey().keyNumber);
        // Acknowledge in bursts, oldest first, so the limit moves in jumps well after the draws.
        if (unacknowledged.length >= 40)
          for (const key of unacknowledged.splice(0, 25)) workload.acknowledgeInsert(key);
        continue;
      }
      const limit = counters.transactionInserts.lastValue();
      const key = workload.nextTransactionKey();
      const number = Number(key.slice('user'.length));
      assert.ok(number <= limit, `key ${key} taken while the acknowledged limit was ${limit}`);
      assert.equal(key, workload.keyName(number));
      reads++;
    }
    // The operation mix is the workload's.
    assert.ok(reads > 9_000 && reads < 11_000, `${reads} reads of 20,000 operations at readproportion=0.5`);
  });

  it("keep the zipfian's hot keys hot: the same top keys as drawing one at a time", () => {
    const p = workloadFromText(
      'recordcount=1000\noperationcount=100000\nreadproportion=1\nupdateproportion=0\nrequestdistribution=zipfian',
      'test',
    );
    const workload = new CoreWorkload(p, new Random(9));
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      workload.nextOperation();
      const key = workload.nextTransactionKey();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    // The scrambled zipfian's most popular ranks 0, 1, 2 land on fixed keys (FNV of the rank,
    // modulo the chooser's item count), whatever the order of draws. YCSB's chooser spans
    // insertstart … insertstart + insertcount + expected new keys, both ends included: 1,001 items.
    const expected = [0, 1, 2].map((rank) => workload.keyName(scrambledKeyOfRank(rank, 1001)));
    const top = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([key]) => key);
    assert.deepEqual(top, expected);
  });
});

/** The key number YCSB's scrambled zipfian gives a popularity rank: fnvhash64(rank) mod the item count. */
function scrambledKeyOfRank(rank: number, items: number): number {
  // FNV-1a over the 8 little-endian bytes of the rank, then Math.abs of the signed 64-bit result.
  let hash = 0xcbf29ce484222325n;
  let value = BigInt(rank);
  for (let i = 0; i < 8; i++) {
    hash ^= value & 0xffn;
    hash = (hash * 1099511628211n) & 0xffffffffffffffffn;
    value >>= 8n;
  }
  const signed = hash >= 1n << 63n ? hash - (1n << 64n) : hash;
  return Number((signed < 0n ? -signed : signed) % BigInt(items));
}
