/**
 * `report --merge` of a sharded run's parts (src/results/merge-shards.ts): parts that do not
 * form one whole are refused with one line each (a missing part, one given twice, parts of
 * different runs, sharded and unsharded mixed); a whole merges exactly, recording its parts,
 * their start spread, the keys covered, and the parts that could not keep their share.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addEncodedHistogram, newLatencyHistogram, valueAtPercentile } from '../../src/measure/histogram.ts';
import { MergeError, mergeResults } from '../../src/results/merge.ts';
import { resultSchema, type Result, type ShardInfo } from '../../src/results/schema.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

const whole = { threadcount: 4, target: 0, operationcount: 0, insertstart: 0, insertcount: 1000, seed: 1 };

function part(index: number, count = 4, extra: Partial<ShardInfo> = {}): Result {
  const result = syntheticResult({ store: 'redis', seed: index + 1, operations: 500 + index });
  const start = Date.parse(result.startedAt);
  const keys = { first: index * 250, count: 250 };
  return resultSchema.parse({
    ...result,
    shard: {
      index,
      count,
      settings: 'abc123',
      whole,
      keys,
      start: {
        barrier: '127.0.0.1:7070',
        startAt: new Date(start).toISOString(),
        offsetMs: 0,
        roundTripMs: 0.2,
        lateMs: index * 1.5,
      },
      ...extra,
    },
  });
}

const refused = (results: Result[], pattern: RegExp) =>
  assert.throws(
    () => mergeResults(results),
    (e: unknown) => e instanceof MergeError && pattern.test(e.message) && !e.message.includes('\n'),
  );

describe('merging the parts of a sharded run', () => {
  it('refuses a missing part, a part given twice, parts of different runs, sharded with unsharded', () => {
    refused([part(0), part(1), part(3)], /^part 2 of 4 is missing$/);
    refused([part(0), part(3)], /^parts 1, 2 of 4 are missing$/);
    refused([part(0), part(1), part(2), part(2), part(3)], /^part 2 of 4 is given more than once$/);
    refused(
      [part(0), part(1), part(2), part(3, 4, { settings: 'other' })],
      /^cannot merge parts of different runs: .*settings abc123.*parts 0, 1, 2.*settings other.*part 3/,
    );
    refused([part(0), part(1), part(2), part(3, 4, { runId: 'tuesday' })], /different runs/);
    refused([part(0, 2), part(1, 2), part(2)], /different runs: .*2 parts.*4 parts/);
    refused(
      [part(0), part(1), part(2), part(3), syntheticResult({ store: 'redis' })],
      /^cannot merge sharded and unsharded results: 4 of 5/,
    );
  });

  it('merges a whole exactly: counts summed, percentiles of the union of histograms, what the parts were', () => {
    const parts = [part(2), part(0), part(3), part(1)];
    const merged = mergeResults(parts);
    assert.equal(
      merged.overall.operations,
      parts.reduce((n, p) => n + p.overall.operations, 0),
    );
    const read = merged.operations.find((o) => o.name === 'READ')!;
    assert.equal(
      read.latency.operations,
      parts.reduce((n, p) => n + p.operations.find((o) => o.name === 'READ')!.latency.operations, 0),
    );
    // The union of the parts' histograms, made here: the merged percentiles are its.
    const union = newLatencyHistogram();
    for (const p of parts) addEncodedHistogram(union, p.operations.find((o) => o.name === 'READ')!.histogram!);
    for (const percentile of ['50', '99', '99.9'])
      assert.equal(read.latency.percentilesUs[percentile], valueAtPercentile(union, Number(percentile)));
    assert.deepEqual(merged.shards, {
      count: 4,
      settings: 'abc123',
      synchronised: true,
      startSpreadMs: 4.5,
      keys: { first: 0, count: 1000 },
      saturated: [],
    });
    assert.equal(merged.shard, undefined);
    assert.equal(merged.workload.properties.threadcount, 4);
    assert.ok(merged.notes.some((n) => n.includes('the 4 parts of one sharded run')));
  });

  it('names the parts that could not keep their share of the target rate in the verdict', () => {
    const slow =
      'it issued 700 ops/s of its 1000 ops/s share of the target (too few workers, or its CPU was the limit)';
    const merged = mergeResults([part(0), part(1, 4, { saturated: slow }), part(2), part(3)]);
    assert.deepEqual(merged.shards!.saturated, [{ index: 1, detail: slow }]);
    assert.equal(merged.verdict!.status, 'invalid');
    assert.match(
      merged.verdict!.reasons.at(-1)!.detail,
      /^part 1 \(it issued 700 ops\/s.*\) of 4 could not keep its share of the target rate/,
    );
  });

  it('refuses load parts whose key ranges do not tile the run’s', () => {
    refused(
      [part(0), part(1), part(2, 4, { keys: { first: 501, count: 249 } }), part(3)],
      /part 2 wrote keys from 501, but the parts before it ended at 499/,
    );
  });
});
