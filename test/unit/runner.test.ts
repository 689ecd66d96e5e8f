/**
 * The run loop, measured on BasicDB (no server). Nothing here asserts how long anything took:
 * a loaded 2-core machine stretches every timer. What the runner guarantees is asserted instead:
 * every operation counted once, a target-rate schedule never run ahead of, queueing delay in
 * Intended- rows and not in service time, the warm-up kept out of the statistics.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { Measurements } from '../../src/measure/measurements.ts';
import { StatusReporter } from '../../src/measure/status-reporter.ts';
import { buildResult } from '../../src/results/build.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { runLoadPhase, runTransactionPhase } from '../../src/runner/phases.ts';
import { runScheduled } from '../../src/runner/schedule.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import type { Store } from '../../src/stores/store.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';
import { TIMER_EARLY_MS, waitFor } from '../support/wait.ts';

const storeInfo = {
  name: 'basic',
  url: 'basic://',
  server: 'none',
  serverVersion: '0',
  driver: 'none',
  localTarget: false,
};

async function loaded(overrides: string[]) {
  const properties = workloadFromText('recordcount=500\nrequestdistribution=zipfian', 'test', overrides);
  const store = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
  await store.prepare({ table: properties.table, fieldNames: [] });
  await runLoadPhase({
    store,
    workload: new CoreWorkload(properties, new Random(1)),
    properties,
    status: false,
    label: 'load',
  });
  return { store, properties };
}

/** When one store call started and ended (performance.now(), ms). */
interface Call {
  start: number;
  end: number;
}

/**
 * `base` with every call noted, so a test can check the schedule from the store's side. With
 * `holdMs`, each call also takes at least that long, by the clock, not by a timer's promise.
 */
function recordingCalls(base: Store, holdMs = 0): { store: Store; calls: Call[] } {
  const calls: Call[] = [];
  const noted = async <T>(call: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    for (let left = holdMs; left > 0; left = holdMs - (performance.now() - start)) await sleep(left);
    const value = await call();
    calls.push({ start, end: performance.now() });
    return value;
  };
  const store: Store = Object.assign(Object.create(base) as Store, {
    read: (table: string, key: string, fields: readonly string[] | null) => noted(() => base.read(table, key, fields)),
    update: (table: string, key: string, values: Record<string, string>) =>
      noted(() => base.update(table, key, values)),
    insert: (table: string, key: string, values: Record<string, string>) =>
      noted(() => base.insert(table, key, values)),
    scan: (table: string, start: string, count: number, fields: readonly string[] | null) =>
      noted(() => base.scan(table, start, count, fields)),
    delete: (table: string, key: string) => noted(() => base.delete(table, key)),
  });
  return { store, calls };
}

/** Each operation is counted once under its own row (OVERALL), and each has its Intended- twin. */
function assertEveryOperationCounted(result: Result, operations: number): void {
  assert.equal(result.overall.operations, operations);
  const rows = result.operations.filter((o) => !o.name.startsWith('Intended-'));
  assert.equal(
    rows.reduce((n, o) => n + o.latency.operations, 0),
    operations,
    `rows: ${rows.map((o) => `${o.name} ${o.latency.operations}`).join(', ')}`,
  );
  for (const row of rows)
    assert.equal(
      result.operations.find((o) => o.name === `Intended-${row.name}`)?.latency.operations,
      row.latency.operations,
      `Intended-${row.name}`,
    );
}

