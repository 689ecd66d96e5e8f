import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { Measurements } from '../measure/measurements.ts';
import { canInsertMany, type KeyedRecord, type Store } from '../stores/store.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import { loadBatchingNote, type WorkloadProperties } from '../workload/properties.ts';
import { Random } from '../workload/random.ts';
import type { FaultPolicy } from '../common/fault-policy.ts';
import type { MeasuredPhase } from '../results/phase.ts';
import type { ProcessPool } from './process-pool.ts';
import type { ThreadContext } from './process-protocol.ts';
import { EventLoopMeter } from './cpu-meter.ts';
import {
  coordinate,
  loopSettings,
  OUTAGE_PAUSE_MS,
  runWorkerLoop,
  RunControl,
  type RunObserver,
  type ScheduleSettings,
  type WorkerEngine,
} from './schedule.ts';
import { SharedCounters } from './shared-counters.ts';
import { TimedStore } from './timed-store.ts';
import { AcknowledgedWrites, WorkerWrites, type AcknowledgedWritesLayout } from './acknowledged-writes.ts';
import { doTransaction } from './transactions.ts';

/** What one phase measured (results/phase.ts), and the failover check's account of its writes. */
export interface PhaseOutcome extends MeasuredPhase {
  /** The failover check's account of the run's writes (`failovercheck=true`), to read back against. */
  acknowledgedWrites?: AcknowledgedWrites;
}

export interface PhaseOptions {
  store: Store;
  /** The workload of the workers on this event loop (unused with a pool: each process has its own over shared counters). */
  workload: CoreWorkload;
  properties: WorkloadProperties;
  /** Print status lines (off in tests). */
  status: boolean;
  label: string;
  /** Run the workers in these worker processes instead of on this event loop. */
  pool?: ProcessPool;
  /** Why the phase runs in as many processes as it does (auto, --processes: session/process-count.ts). */
  processesReason?: string;
  /** What failed operations do to the run (default: counted, the run goes on). */
  faults?: FaultPolicy;
  /** Watches the run second by second (live metrics, the capacity search). */
  observer?: RunObserver;
  /** Awaited just before the clock starts (a sharded run's start barrier). */
  beforeStart?: () => Promise<void>;
}

/** The latency rows a phase records: service time for a load; YCSB's `measurement.interval` for a run. */
function newMeasurements(phase: 'load' | 'run', p: WorkloadProperties): Measurements {
  if (phase === 'load') return new Measurements(true, false);
  const interval = p['measurement.interval'];
  return new Measurements(interval !== 'intended', interval !== 'op');
}

function scheduleOf(phase: 'load' | 'run', p: WorkloadProperties): ScheduleSettings {
  const run = phase === 'run';
  return {
    threadcount: p.threadcount,
    target: run ? p.target : 0,
    operationcount: run ? p.operationcount : 0,
    maxexecutiontime: run ? p.maxexecutiontime : 0,
    warmuptime: run ? p.warmuptime : 0,
    statusIntervalSeconds: p['status.interval'],
    // A load writes insertcount records (OVERALL counts records): the status line's estimate.
    ...(run ? {} : { expectedOperations: p.insertcount }),
  };
}

/** What a worker thread needs to run its share of a YCSB phase. */
export interface YcsbThreadSpec {
  phase: 'load' | 'run';
  properties: WorkloadProperties;
  counters: SharedArrayBuffer;
  /** The failover check's shared memory, when it is on. */
  writes?: AcknowledgedWritesLayout;
}

/**
 * Load phase: `threadcount` workers insert records `insertstart … insertstart+insertcount-1`,
 * each key once, whatever the number of processes (the load key sequence is shared).
 * Stores with bulk writes get batches of `batchsize` records (one measured INSERT-BATCH call
 * each); others get one INSERT per record, as YCSB does.
 */
export async function runLoadPhase(options: PhaseOptions): Promise<PhaseOutcome> {
  const outcome = await runPhase('load', options);
  const note = loadBatchingNote(options.properties, canInsertMany(options.store));
  if (note !== undefined) outcome.notes.push(note);
  return { ...outcome, recordsLoaded: outcome.measurements.measuredOperations };
}

/**
 * Run phase: YCSB's transactions on the shared run loop (closed model, optional target rate
 * with intended-time latency, operationcount / maxexecutiontime, warm-up; see schedule.ts).
 */
export function runTransactionPhase(options: PhaseOptions): Promise<PhaseOutcome> {
  return runPhase('run', options);
}

async function runPhase(phase: 'load' | 'run', options: PhaseOptions): Promise<PhaseOutcome> {
  const p = options.properties;
  const measurements = newMeasurements(phase, p);
  const settings = scheduleOf(phase, p);
  const pool = options.pool;
  const acknowledged = phase === 'run' ? trackerFor(p) : undefined;
  let engine: WorkerEngine;
  if (pool === undefined) {
    const context = {
      store: options.store,
      workload: options.workload,
      properties: p,
      measurements,
      ...(acknowledged ? { acknowledged } : {}),
    };
    engine = {
      run: async (control, startMs) => [
        await runYcsbWorkers(phase, { ...context, control, startMs, firstWorker: 0, workers: p.threadcount }),
      ],
    };
  } else {
    const spec: YcsbThreadSpec = {
      phase,
      properties: p,
      counters: SharedCounters.create(p.insertstart, p.recordcount).buffer,
      ...(acknowledged ? { writes: acknowledged.layout } : {}),
    };
    engine = pool.engine({
      module: import.meta.url,
      body: 'ycsbThread',
      spec,
      threadcount: p.threadcount,
      measurements,
    });
  }
  const faults = options.faults;
  const run = await coordinate({
    measurements,
    settings,
    status: options.status,
    label: options.label,
    control: new RunControl(),
    engine,
    ...(faults ? { faults } : {}),
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.beforeStart ? { beforeStart: options.beforeStart } : {}),
  });
  const processes = pool?.processes ?? 1;
  if (processes > 1)
    run.notes.push(
      `the ${p.threadcount} workers ran in ${processes} processes (worker threads), each with its own connections; their measurements are merged exactly${options.processesReason ? ` (${options.processesReason})` : ''}`,
    );
  return {
    phase,
    measurements,
    ...run,
    recordsLoaded: 0,
    processes,
    ...(options.processesReason ? { processesReason: options.processesReason } : {}),
    ...(faults ? { faults } : {}),
    ...(acknowledged ? { acknowledgedWrites: acknowledged } : {}),
  };
}

