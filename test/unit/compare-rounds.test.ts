/**
 * How `compare` lays out its rounds: which workloads share a load (YCSB's documented order) and
 * each round's order of stores (a seeded shuffle).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadChains } from '../../src/compare/load-chains.ts';
import { roundOrder } from '../../src/compare/rounds.ts';
import { loadWorkload, type LoadedWorkload } from '../../src/workload/workload-file.ts';

const workloads = (names: readonly string[], extra: readonly string[] = []) =>
  names.map((n) => loadWorkload([`workload${n}`], ['recordcount=100', ...extra]));
const chainNames = (ws: readonly LoadedWorkload[]) =>
  loadChains(ws, (w) => w.properties).map((c) => c.runs.map((w) => w.name.replace('workload', '')).join(''));

describe('compare: which workloads share a load', () => {
  it("A–H: reads and updates on one load, D (the first insert) last, E on a load of its own (YCSB's documented order)", () => {
    assert.deepEqual(chainNames(workloads(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])), ['abcfghd', 'e']);
  });
  it('an insert listed first still runs after the reads and updates that share its load', () => {
    assert.deepEqual(chainNames(workloads(['d', 'a', 'c'])), ['acd']);
  });
  it('workloads whose loads would differ never share one', () => {
    const ws = [...workloads(['a']), ...workloads(['c'], ['fieldcount=5'])];
    assert.deepEqual(chainNames(ws), ['a', 'c']);
  });
  it('with the failover check on, every workload gets its own load', () => {
    assert.deepEqual(chainNames(workloads(['a', 'c'], ['failovercheck=true', 'dataintegrity=true'])), ['a', 'c']);
  });
});

describe('compare: the order of each round', () => {
  const stores = ['redis', 'cassandra', 'mongodb', 'couchdb', 'couchbase', 'hbase'];
  it('is a permutation of the stores, the same for the same seed and round', () => {
    const order = roundOrder(stores, 42, 1);
    assert.deepEqual([...order].sort(), [...stores].sort());
    assert.deepEqual(roundOrder(stores, 42, 1), order);
  });
  it('differs from round to round (a fresh order each round)', () => {
    const orders = new Set([1, 2, 3, 4, 5].map((round) => roundOrder(stores, 42, round).join()));
    assert.ok(orders.size > 1);
  });
  it('puts every store first about equally often over many rounds', () => {
    const first = new Map<string, number>();
    for (let round = 1; round <= 6000; round++) {
      const s = roundOrder(stores, 7, round)[0]!;
      first.set(s, (first.get(s) ?? 0) + 1);
    }
    // 1,000 expected each; a fair shuffle stays well within ±20%.
    for (const s of stores) assert.ok(Math.abs((first.get(s) ?? 0) - 1000) < 200, `${s}: ${first.get(s)}`);
  });
});
