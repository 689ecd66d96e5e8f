/**
 * Many processes, one result (src/runner/process-pool.ts), on BasicDB in real worker threads.
 * What is asserted is what the design guarantees, never a speed: every load key written once and
 * the same keys with any number of processes; no insert key twice; no read of a key whose insert
 * was not done; the same hot keys for a seed whatever the process count; operationcount exact
 * over all processes; one merged result whose rows, counts and time series add up; no operation
 * started before its due time in any process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Measurements } from '../../src/measure/measurements.ts';
import { buildResult } from '../../src/results/build.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { runLoadPhase, runTransactionPhase, type YcsbThreadSpec } from '../../src/runner/phases.ts';
import { ProcessPool, splitWorkers, WorkerUserError } from '../../src/runner/process-pool.ts';
import { coordinate, RunControl, type ScheduleSettings } from '../../src/runner/schedule.ts';
import { SharedCounters } from '../../src/runner/shared-counters.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { workloadFromText, type WorkloadProperties } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';
import { notingStore, type StartLog, type ThreadLog } from './processes-threads.ts';

const THREADS = new URL('./processes-threads.ts', import.meta.url).href;
const storeInfo = {
  name: 'basic',
  url: 'basic://',
  server: 'none',
  serverVersion: '0',
  driver: 'none',
  localTarget: false,
};
const LOADED = 2000;

function properties(text: string, overrides: string[] = []): WorkloadProperties {
  return workloadFromText(`recordcount=${LOADED}\nthreadcount=6\n${text}`, 'test', overrides);
}

function scheduleOf(p: WorkloadProperties, phase: 'load' | 'run'): ScheduleSettings {
  const run = phase === 'run';
  return {
    threadcount: p.threadcount,
    target: run ? p.target : 0,
    operationcount: run ? p.operationcount : 0,
    maxexecutiontime: 0,
    warmuptime: 0,
    statusIntervalSeconds: 1,
  };
}

/** A YCSB phase in the pool's threads on noting stores: the merged measurements and every thread's notes. */
async function pooled(pool: ProcessPool, phase: 'load' | 'run', p: WorkloadProperties, counters: SharedCounters) {
  const logs: ThreadLog[] = [];
  const measurements = new Measurements(true, phase === 'run');
  const spec: YcsbThreadSpec = { phase, properties: p, counters: counters.buffer };
  const engine = pool.engine({
    module: THREADS,
    body: 'notedYcsbThread',
    spec,
    threadcount: p.threadcount,
    measurements,
    handlers: { log: (l) => void logs.push(l as ThreadLog) },
  });
  const run = await coordinate({
    measurements,
    settings: scheduleOf(p, phase),
    status: false,
    label: 't',
    control: new RunControl(),
    engine,
  });
  return { measurements, run, logs };
}

/** The same phase in one process, the way `docbench` runs it without --processes. */
async function inProcess(phase: 'load' | 'run', p: WorkloadProperties, workload: CoreWorkload) {
  const log: ThreadLog = { thread: 0, writes: [], reads: [] };
  const store = notingStore(createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 }), log);
  const options = { store, workload, properties: p, status: false, label: 't' };
  const outcome = phase === 'load' ? await runLoadPhase(options) : await runTransactionPhase(options);
  return { outcome, log };
}

const keysOf = (logs: readonly ThreadLog[], what: 'writes' | 'reads') =>
  logs.flatMap((l) => l[what].map(([key]) => key));

/** Keys by how often they were read, most read first (ties by key, so the order is one order). */
function ranking(keys: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
}