/**
 * The failover check's account (`failovercheck=true`): every field of the loaded keys and of the
 * keys the run may insert (at most operationcount, or recordcount more in a time-bound run;
 * inserts beyond are counted as untracked), the loaded ones starting with the load's write.
 */
function trackerFor(p: WorkloadProperties): AcknowledgedWrites | undefined {
  if (!p.failovercheck) return undefined;
  const inserts = p.insertproportion > 0 ? (p.operationcount > 0 ? p.operationcount : p.recordcount) : 0;
  return AcknowledgedWrites.create(p.recordcount + inserts, p.fieldcount, {
    first: p.insertstart,
    count: p.insertcount,
  });
}

interface YcsbWorkersContext {
  /** The failover check's account, when it is on. */
  acknowledged?: AcknowledgedWrites;
  store: Store;
  workload: CoreWorkload;
  properties: WorkloadProperties;
  measurements: Measurements;
  control: RunControl;
  startMs: number;
  firstWorker: number;
  workers: number;
}

/** Run some of a YCSB phase's workers on this event loop; returns how busy the loop was (%). */
function runYcsbWorkers(phase: 'load' | 'run', c: YcsbWorkersContext): Promise<number | undefined> {
  if (phase === 'load') return runLoadWorkers(c);
  const verify = c.properties.dataintegrity;
  return runWorkerLoop({
    measurements: c.measurements,
    control: c.control,
    ...loopSettings(scheduleOf('run', c.properties)),
    firstWorker: c.firstWorker,
    workers: c.workers,
    startMs: c.startMs,
    worker: () => {
      const timed = new TimedStore(c.store, c.measurements);
      const { workload, measurements } = c;
      const writes = c.acknowledged ? new WorkerWrites(c.acknowledged) : undefined;
      return { run: (dueMs) => doTransaction(workload, timed, measurements, verify, dueMs, writes), span: timed };
    },
  });
}

/** Load workers: each claims the next batch of keys from the shared load sequence until none is left. */
async function runLoadWorkers(c: YcsbWorkersContext): Promise<number | undefined> {
  const { store, workload, measurements, control } = c;
  const batchSize = canInsertMany(store) ? c.properties.batchsize : 1;
  const loopMeter = new EventLoopMeter();
  const worker = async () => {
    const timed = new TimedStore(store, measurements);
    const batch: KeyedRecord[] = [];
    let done = 0;
    while (!control.stopped) {
      const { first, count } = workload.claimLoadKeys(batchSize);
      if (count === 0) break;
      // Keys and values are built before the clock starts: only the store call is timed (for
      // the INSERT row and for OVERALL alike).
      timed.beginOperation(undefined);
      if (batchSize === 1) {
        const key = workload.keyName(first);
        await timed.insert(workload.table, key, workload.buildValues(key));
      } else {
        batch.length = 0;
        for (let i = 0; i < count; i++) {
          const key = workload.keyName(first + i);
          batch.push({ key, fields: workload.buildValues(key) });
        }
        await timed.insertMany(workload.table, batch);
      }
      const latency = timed.lastEndMs - timed.lastStartMs;
      const outcome = timed.outcome();
      const failed = outcome !== false;
      for (let i = 0; i < count; i++) measurements.completeOperation(latency, failed);
      if (failed) control.operationFailed();
      if (outcome === 'outage') await sleep(OUTAGE_PAUSE_MS);
      // A store whose promises resolve at once (basic) would otherwise starve the timers.
      if ((done & 1023) + count > 1023) await yieldToEventLoop();
      done += count;
    }
  };
  await Promise.all(
    Array.from({ length: c.workers }, () =>
      worker().catch((error: unknown) => {
        control.stop();
        throw error;
      }),
    ),
  );
  return loopMeter.busyPercent();
}

/** A YCSB phase's share of workers in a worker thread of a ProcessPool (a ThreadBody). */
export function ycsbThread(
  context: ThreadContext,
  spec: YcsbThreadSpec,
): (startMs: number) => Promise<number | undefined> {
  const p = spec.properties;
  const counters = SharedCounters.attach(spec.counters).workloadCounters();
  // Each process draws its own random stream (thread 0's is a one-process run's); the key
  // sequences and the acknowledged limit are the shared ones.
  const workload = new CoreWorkload(p, new Random(p.seed, context.thread), counters);
  const acknowledged = spec.writes ? new AcknowledgedWrites(spec.writes) : undefined;
  return (startMs) =>
    runYcsbWorkers(spec.phase, {
      ...context,
      workload,
      properties: p,
      startMs,
      ...(acknowledged ? { acknowledged } : {}),
    });
}
