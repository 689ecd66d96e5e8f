import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { Measurements } from '../measure/measurements.ts';
import { StatusReporter, type TimeSeriesPoint } from '../measure/status-reporter.ts';
import { canInsertMany, type KeyedRecord, type Store } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { TimedStore } from './timed-store.ts';
import { doTransaction } from './transactions.ts';
import { CpuMeter, type CpuSpent } from './cpu-meter.ts';

/** What one phase measured, before it is turned into a result. */
export interface PhaseOutcome {
  phase: 'load' | 'run';
  measurements: Measurements;
  startedAt: Date;
  endedAt: Date;
  /** Measured window (after warm-up) in ms. */
  runtimeMs: number;
  timeSeries: TimeSeriesPoint[];
  cpu: CpuSpent;
  /** Records written by the load phase (OVERALL counts records, not batches). */
  recordsLoaded: number;
  notes: string[];
}

export interface PhaseOptions {
  store: Store;
  workload: CoreWorkload;
  properties: WorkloadProperties;
  /** Print status lines (off in tests). */
  status: boolean;
  label: string;
}

/**
 * Load phase: `threadcount` workers insert records `insertstart … insertstart+insertcount-1`.
 * Stores with bulk writes get batches of `batchsize` records (one measured INSERT-BATCH call
 * each); others get one INSERT per record, as YCSB does.
 */
export async function runLoadPhase(options: PhaseOptions): Promise<PhaseOutcome> {
  const { store, workload, properties: p } = options;
  const measurements = new Measurements(true, false);
  const total = p.insertcount;
  const batchSize = canInsertMany(store) ? p.batchsize : 1;
  let claimed = 0;
  const reporter = new StatusReporter(measurements, {
    intervalSeconds: p['status.interval'],
    totalOperations: total,
    maxSeconds: 0,
    label: options.label,
  });
  const cpuMeter = new CpuMeter();
  const startedAt = new Date();
  const startMs = performance.now();
  if (options.status) reporter.start();

  const worker = async () => {
    const timed = new TimedStore(store, measurements);
    const batch: KeyedRecord[] = [];
    while (claimed < total) {
      const n = Math.min(batchSize, total - claimed);
      claimed += n;
      const begin = performance.now();
      timed.intendedStartMs = begin;
      if (batchSize === 1) {
        const key = workload.nextLoadKey();
        await timed.insert(workload.table, key, workload.buildValues(key));
      } else {
        batch.length = 0;
        for (let i = 0; i < n; i++) {
          const key = workload.nextLoadKey();
          batch.push({ key, fields: workload.buildValues(key) });
        }
        await timed.insertMany(workload.table, batch);
      }
      const latency = performance.now() - begin;
      for (let i = 0; i < n; i++) measurements.completeOperation(latency);
      // A store whose promises resolve at once (basic) would otherwise starve the timers.
      if ((claimed & 1023) < n) await yieldToEventLoop();
    }
  };
  await Promise.all(Array.from({ length: p.threadcount }, worker));

  const runtimeMs = performance.now() - startMs;
  if (options.status) reporter.stop();
  const cpu = cpuMeter.read();
  const notes = batchSize > 1 ? [`load used bulk writes of ${batchSize} records; INSERT-BATCH rows count batches, OVERALL counts records`] : [];
  return {
    phase: 'load',
    measurements,
    startedAt,
    endedAt: new Date(),
    runtimeMs,
    timeSeries: reporter.series,
    cpu,
    recordsLoaded: total,
    notes,
  };
}

/**
 * Run phase. Closed model: `threadcount` workers, each doing one operation at a time.
 * With `target` ops/s, each worker follows a fixed schedule (YCSB's ClientThread): operation i
 * of a worker is due at start + i × threadcount/target; service time is measured from the
 * actual start, intended time from the due time, so a store that falls behind shows its queueing
 * delay in the Intended- rows instead of hiding it (coordinated omission).
 * Stops after `operationcount` operations or `maxexecutiontime` seconds, whichever comes first;
 * the first `warmuptime` seconds are run but not recorded.
 */
export async function runTransactionPhase(options: PhaseOptions): Promise<PhaseOutcome> {
  const { store, workload, properties: p } = options;
  const interval = p['measurement.interval'];
  const measurements = new Measurements(interval !== 'intended', interval !== 'op');
  const limit = p.operationcount > 0 ? p.operationcount : Number.POSITIVE_INFINITY;
  const verify = p.dataintegrity;
  let issued = 0;
  let stopped = false;
  const reporter = new StatusReporter(measurements, {
    intervalSeconds: p['status.interval'],
    totalOperations: p.operationcount,
    maxSeconds: p.maxexecutiontime,
    label: options.label,
  });

  const timers: NodeJS.Timeout[] = [];
  const startedAt = new Date();
  const startMs = performance.now();
  let measureStartMs = startMs;
  const cpuMeter = new CpuMeter();
  if (p.warmuptime > 0) {
    measurements.recording = false;
    timers.push(
      setTimeout(() => {
        measurements.recording = true;
        measureStartMs = performance.now();
        cpuMeter.restart();
      }, p.warmuptime * 1000),
    );
  }
  if (p.maxexecutiontime > 0) timers.push(setTimeout(() => (stopped = true), p.maxexecutiontime * 1000));
  if (options.status) reporter.start();

  // Milliseconds between two operations of one worker under a target rate.
  const tickMs = p.target > 0 ? (p.threadcount * 1000) / p.target : 0;

  const worker = async (index: number) => {
    const timed = new TimedStore(store, measurements);
    // Stagger the workers' schedules so they don't fire in lockstep.
    const scheduleStart = startMs + (tickMs * index) / p.threadcount;
    let done = 0;
    while (!stopped && issued < limit) {
      issued++;
      let intended: number;
      if (tickMs > 0) {
        intended = scheduleStart + done * tickMs;
        const wait = intended - performance.now();
        if (wait >= 1) await sleep(wait);
        if (stopped) break;
      } else {
        intended = performance.now();
      }
      timed.intendedStartMs = intended;
      await doTransaction(workload, timed, measurements, verify);
      measurements.completeOperation(performance.now() - intended);
      done++;
      // A store whose promises resolve at once (basic) would otherwise starve the timers.
      if ((done & 1023) === 0) await yieldToEventLoop();
    }
  };
  await Promise.all(Array.from({ length: p.threadcount }, (_, i) => worker(i)));

  const endMs = performance.now();
  for (const t of timers) clearTimeout(t);
  if (options.status) reporter.stop();
  const cpu = cpuMeter.read();
  const notes: string[] = [];
  if (!measurements.recording) notes.push(`the run ended before warmuptime (${p.warmuptime} s) was over: nothing was recorded`);
  if (p.warmuptime > 0) notes.push(`the first ${p.warmuptime} s (${measurements.warmupOperations} operations) were warm-up, excluded from statistics`);
  return {
    phase: 'run',
    measurements,
    startedAt,
    endedAt: new Date(),
    runtimeMs: measurements.recording ? endMs - measureStartMs : 0,
    timeSeries: reporter.series,
    cpu,
    recordsLoaded: 0,
    notes,
  };
}
