import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Measurements } from '../../src/measure/measurements.ts';
import { StatusReporter } from '../../src/measure/status-reporter.ts';
import { buildResult } from '../../src/results/build.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { runLoadPhase, runTransactionPhase } from '../../src/runner/phases.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';

const storeInfo = { name: 'basic', url: 'basic://', server: 'none', serverVersion: '0', driver: 'none', localTarget: false };

async function loaded(overrides: string[]) {
  const properties = workloadFromText('recordcount=500\nrequestdistribution=zipfian', 'test', overrides);
  const store = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
  await store.prepare({ table: properties.table, fieldNames: [] });
  await runLoadPhase({ store, workload: new CoreWorkload(properties, new Random(1)), properties, status: false, label: 'load' });
  return { store, properties };
}

describe('runner', () => {
  it('loads every record once, in batches', async () => {
    const { store } = await loaded([]);
    const stats = await store.stats();
    assert.equal(stats.recordCount, 500);
    assert.equal(stats.extra?.['INSERT-BATCH'], 5);
  });

  it('holds a target rate with a per-worker schedule and reports intended-time latency', async () => {
    const { store, properties } = await loaded(['operationcount=300', 'threadcount=4', 'target=500']);
    const outcome = await runTransactionPhase({ store, workload: new CoreWorkload(properties, new Random(2)), properties, status: false, label: 'run' });
    const seconds = outcome.runtimeMs / 1000;
    // 300 operations at 500/s take about 0.6 s: never faster than the schedule allows.
    assert.ok(seconds > 0.55 && seconds < 1.2, `took ${seconds} s`);
    const result = buildResult(outcome, { kind: 'ycsb', mode: 'direct', workloadName: 't', properties, overrides: [], store: storeInfo });
    assert.ok(result.operations.some((o) => o.name === 'Intended-READ'));
    assert.ok(Math.abs(result.overall.throughputOpsPerSec - 500) < 100, `throughput ${result.overall.throughputOpsPerSec}`);
  });

  it('shows queueing delay in Intended- rows when the store falls behind the schedule', async () => {
    const properties = workloadFromText('recordcount=100\noperationcount=100\nthreadcount=1\ntarget=1000', 't');
    // Each call takes up to 10 ms, so a 1 ms schedule falls further behind with every operation.
    const store = createBasicStore({ url: 'basic://', settings: { 'basic.simulatedelay': '10' }, concurrency: 1 });
    const outcome = await runTransactionPhase({ store, workload: new CoreWorkload(properties, new Random(3)), properties, status: false, label: 'slow' });
    const result = buildResult(outcome, { kind: 'ycsb', mode: 'direct', workloadName: 't', properties, overrides: [], store: storeInfo });
    const service = result.operations.find((o) => o.name === 'READ')!.latency;
    const intended = result.operations.find((o) => o.name === 'Intended-READ')!.latency;
    // Timers on a loaded 2-core machine can stretch a 10 ms call, so the service bound is loose;
    // what must hold is that the queueing delay shows in Intended- rows, not in service time.
    assert.ok(service.percentilesUs['99']! <= 50_000, `service p99 ${service.percentilesUs['99']}`);
    assert.ok(intended.percentilesUs['99']! > 100_000, `intended p99 ${intended.percentilesUs['99']}`);
    assert.ok(intended.percentilesUs['99']! > 3 * service.percentilesUs['99']!, 'intended-time latency includes the queueing delay');
  });

  it('stops at maxexecutiontime and leaves warm-up out of the statistics', async () => {
    const properties = workloadFromText('recordcount=100\noperationcount=0\nmaxexecutiontime=2\nwarmuptime=1\nthreadcount=2', 't');
    const store = createBasicStore({ url: 'basic://', settings: { 'basic.simulatedelay': '2' }, concurrency: 1 });
    const started = Date.now();
    const outcome = await runTransactionPhase({ store, workload: new CoreWorkload(properties, new Random(4)), properties, status: false, label: 'timed' });
    const elapsed = (Date.now() - started) / 1000;
    assert.ok(elapsed >= 1.9 && elapsed < 3, `ran ${elapsed} s`);
    assert.ok(outcome.measurements.warmupOperations > 0);
    assert.ok(outcome.runtimeMs > 800 && outcome.runtimeMs < 1300, `measured window ${outcome.runtimeMs} ms`);
    const result = resultSchema.parse(buildResult(outcome, { kind: 'ycsb', mode: 'direct', workloadName: 't', properties, overrides: [], store: storeInfo }));
    const counted = result.operations.filter((o) => o.name === 'READ' || o.name === 'UPDATE').reduce((n, o) => n + o.latency.operations, 0);
    assert.equal(counted, result.overall.operations);
    assert.equal(result.warmup.operations, outcome.measurements.warmupOperations);
  });

  it('counts statuses and keeps failed latencies apart, as YCSB does', () => {
    const m = new Measurements(true, true);
    m.measure('READ', 'OK', 0, 0, 1);
    m.measure('READ', 'NOT_FOUND', 0, 0, 2, new Error('gone'));
    m.measure('READ', 'ERROR', 0, 0, 3, new Error('boom'));
    const properties = workloadFromText('', 't');
    const result = buildResult(
      { phase: 'run', measurements: m, startedAt: new Date(), endedAt: new Date(), runtimeMs: 1000, timeSeries: [], cpu: { userMs: 1, systemMs: 1 }, recordsLoaded: 0, notes: [] },
      { kind: 'ycsb', mode: 'direct', workloadName: 't', properties, overrides: [], store: storeInfo },
    );
    const read = result.operations.find((o) => o.name === 'READ')!;
    assert.deepEqual(read.returns, { OK: 1, NOT_FOUND: 1, ERROR: 1 });
    assert.deepEqual(read.errorSamples, ['gone', 'boom']);
    assert.equal(result.operations.find((o) => o.name === 'READ-FAILED')!.latency.operations, 2);
    assert.equal(result.operations.find((o) => o.name === 'Intended-READ')!.latency.operations, 1);
    const text = renderYcsbText(result);
    assert.match(text, /^\[READ\], Return=NOT_FOUND, 1$/m);
    assert.match(text, /^\[READ-FAILED\], Operations, 2$/m);
    assert.match(text, /^\[READ\], 99\.9PercentileLatency\(us\), \d+$/m);
    assert.match(text, /^\[READ\], 50thPercentileLatency\(us\), \d+$/m);
  });

  it('writes one status line per interval when not on a terminal', async () => {
    const m = new Measurements(true, false);
    const lines: string[] = [];
    const reporter = new StatusReporter(m, { intervalSeconds: 1, totalOperations: 100, maxSeconds: 0, label: '[t]', write: (t) => lines.push(t), isTTY: false });
    reporter.start();
    for (let i = 0; i < 50; i++) m.completeOperation(0.5);
    await new Promise((resolve) => setTimeout(resolve, 1150));
    reporter.stop();
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^\[t\] 1 sec: 50 operations; 50\.0 current ops\/sec; p99 \d+ us; est completion in \d+ s\n$/);
    assert.ok(reporter.series.length >= 1);
  });
});
