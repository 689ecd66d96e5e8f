import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Measurements } from '../measure/measurements.ts';
import { StatusReporter, type TimeSeriesPoint } from '../measure/status-reporter.ts';
import { canInsertMany, type KeyedRecord, type Store } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { TimedStore } from './timed-store.ts';
import { doTransaction } from './transactions.ts';
import { CpuMeter, type CpuSpent } from './cpu-meter.ts';
import { runScheduled } from './schedule.ts';

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
 * Run phase: YCSB's transactions on the shared run loop (closed model, optional target rate
 * with intended-time latency, operationcount / maxexecutiontime, warm-up; see schedule.ts).
 */
export async function runTransactionPhase(options: PhaseOptions): Promise<PhaseOutcome> {
  const { store, workload, properties: p } = options;
  const interval = p['measurement.interval'];
  const measurements = new Measurements(interval !== 'intended', interval !== 'op');
  const verify = p.dataintegrity;
  const run = await runScheduled({
    measurements,
    settings: {
      threadcount: p.threadcount,
      target: p.target,
      operationcount: p.operationcount,
      maxexecutiontime: p.maxexecutiontime,
      warmuptime: p.warmuptime,
      statusIntervalSeconds: p['status.interval'],
    },
    status: options.status,
    label: options.label,
    worker: () => {
      const timed = new TimedStore(store, measurements);
      return (intendedMs) => {
        timed.intendedStartMs = intendedMs;
        return doTransaction(workload, timed, measurements, verify);
      };
    },
  });
  return { phase: 'run', measurements, ...run, recordsLoaded: 0 };
}
