/**
 * The scenario commands' rounds (`docbench ecommerce`, `persons`, `scenario <file>` with
 * `--repetitions`): one round is the command as it always ran (the stores in the order given,
 * no round in the results or file names); several are interleaved, every store once per round in
 * compare's seeded order; --skip-seed shares one dataset across rounds only when nothing writes;
 * and the table of repeated cells writes every figure with the one formatter.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundOrder } from '../../src/compare/rounds.ts';
import { percentileOverRepetitions } from '../../src/report/percentiles.ts';
import { formatSummary } from '../../src/stats/format.ts';
import { summarize } from '../../src/stats/summary.ts';
import { withRepetition } from '../../src/results/repetition.ts';
import { renderRepeatedTable } from '../../scenarios/shared/repeated-table.ts';
import { refuseSharedWrites, roundLine, roundSuffix, roundTurns } from '../../scenarios/shared/rounds.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

const stores = ['redis', 'mongodb', 'couchdb'];

describe('scenario rounds', () => {
  it('one round: the stores in the order given, no round recorded, file names and status as before', () => {
    const turns = roundTurns(stores, { repetitions: 1, orderSeed: 5 });
    assert.deepEqual(
      turns.map((t) => t.store),
      stores,
    );
    const place = turns[0]!.place;
    assert.equal(roundSuffix(place), '');
    assert.equal(roundLine('persons', place), '');
    const result = syntheticResult({ store: 'redis' });
    assert.equal(withRepetition(result, place, 'redis'), result);
    assert.equal(result.repetition, undefined);
  });

  it("several rounds: every store once per round, in compare's seeded order, each result stamped with its place", () => {
    const turns = roundTurns(stores, { repetitions: 3, orderSeed: 11 });
    assert.equal(turns.length, 9);
    for (const round of [1, 2, 3]) {
      const mine = turns.filter((t) => t.place.round === round);
      assert.deepEqual(
        mine.map((t) => t.store),
        roundOrder(stores, 11, round),
      );
      assert.deepEqual(
        mine.map((t) => t.opensRound),
        [true, false, false],
      );
      // The turns of a round run one after another, before the next round's.
      assert.deepEqual(turns.slice((round - 1) * 3, round * 3), mine);
    }
    const { store, place } = turns[4]!;
    assert.equal(roundSuffix(place), '-r2');
    assert.equal(roundLine('ecommerce', place), `[ecommerce] round 2 of 3: ${place.order.join(', ')}\n`);
    const stamped = withRepetition(syntheticResult({ store }), place, store);
    assert.deepEqual(stamped.repetition, {
      round: 2,
      rounds: 3,
      position: place.order.indexOf(store) + 1,
      order: place.order,
      seed: 11,
    });
    // Without a seed one is drawn, and every round of the command shares it.
    const drawn = roundTurns(stores, { repetitions: 2 });
    assert.equal(new Set(drawn.map((t) => t.place.seed)).size, 1);
  });

  it('--skip-seed shares one dataset across rounds only when nothing of the run writes', () => {
    const flags = { repetitions: 2, skipSeed: true };
    assert.throws(
      () => refuseSharedWrites(flags, 'the mix workload'),
      /--skip-seed with --repetitions 2: the mix workload writes, so each round would run on what the round before left; leave out --skip-seed/,
    );
    assert.doesNotThrow(() => refuseSharedWrites(flags, undefined));
    assert.doesNotThrow(() => refuseSharedWrites({ ...flags, skipSeed: false }, 'the mix workload'));
    assert.doesNotThrow(() => refuseSharedWrites({ ...flags, repetitions: 1 }, 'the mix workload'));
  });
});

describe("the table of a scenario's repeated cells", () => {
  // Three rounds of two stores, the second half as fast, as a scenario's run results.
  const results = [1, 2, 3].flatMap((round) =>
    ['redis', 'mongodb'].map((store, i) =>
      syntheticResult({ store, seed: round * 10 + i, latencyMs: 1 + i, runtimeMs: (3000 + round * 100) * (1 + i) }),
    ),
  );
  const show = (row: string) => row === 'READ' || row === 'UPDATE';

  it('gives each cell its throughput, latencies and counts over its rounds, from the one formatter', () => {
    const table = renderRepeatedTable(results, { shows: show });
    const redis = results.filter((r) => r.store.name === 'redis');
    const throughput = formatSummary(summarize(redis.map((r) => r.overall.throughputOpsPerSec)));
    const p99 = formatSummary(percentileOverRepetitions(redis, 'READ', 99), { brief: true });
    const count = redis.reduce((n, r) => n + r.operations.find((o) => o.name === 'READ')!.latency.operations, 0);
    const row = table.split('\n').find((line) => line.startsWith('| redis'))!;
    assert.ok(row.includes(throughput), row);
    assert.ok(row.includes(p99), row);
    assert.ok(row.includes(count.toLocaleString('en-US')), row);
    assert.match(throughput, /\(n=3, CoV \d+\.\d%\)$/);
    assert.match(table, /\| store +\| runs \| +ops\/s median \[95% CI\] \(n, CoV\) \| operation/);
    // Two stores on the workload: each against the fastest, with its verdict.
    assert.match(table, /Each store against the fastest of its workload/);
    assert.match(table, /\| workloada +\| 2 +\| mongodb +\|.*\| slower +\|/);
  });

  it('says nothing of ranks for one store', () => {
    const table = renderRepeatedTable(
      results.filter((r) => r.store.name === 'redis'),
      { shows: show },
    );
    assert.doesNotMatch(table, /against the fastest/);
  });
});