describe('processes', { timeout: 600_000 }, () => {
  const pools = new Map<number, ProcessPool>();
  before(async () => {
    for (const n of [2, 3])
      pools.set(
        n,
        await ProcessPool.start({ store: 'basic', url: 'basic://', settings: {}, threadcount: 6, processes: n }),
      );
  });
  after(async () => {
    for (const pool of pools.values()) await pool.close();
  });

  it('splits the workers over the processes, all of them, each once', () => {
    assert.deepEqual(splitWorkers(16, 2), [
      { firstWorker: 0, workers: 8 },
      { firstWorker: 8, workers: 8 },
    ]);
    assert.deepEqual(splitWorkers(7, 3), [
      { firstWorker: 0, workers: 3 },
      { firstWorker: 3, workers: 2 },
      { firstWorker: 5, workers: 2 },
    ]);
    assert.deepEqual(
      splitWorkers(1, 2).map((s) => s.workers),
      [1, 0],
    );
  });

  it('loads each key once, and the same keys with 1, 2 or 3 processes', async () => {
    const p = properties('batchsize=7');
    const single = await inProcess('load', p, new CoreWorkload(p, new Random(p.seed)));
    const expected = [...keysOf([single.log], 'writes')].sort();
    assert.equal(expected.length, LOADED);
    assert.equal(new Set(expected).size, LOADED);
    for (const [n, pool] of pools) {
      const { measurements, logs } = await pooled(pool, 'load', p, SharedCounters.create(p.insertstart, p.recordcount));
      assert.equal(logs.length, n, `notes from each of ${n} processes`);
      assert.deepEqual(keysOf(logs, 'writes').sort(), expected, `${n} processes loaded other keys`);
      assert.equal(measurements.measuredOperations, LOADED);
      // Batches of 7 from one shared sequence: ceil(2000/7) bulk writes over all processes.
      assert.equal(measurements.statusCounts('INSERT-BATCH').get('OK'), Math.ceil(LOADED / 7));
    }
  });

  it('keeps the hot keys of a seed whatever the number of processes (zipfian)', async () => {
    const p = properties('operationcount=40000\nreadproportion=1\nupdateproportion=0\nrequestdistribution=zipfian');
    const single = await inProcess('run', p, new CoreWorkload(p, new Random(p.seed)));
    // The four hottest keys of a zipfian over 2,000 keys are read ~5,300, 2,700, 1,800 and 1,300
    // times in 40,000 reads: apart by many standard deviations, so their order is the
    // distribution's, not chance's.
    const hottest = ranking(keysOf([single.log], 'reads')).slice(0, 4);
    for (const [n, pool] of pools) {
      const { logs, measurements } = await pooled(pool, 'run', p, SharedCounters.create(p.insertstart, p.recordcount));
      assert.equal(measurements.measuredOperations, 40_000, `${n} processes: operationcount over all of them`);
      assert.deepEqual(ranking(keysOf(logs, 'reads')).slice(0, 4), hottest, `${n} processes`);
    }
  });

  it('never inserts a key twice, and reads only records whose insert was done (latest, across processes)', async () => {
    const p = properties(
      'operationcount=6000\nreadproportion=0.5\nupdateproportion=0\ninsertproportion=0.5\nrequestdistribution=latest',
    );
    const { logs, measurements } = await pooled(
      pools.get(3)!,
      'run',
      p,
      SharedCounters.create(p.insertstart, p.recordcount),
    );
    const inserted = keysOf(logs, 'writes');
    assert.equal(new Set(inserted).size, inserted.length, 'an insert key was used twice');
    assert.equal(inserted.length, measurements.statusCounts('INSERT').get('OK'));
    // Every insert key is a new one: from recordcount on, none among the loaded keys.
    const workload = new CoreWorkload(p, new Random(1));
    const loaded = new Set(Array.from({ length: LOADED }, (_, i) => workload.keyName(i)));
    assert.ok(inserted.every((k) => !loaded.has(k)));
    const expectedInserts = new Set(Array.from({ length: inserted.length }, (_, i) => workload.keyName(LOADED + i)));
    assert.deepEqual(new Set(inserted), expectedInserts, 'inserts took recordcount, recordcount+1, … with no gap');
    // A read goes to a loaded record or to one whose insert (by any process) was done before it was sent.
    const doneAt = new Map(logs.flatMap((l) => l.writes));
    let readsOfInserted = 0;
    for (const [key, sentMs] of logs.flatMap((l) => l.reads)) {
      if (loaded.has(key)) continue;
      readsOfInserted++;
      const done = doneAt.get(key);
      assert.ok(
        done !== undefined && done <= sentMs,
        `read of ${key} at ${sentMs} ms, its insert ${done === undefined ? 'never done' : `done at ${done} ms`}`,
      );
    }
    // `latest` makes the newest records the hottest: most reads went to inserted ones.
    assert.ok(readsOfInserted > 0);
  });

  it('merges one result: rows, counts and time series add up to operationcount', async () => {
    const p = properties('operationcount=30000\nreadproportion=0.5\nupdateproportion=0.5', ['status.interval=1']);
    const outcome = await runTransactionPhase({
      store: createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 }),
      workload: new CoreWorkload(p, new Random(1)),
      properties: p,
      status: true,
      label: '[merge]',
      pool: pools.get(2)!,
    });
    const result = resultSchema.parse(
      buildResult(outcome, {
        kind: 'ycsb',
        mode: 'direct',
        workloadName: 't',
        properties: p,
        overrides: [],
        store: storeInfo,
      }),
    );
    assert.equal(result.overall.operations, 30_000);
    assert.equal(result.clientCpu.processes, 2);
    const row = (name: string) => result.operations.find((o) => o.name === name);
    assert.equal((row('READ')?.latency.operations ?? 0) + (row('UPDATE')?.latency.operations ?? 0), 30_000);
    assert.equal((row('READ')?.returns?.OK ?? 0) + (row('UPDATE')?.returns?.OK ?? 0), 30_000);
    assert.equal(result.returns.OK, 30_000);
    // Unthrottled, each call's Intended- latency is its own service time: the same histogram.
    assert.equal(row('Intended-READ')?.histogram, row('READ')?.histogram);
    // The coordinator's time series holds every operation of every process once.
    assert.equal(
      result.timeSeries.reduce((n, point) => n + point.operations, 0),
      30_000,
      JSON.stringify(result.timeSeries),
    );
    assert.ok(result.notes.some((n) => n.includes('2 processes')));
  });

  it('starts no operation before its due time, in any process', async () => {
    const logs: StartLog[] = [];
    const measurements = new Measurements(true, true);
    const spec = { threadcount: 6, target: 3000, operationcount: 3000 };
    const engine = pools.get(3)!.engine({
      module: THREADS,
      body: 'notedScheduleThread',
      spec,
      threadcount: 6,
      measurements,
      handlers: { log: (l) => void logs.push(l as StartLog) },
    });
    await coordinate({
      measurements,
      settings: { ...spec, maxexecutiontime: 0, warmuptime: 0, statusIntervalSeconds: 1 },
      status: false,
      label: 't',
      control: new RunControl(),
      engine,
    });
    const lateness = logs.flatMap((l) => l.lateness);
    assert.equal(lateness.length, 3000);
    const early = lateness.filter((l) => l < 0);
    assert.equal(early.length, 0, `${early.length} operations started early, by up to ${-Math.min(...early)} ms`);
  });

  it("ends the warm-up and the run on the coordinator's clock, for every process", async () => {
    const p = properties('operationcount=0\nmaxexecutiontime=2\nwarmuptime=1\nreadproportion=1\nupdateproportion=0');
    const pool = await ProcessPool.start({
      store: 'basic',
      url: 'basic://',
      settings: { 'basic.simulatedelay': '2' },
      threadcount: 6,
      processes: 2,
    });
    try {
      const started = performance.now();
      const outcome = await runTransactionPhase({
        store: createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 }),
        workload: new CoreWorkload(p, new Random(1)),
        properties: p,
        status: false,
        label: 't',
        pool,
      });
      const elapsed = performance.now() - started;
      const m = outcome.measurements;
      // Both processes worked through the warm-up and after it; only what came after is counted.
      assert.ok(
        m.warmupOperations > 0 && m.measuredOperations > 0,
        `warm-up ${m.warmupOperations}, measured ${m.measuredOperations}`,
      );
      assert.equal(m.statusCounts('READ').get('OK'), m.measuredOperations);
      assert.ok(
        outcome.runtimeMs > 0 && outcome.runtimeMs < elapsed,
        `window ${outcome.runtimeMs} ms of ${elapsed} ms`,
      );
      assert.ok(
        outcome.notes.some((n) => n.startsWith(`the first 1 s (${m.warmupOperations} operations) were warm-up`)),
        outcome.notes.join('\n'),
      );
      // Where threads' CPU can be read (Linux), one busy figure per process.
      if (outcome.cpu.eventLoopBusyPercent) assert.equal(outcome.cpu.eventLoopBusyPercent.length, 2);
    } finally {
      await pool.close();
    }
  });

  it('reports a store a worker process cannot reach as the one-line error it is', async () => {
    await assert.rejects(
      ProcessPool.start({ store: 'redis', url: 'redis://127.0.0.1:1', settings: {}, threadcount: 2, processes: 2 }),
      (error: unknown) => {
        assert.ok(error instanceof WorkerUserError, String(error));
        assert.match(error.message, /^cannot reach redis at redis:\/\/127\.0\.0\.1:1/);
        return true;
      },
    );
  });
});
