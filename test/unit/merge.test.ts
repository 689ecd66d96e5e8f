/**
 * The exact merge (src/results/merge.ts): measurements split over several processes or client
 * machines, merged from their rows' HDR histograms, give exactly the result one process holding
 * every sample gives: the same counts, the same percentiles, the same histogram.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Measurements } from '../../src/measure/measurements.ts';
import type { Status } from '../../src/measure/status.ts';
import { buildResult, operationRows } from '../../src/results/build.ts';
import { absorbRows, MergeError, mergeResults } from '../../src/results/merge.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';

const storeInfo = {
  name: 'basic',
  url: 'basic://',
  server: 'none',
  serverVersion: '0',
  driver: 'none',
  localTarget: false,
};
const properties = workloadFromText('hdrhistogram.percentiles=1,50,90,99,99.9,99.99', 'test');
const PERCENTILES = properties['hdrhistogram.percentiles'];

/** A store call's outcome: operation, status, latency (ms) and queueing delay before it (ms). */
interface Sample {
  operation: string;
  status: Status;
  latencyMs: number;
  queuedMs: number;
}

/** Samples spread over six orders of magnitude (1 µs … 2 s), some failing, as a real run's are. */
function samples(count: number, seed: number): Sample[] {
  const random = new Random(seed);
  const statuses: Status[] = ['OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'NOT_FOUND', 'ERROR'];
  return Array.from({ length: count }, () => ({
    operation: random.nextInt(3) === 0 ? 'UPDATE' : 'READ',
    status: statuses[random.nextInt(statuses.length)]!,
    latencyMs: 10 ** (random.nextDouble() * 6.3 - 3),
    queuedMs: random.nextInt(4) === 0 ? random.nextDouble() * 50 : 0,
  }));
}

function record(m: Measurements, list: readonly Sample[]): Measurements {
  for (const s of list) {
    m.measure(
      s.operation,
      s.status,
      1000 - s.queuedMs,
      1000,
      1000 + s.latencyMs,
      s.status === 'ERROR' ? new Error(`failed ${s.operation}`) : undefined,
    );
    m.completeOperation(s.latencyMs + s.queuedMs);
  }
  return m;
}

function outcome(
  m: Measurements,
  endedAt: Date,
  runtimeMs: number,
  timeSeries: PhaseOutcome['timeSeries'] = [],
): PhaseOutcome {
  return {
    phase: 'run',
    measurements: m,
    startedAt: new Date(endedAt.getTime() - runtimeMs - 500),
    endedAt,
    runtimeMs,
    timeSeries,
    cpu: { userMs: 100, systemMs: 10 },
    recordsLoaded: 0,
    notes: [],
  };
}

function resultOf(o: PhaseOutcome): Result {
  return resultSchema.parse(
    buildResult(o, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: 'workloada',
      properties,
      overrides: [],
      store: storeInfo,
    }),
  );
}

describe('merge', () => {
  const all = samples(30_000, 7);
  const parts = [all.slice(0, 5000), all.slice(5000, 21_000), all.slice(21_000)];

  it("merges processes' rows into exactly the rows of one process holding every sample", () => {
    const single = record(new Measurements(true, true), all);
    const merged = new Measurements(true, true);
    for (const part of parts) {
      const rows = operationRows(record(new Measurements(true, true), part), []);
      // Through JSON, as the rows travel between threads and live in result files.
      absorbRows(merged, JSON.parse(JSON.stringify(rows)));
    }
    const expected = operationRows(single, PERCENTILES);
    const got = operationRows(merged, PERCENTILES);
    assert.deepEqual(
      got.map((r) => r.name),
      expected.map((r) => r.name),
    );
    for (const [i, row] of expected.entries()) {
      assert.deepEqual(got[i]!.latency, row.latency, `${row.name}: latency`);
      assert.deepEqual(got[i]!.returns, row.returns, `${row.name}: returns`);
      assert.deepEqual(got[i]!.histogram, row.histogram, `${row.name}: histogram`);
    }
    assert.deepEqual(got.find((r) => r.name === 'READ')!.errorSamples, ['failed READ']);
    assert.ok(
      expected.some((r) => r.name === 'Intended-UPDATE-FAILED'),
      'the samples reach every kind of row',
    );
  });

  it('merges result files of clients that ran at the same time: rows exact, throughput summed over the common window', () => {
    const endedAt = new Date('2025-01-01T10:00:10Z');
    const points = (ops: number) =>
      [1, 2, 3].map((t) => ({ t, operations: ops, opsPerSec: ops, p99Us: ops, warmup: false }));
    const results = parts.map((part, i) =>
      resultOf(
        outcome(
          record(new Measurements(true, true), part),
          new Date(endedAt.getTime() + i * 100),
          3000 - i * 100,
          points(100 * (i + 1)),
        ),
      ),
    );
    const merged = resultSchema.parse(mergeResults(results));
    const single = resultOf(outcome(record(new Measurements(true, true), all), endedAt, 3000));

    assert.deepEqual(merged.operations, single.operations);
    assert.deepEqual(merged.returns, single.returns);
    assert.equal(merged.overall.operations, 30_000);
    // Windows [7.0, 10.0], [7.2, 10.1], [7.4, 10.2] s: all measured from 7.4 s to 10.0 s.
    assert.equal(merged.overall.runtimeMs, 2600);
    const summed = results.reduce((sum, r) => sum + r.overall.throughputOpsPerSec, 0);
    assert.ok(
      Math.abs(merged.overall.throughputOpsPerSec - summed) < 0.01,
      `${merged.overall.throughputOpsPerSec} vs ${summed}`,
    );
    assert.equal(merged.clientCpu.userMs, 300);
    assert.equal(merged.clientCpu.processes, 3);
    // Second by second on the wall clock: every operation of the series once, p99 an upper bound.
    assert.equal(
      merged.timeSeries.reduce((n, p) => n + p.operations, 0),
      3 * (100 + 200 + 300),
    );
    assert.ok(merged.timeSeries.every((p) => p.p99Us <= 300));
    assert.ok(merged.notes.some((n) => n.startsWith('merged from 3 results')));
  });

  it('refuses what cannot be merged exactly, naming why', () => {
    const m = record(new Measurements(true, true), parts[0]!);
    const a = resultOf(outcome(m, new Date('2025-01-01T10:00:10Z'), 1000));
    const other = { ...a, workload: { ...a.workload, name: 'workloadb' } };
    assert.throws(
      () => mergeResults([a, other]),
      (e: unknown) => e instanceof MergeError && /workload workloada and workloadb/.test(e.message),
    );
    const later = { ...a, endedAt: '2025-01-01T10:00:20.000Z' };
    assert.throws(
      () => mergeResults([a, later]),
      (e: unknown) => e instanceof MergeError && /do not overlap/.test(e.message),
    );
    const old = { ...a, operations: a.operations.map(({ histogram: _, ...row }) => row) };
    assert.throws(
      () => mergeResults([old]),
      (e: unknown) => e instanceof MergeError && /no histogram/.test(e.message),
    );
    assert.throws(() => mergeResults([]), MergeError);
  });
});