describe('runner', () => {
  it('loads every record once, in batches', async () => {
    const { store } = await loaded(['batchsize=100']);
    const stats = await store.stats();
    assert.equal(stats.recordCount, 500);
    assert.equal(stats.extra?.['INSERT-BATCH'], 5);
  });

  it('holds a target rate with a per-worker schedule: never ahead of it, every operation accounted for', async () => {
    const { store: base, properties } = await loaded(['operationcount=300', 'threadcount=4', 'target=500']);
    const { store, calls } = recordingCalls(base);
    const before = performance.now();
    const outcome = await runTransactionPhase({
      store,
      workload: new CoreWorkload(properties, new Random(2)),
      properties,
      status: false,
      label: 'run',
    });
    const result = buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: 't',
      properties,
      overrides: [],
      store: storeInfo,
    });
    // Workload reads and updates: one store call per operation.
    assert.equal(calls.length, 300);
    assertEveryOperationCounted(result, 300);
    assert.ok(result.operations.some((o) => o.name === 'Intended-READ'));

    // The schedule: worker w of n runs its k-th operation at (w/n + k) ticks of n/target s, so
    // over all workers one operation is due every 1000/target ms, and the k-th call to start can
    // never start before k of those slots have passed: no operation starts before its due time
    // (not even by a timer's millisecond). Load only delays calls, so how far behind the
    // schedule the run fell is not asserted.
    const slotMs = 1000 / properties.target;
    const starts = calls.map((c) => c.start - before).sort((a, b) => a - b);
    starts.forEach((start, k) =>
      assert.ok(
        start >= k * slotMs,
        `call ${k} started ${start.toFixed(3)} ms into the run, before its slot at ${k * slotMs} ms`,
      ),
    );
    // Hence the measured window is never shorter than the schedule: throughput never beats the target.
    assert.ok(
      outcome.runtimeMs >= (300 - 1) * slotMs,
      `measured window ${outcome.runtimeMs} ms, throughput ${result.overall.throughputOpsPerSec}`,
    );
  });

  it('shows queueing delay in Intended- rows when the store falls behind the schedule', async () => {
    const properties = workloadFromText('recordcount=100\noperationcount=100\nthreadcount=1\ntarget=1000', 't');
    // Every call takes at least 3 ms against a schedule of one operation per ms: the store falls
    // further behind with every operation, however fast or slow the machine.
    const { store, calls } = recordingCalls(createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 }), 3);
    const before = performance.now();
    const outcome = await runTransactionPhase({
      store,
      workload: new CoreWorkload(properties, new Random(3)),
      properties,
      status: false,
      label: 'slow',
    });
    const after = performance.now();
    const result = buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: 't',
      properties,
      overrides: [],
      store: storeInfo,
    });
    assert.equal(calls.length, 100);
    assertEveryOperationCounted(result, 100);
    const service = result.operations.find((o) => o.name === 'READ')!.latency;
    const intended = result.operations.find((o) => o.name === 'Intended-READ')!.latency;
    const serviceSumMs = (service.averageUs * service.operations) / 1000;

    // One worker runs its calls one after another, so service times add up to no more than the
    // run (0.1% for the histogram's 3 significant digits): service time holds no queueing.
    assert.ok(
      serviceSumMs <= (after - before) * 1.001 + 1,
      `service times sum to ${serviceSumMs} ms in a ${after - before} ms run`,
    );
    // The last operation was due 99 ms after the first started, and ended with the last call:
    // its intended-time latency holds all the delay queued up behind the schedule.
    const span = calls.at(-1)!.end - calls[0]!.start;
    assert.ok(span >= 100 * 3, `calls span ${span} ms`);
    assert.ok(
      intended.maxUs >= (span - 99) * 1000 - 1,
      `intended max ${intended.maxUs} us, the last call ended ${span - 99} ms after it was due`,
    );
    // Intended- includes each operation's service time, so it is never below it.
    assert.ok(intended.maxUs >= service.maxUs && intended.averageUs >= service.averageUs);
  });

  it("starts no operation before its due time, at any rate (the schedule waits out the timers' earliness)", async () => {
    for (const target of [200, 2000, 20_000]) {
      const lateness: number[] = [];
      await runScheduled({
        measurements: new Measurements(true, true),
        settings: {
          threadcount: 4,
          target,
          operationcount: Math.min(2000, target),
          maxexecutiontime: 0,
          warmuptime: 0,
          statusIntervalSeconds: 10,
        },
        status: false,
        label: 't',
        worker: () => async (dueMs) => void lateness.push(performance.now() - dueMs!),
      });
      assert.equal(lateness.length, Math.min(2000, target));
      const early = lateness.filter((l) => l < 0);
      assert.equal(
        early.length,
        0,
        `at ${target} ops/s ${early.length} operations started early, by up to ${-Math.min(...early)} ms`,
      );
    }
  });

  it("unthrottled, measures each call's Intended- latency as its own service time, read-modify-write's calls too (as YCSB)", async () => {
    const { store, properties } = await loaded([
      'operationcount=3000',
      'threadcount=4',
      'readproportion=0.5',
      'updateproportion=0',
      'readmodifywriteproportion=0.5',
    ]);
    const outcome = await runTransactionPhase({
      store,
      workload: new CoreWorkload(properties, new Random(5)),
      properties,
      status: false,
      label: 'rmw',
    });
    const result = buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: 't',
      properties,
      overrides: [],
      store: storeInfo,
    });
    for (const name of ['READ', 'UPDATE', 'READ-MODIFY-WRITE']) {
      const row = result.operations.find((o) => o.name === name);
      assert.ok(row && row.latency.operations > 0, name);
      assert.equal(
        result.operations.find((o) => o.name === `Intended-${name}`)?.histogram,
        row.histogram,
        `Intended-${name} is not ${name}'s own latency`,
      );
    }
  });

  it('stops at maxexecutiontime and leaves warm-up out of the statistics', { timeout: 120_000 }, async () => {
    // (The test timeout only turns a run that never stops into a failure: it is 60 times maxexecutiontime.)
    const properties = workloadFromText(
      'recordcount=100\noperationcount=0\nmaxexecutiontime=2\nwarmuptime=1\nthreadcount=2',
      't',
    );
    const { store, calls } = recordingCalls(
      createBasicStore({ url: 'basic://', settings: { 'basic.simulatedelay': '2' }, concurrency: 1 }),
    );
    const started = performance.now();
    const outcome = await runTransactionPhase({
      store,
      workload: new CoreWorkload(properties, new Random(4)),
      properties,
      status: false,
      label: 'timed',
    });
    const elapsed = performance.now() - started;
    // operationcount=0: only maxexecutiontime's timer ends the run, and a timer never fires early
    // by more than its millisecond granularity.
    assert.ok(elapsed >= 2000 - TIMER_EARLY_MS, `ran ${elapsed} ms`);
    // The measured window opens when the warm-up timer fires (always before the stop timer,
    // which Node fires later as it expires later) and closes with the run.
    assert.ok(
      outcome.runtimeMs >= 0 && outcome.runtimeMs <= elapsed - (1000 - TIMER_EARLY_MS),
      `measured window ${outcome.runtimeMs} ms of a ${elapsed} ms run`,
    );
    // Every operation is either warm-up or measured: one store call each.
    const m = outcome.measurements;
    assert.equal(m.warmupOperations + m.measuredOperations, calls.length);
    // The first operation's store call (at most 2 ms) is due long before the 1 s warm-up timer,
    // and Node fires timers in the order they expire, so warm-up always did some work.
    assert.ok(m.warmupOperations > 0);
    const result = resultSchema.parse(
      buildResult(outcome, {
        kind: 'ycsb',
        mode: 'direct',
        workloadName: 't',
        properties,
        overrides: [],
        store: storeInfo,
      }),
    );
    assertEveryOperationCounted(result, m.measuredOperations);
    assert.equal(result.warmup.operations, m.warmupOperations);
    assert.ok(
      result.notes.some((n) => n.startsWith(`the first 1 s (${m.warmupOperations} operations) were warm-up`)),
      result.notes.join('\n'),
    );
  });

  it('counts statuses and keeps failed latencies apart, as YCSB does', () => {
    const m = new Measurements(true, true);
    m.measure('READ', 'OK', 0, 0, 1);
    m.measure('READ', 'NOT_FOUND', 0, 0, 2, new Error('gone'));
    m.measure('READ', 'ERROR', 0, 0, 3, new Error('boom'));
    const properties = workloadFromText('', 't');
    const result = buildResult(
      {
        phase: 'run',
        measurements: m,
        startedAt: new Date(),
        endedAt: new Date(),
        runtimeMs: 1000,
        timeSeries: [],
        cpu: { userMs: 1, systemMs: 1 },
        recordsLoaded: 0,
        notes: [],
      },
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

  it("estimates completion from a load's expected count; unknown only when nothing bounds the phase", async () => {
    const lineWith = async (bounds: { totalOperations: number; expectedOperations?: number }) => {
      const m = new Measurements(true, false);
      const lines: string[] = [];
      const reporter = new StatusReporter(m, {
        intervalSeconds: 1,
        maxSeconds: 0,
        label: '[load]',
        write: (t) => lines.push(t),
        isTTY: false,
        ...bounds,
      });
      reporter.start();
      for (let i = 0; i < 50; i++) m.completeOperation(0.5);
      await waitFor(() => lines.length > 0, 'the first status line');
      await reporter.stop();
      return lines[0]!;
    };
    assert.match(await lineWith({ totalOperations: 0, expectedOperations: 1000 }), /; est completion in \d+/);
    assert.match(await lineWith({ totalOperations: 0 }), /; est completion unknown\n$/);
  });

  it('writes status lines when not on a terminal, each well-formed, counting every operation once', async () => {
    const m = new Measurements(true, false);
    const lines: string[] = [];
    const reporter = new StatusReporter(m, {
      intervalSeconds: 1,
      totalOperations: 100,
      maxSeconds: 0,
      label: '[t]',
      write: (t) => lines.push(t),
      isTTY: false,
    });
    reporter.start();
    for (let i = 0; i < 50; i++) m.completeOperation(0.5);
    // However late the interval fires on a loaded machine, a line comes.
    await waitFor(() => lines.length > 0, 'the first status line');
    await reporter.stop();
    const LINE =
      /^\[t\] (\d+) sec: 50 operations; (\d+\.\d) current ops\/sec; p99 \d+ us; est completion in (?:\d+ s|\d+ min \d+ s|\d+ h \d+ min)\n$/;
    for (const line of lines) assert.match(line, LINE);
    // No line before the first interval was over (elapsed seconds are rounded).
    assert.ok(Number(LINE.exec(lines[0]!)![1]) >= 1, lines[0]);
    // Each line's current rate covers the operations since the line before (1 s intervals),
    // and the time series has a point per tick plus the final partial one: each counts every
    // operation exactly once.
    assert.equal(
      lines.reduce((n, line) => n + Number(LINE.exec(line)![2]), 0),
      50,
      lines.join(''),
    );
    assert.equal(
      reporter.series.reduce((n, point) => n + point.operations, 0),
      50,
      JSON.stringify(reporter.series),
    );
  });

  it('keeps the operations of a run that ends just after a tick in the time series', async () => {
    const m = new Measurements(true, false);
    const reporter = new StatusReporter(m, {
      intervalSeconds: 1,
      totalOperations: 0,
      maxSeconds: 0,
      label: '[t]',
      print: false,
    });
    reporter.start();
    for (let i = 0; i < 40; i++) m.completeOperation(0.5);
    await waitFor(() => reporter.series.length > 0, 'the first tick');
    // Operations done right after the tick, then the run stops (usually within the same few ms,
    // so they join the tick's point; on a slow machine later, so they make a point of their own).
    for (let i = 0; i < 7; i++) m.completeOperation(0.5);
    await reporter.stop();
    assert.equal(
      reporter.series.reduce((n, point) => n + point.operations, 0),
      47,
      JSON.stringify(reporter.series),
    );
    for (let i = 1; i < reporter.series.length; i++)
      assert.ok(reporter.series[i]!.t > reporter.series[i - 1]!.t, 'points in time order');
  });
});
