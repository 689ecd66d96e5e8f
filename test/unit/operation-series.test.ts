/**
 * The per-operation time series (src/measure/operation-series.ts): every call of a row lands in
 * exactly one interval, the intervals' histograms add up to the row's, each point's percentiles
 * are the one percentile function's over that interval, and the series of several processes or
 * client machines merge exactly (src/results/merge-operation-series.ts). Beside it, each
 * operation's outcomes second by second hold every counted call once, by kind.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addEncodedHistogram,
  encodeHistogram,
  newLatencyHistogram,
  valueAtPercentile,
} from '../../src/measure/histogram.ts';
import { IntervalRows } from '../../src/measure/interval-rows.ts';
import { Measurements } from '../../src/measure/measurements.ts';
import { OperationSeriesBuilder, type OperationSeries } from '../../src/measure/operation-series.ts';
import type { Status } from '../../src/measure/status.ts';
import { buildResult } from '../../src/results/build.ts';
import { mergeResults } from '../../src/results/merge.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { runTransactionPhase } from '../../src/runner/phases.ts';
import { ProcessPool } from '../../src/runner/process-pool.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
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
const STATUSES: Status[] = ['OK', 'OK', 'OK', 'OK', 'NOT_FOUND', 'ERROR', 'TIMEOUT'];

/** `seconds` seconds of calls into `m`, taken into a series every `interval` seconds as the status reporter does. */
function recordSeconds(m: Measurements, seconds: number, interval: number, seed: number): OperationSeries {
  const random = new Random(seed);
  const builder = new OperationSeriesBuilder(interval);
  const second = new IntervalRows();
  for (let s = 1; s <= seconds; s++) {
    for (let i = 0; i < 300 + random.nextInt(300); i++) {
      const status = STATUSES[random.nextInt(STATUSES.length)]!;
      const latencyMs = 10 ** (random.nextDouble() * 4 - 2);
      m.measure(
        random.nextInt(3) === 0 ? 'UPDATE' : 'READ',
        status,
        1000 - random.nextDouble() * 20,
        1000,
        1000 + latencyMs,
      );
    }
    m.takeIntervalRows(second);
    builder.addSecond(second, s);
    second.clear();
    if (s % interval === 0) builder.close(s);
  }
  // A last sliver of the run: folded into the last second, as the status reporter does.
  m.measure('READ', 'TIMEOUT', 1000, 1000, 1001);
  m.takeIntervalRows(second);
  builder.foldSecond(second, seconds + 0.4);
  second.clear();
  builder.finish(seconds + 0.4);
  return builder.series!;
}

/** Each operation's calls in the per-second outcomes, by status column, over the whole run. */
function secondsTotals(series: OperationSeries, operation: string): Record<string, number> {
  const row = series.seconds!.rows.find((r) => r.operation === operation)!;
  const total = (column: readonly number[] | undefined) => (column ?? []).reduce((a, b) => a + b, 0);
  return {
    ok: total(row.ok),
    error: total(row.error),
    unavailable: total(row.unavailable),
    timeout: total(row.timeout),
  };
}

/** The same totals from the measurements' status counts. */
function countedTotals(counts: ReadonlyMap<Status, number>): Record<string, number> {
  const n = (s: Status) => counts.get(s) ?? 0;
  return {
    ok: n('OK') + n('NOT_FOUND'),
    error: n('ERROR'),
    unavailable: n('SERVICE_UNAVAILABLE'),
    timeout: n('TIMEOUT'),
  };
}

function union(encoded: readonly string[]) {
  const h = newLatencyHistogram();
  for (const e of encoded) if (e !== '') addEncodedHistogram(h, e);
  return h;
}

describe('per-operation time series', () => {
  it('puts every call of every row in one interval, with that interval’s own percentiles', () => {
    const m = new Measurements(true, true);
    const series = recordSeconds(m, 7, 2, 3);
    assert.deepEqual(series.t, [2, 4, 6, 7.4]);
    for (const name of ['READ', 'READ-FAILED', 'Intended-READ', 'Intended-READ-FAILED', 'UPDATE', 'Intended-UPDATE']) {
      const row = series.rows.find((r) => r.name === name);
      assert.ok(row, name);
      const whole = m.series.get(name)!.histogram;
      assert.equal(
        row.count.reduce((a, b) => a + b, 0),
        whole.totalCount,
        `${name}: calls`,
      );
      assert.equal(
        encodeHistogram(union(row.histograms)),
        encodeHistogram(whole),
        `${name}: the intervals add up to the row`,
      );
      row.histograms.forEach((encoded, i) => {
        const h = union([encoded]);
        assert.equal(row.p99Us[i], valueAtPercentile(h, 99), `${name} p99 of interval ${i}`);
        assert.equal(row.p50Us[i], valueAtPercentile(h, 50), `${name} p50 of interval ${i}`);
      });
    }
    const read = series.rows.find((r) => r.name === 'READ')!;
    const failing = (m.statusCounts('READ').get('ERROR') ?? 0) + (m.statusCounts('READ').get('TIMEOUT') ?? 0);
    assert.deepEqual(series.seconds!.t, [1, 2, 3, 4, 5, 6, 7.4], 'a point a second, the sliver in the last');
    for (const operation of ['READ', 'UPDATE'])
      assert.deepEqual(
        secondsTotals(series, operation),
        countedTotals(m.statusCounts(operation)),
        `${operation}: every call in one second, by kind`,
      );
    assert.equal(series.seconds!.rows.find((r) => r.operation === 'READ')!.timeout!.at(-1)! > 0, true);
    assert.equal(
      read.failed!.reduce((a, b) => a + b, 0),
      failing,
      'failed READs: ERROR and TIMEOUT, not NOT_FOUND',
    );
  });

  it('merges the series of two clients exactly: each point holds every call both made in it', () => {
    const endedAt = new Date('2026-01-01T00:00:10Z');
    const startedAt = new Date(endedAt.getTime() - 7400);
    const parts = [1, 2].map((seed) => {
      const m = new Measurements(true, true);
      const operationSeries = recordSeconds(m, 7, 2, seed);
      return {
        m,
        result: buildResult(
          {
            phase: 'run',
            measurements: m,
            startedAt,
            endedAt,
            runtimeMs: 7400,
            timeSeries: [],
            operationSeries,
            cpu: { userMs: 1, systemMs: 1 },
            recordsLoaded: 0,
            notes: [],
          },
          {
            kind: 'ycsb',
            mode: 'direct',
            workloadName: 'w',
            properties: workloadFromText('', 't'),
            overrides: [],
            store: storeInfo,
          },
        ),
      };
    });
    const merged = mergeResults(parts.map((p) => p.result));
    resultSchema.parse(merged);
    const series = merged.operationSeries!;
    assert.deepEqual(series.t, [2, 4, 6, 8]);
    assert.deepEqual(
      series.seconds!.t,
      [1, 2, 3, 4, 5, 6, 8],
      'the seconds on the wall clock (the last, 7.4 s, ended in the 8th)',
    );
    for (const operation of ['READ', 'UPDATE']) {
      const both = parts.map((p) => secondsTotals(p.result.operationSeries!, operation));
      assert.deepEqual(
        secondsTotals(series, operation),
        Object.fromEntries(Object.keys(both[0]!).map((k) => [k, both[0]![k]! + both[1]![k]!])),
        `${operation}: the outcomes of both clients added`,
      );
    }
    for (const row of series.rows) {
      const whole = merged.operations.find((o) => o.name === row.name)!;
      assert.equal(
        row.count.reduce((a, b) => a + b, 0),
        whole.latency.operations,
        `${row.name}: every call once`,
      );
      row.histograms.forEach((encoded, i) => {
        const both = union(
          parts.map((p) => p.result.operationSeries!.rows.find((r) => r.name === row.name)?.histograms[i] ?? ''),
        );
        assert.equal(encoded, both.totalCount > 0 ? encodeHistogram(both) : '', `${row.name} interval ${i}`);
        assert.equal(row.p99Us[i], both.totalCount > 0 ? valueAtPercentile(both, 99) : 0);
      });
    }
  });

  it('collects the rows of worker processes as the status interval goes, every call once', async () => {
    const p = workloadFromText(
      'recordcount=200\noperationcount=0\nmaxexecutiontime=3\nstatus.interval=1\ntarget=600\nthreadcount=4\nreadproportion=0.5\nupdateproportion=0.5',
      'test',
    );
    const pool = await ProcessPool.start({
      store: 'basic',
      url: 'basic://',
      settings: {},
      threadcount: 4,
      processes: 2,
    });
    try {
      const store = createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 });
      const outcome = await runTransactionPhase({
        store,
        workload: new CoreWorkload(p, new Random(1)),
        properties: p,
        status: false,
        label: 'pool',
        pool,
      });
      const series = outcome.operationSeries!;
      assert.ok(series.t.length >= 3);
      for (const row of series.rows) {
        assert.equal(
          row.count.reduce((a, b) => a + b, 0),
          outcome.measurements.series.get(row.name)!.histogram.totalCount,
          `${row.name}: every call once`,
        );
      }
      assert.equal(
        series.seconds!.t.length,
        outcome.timeSeries.length,
        'a point of outcomes per point of the time series',
      );
      for (const operation of ['READ', 'UPDATE'])
        assert.deepEqual(
          secondsTotals(series, operation),
          countedTotals(outcome.measurements.statusCounts(operation)),
          `${operation}: every process's calls in the per-second outcomes, once`,
        );
    } finally {
      await pool.close();
    }
  });
});
