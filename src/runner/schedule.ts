/**
 * The run loop every workload shares (YCSB's run phase, the scenarios' runs): `threadcount`
 * workers, each doing one operation at a time (closed model). With `target` ops/s each worker
 * follows a fixed schedule (YCSB's ClientThread): operation k of worker w is due at
 * start + (w/threadcount + k) × threadcount/target, and it never starts before that time (see
 * precise-clock.ts); it gets that due time, so intended-time latency shows a store's queueing
 * delay instead of hiding it (coordinated omission). Unthrottled, an operation has no due time
 * and each store call's `Intended-` latency is its own, as in YCSB.
 * Stops after `operationcount` operations, after `maxexecutiontime` seconds, or when told to;
 * the first `warmuptime` seconds run but are not recorded.
 *
 * Split in two so the same loop runs in one process or in several: `runWorkerLoop` runs some of
 * the workers on the calling thread's event loop; `coordinate` owns the clock of the run (start,
 * warm-up, time limit, status line, measured window, CPU), whether the workers run on its own
 * event loop (`runScheduled`) or in worker threads (`process-pool.ts`).
 */
import type { MeasuredPhase } from '../results/phase.ts';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import type { IntervalRows } from '../measure/interval-rows.ts';
import type { Measurements } from '../measure/measurements.ts';
import { StatusReporter } from '../measure/status-reporter.ts';
import { CpuMeter, EventLoopMeter, type CpuSpent } from './cpu-meter.ts';
import { DEFAULT_FAULT_POLICY, overBudget, type FaultPolicy } from '../common/fault-policy.ts';
import { interrupts } from '../common/interrupts.ts';
import { PreciseClock } from './precise-clock.ts';
import { OperationBudget, RunControl, type StopReason } from './run-control.ts';

/** performance.now(), with `performance` taken once: the global is a lazy getter that costs as much as the read. */
const timing = performance;
const readClock = () => timing.now();

export { RunControl } from './run-control.ts';

/**
 * Once a run is stopped, how long its operations in flight may take to finish: a stalled store
 * must not keep a stopped run (or an interrupted one) from writing its result. Operations still
 * waiting then are not counted, and the result says how many there were.
 */
export const DRAIN_MS = 10_000;

export interface ScheduleSettings {
  threadcount: number;
  /** Operations per second over all workers; 0 = as fast as the store answers. */
  target: number;
  /** 0 = no limit. */
  operationcount: number;
  /** Seconds; 0 = no limit. */
  maxexecutiontime: number;
  /** Seconds run but not recorded. */
  warmuptime: number;
  /** Seconds between status lines. */
  statusIntervalSeconds: number;
  /** Operations the phase will do when it is not bounded by operationcount (a load's records), for the status line's estimate. */
  expectedOperations?: number;
}

/**
 * One worker's operation: do one. `dueMs` is when it was due (performance.now()) under a target
 * rate, undefined when unthrottled. Resolves true when the operation failed (a store call
 * ERROR, TIMEOUT or SERVICE_UNAVAILABLE), which keeps it out of the throughput.
 */
export type WorkerOperation = (dueMs: number | undefined) => Promise<OperationOutcome>;

/**
 * How an operation went: true (or `outage`: the store was out of reach) when it failed, false or
 * nothing when it did its work.
 */
export type OperationOutcome = boolean | 'outage' | void;

/**
 * Where an operation that times its own store calls leaves its span (the YCSB workers' timed
 * store): from the start of its first call to the end of its last, NaN before its first call.
 */
export interface OperationSpan {
  readonly firstStartMs: number;
  readonly lastEndMs: number;
}

/**
 * A worker's operation with the span it records: the run loop takes an operation's latency from
 * it instead of reading the clock around the operation again (two clock reads of about four an
 * operation makes; the span's are also the tighter ones, taken around the store calls alone).
 */
export interface SpannedOperation {
  run: WorkerOperation;
  span: OperationSpan;
}

/**
 * Unthrottled, a worker whose operation failed because the store is out of reach waits this long
 * before its next: a dead store answers at once, and the workers would otherwise spin through
 * failures as fast as the client can, taking the CPU the store needs to come back. (Under a
 * target rate the schedule paces them already.)
 */
export const OUTAGE_PAUSE_MS = 10;

/** What the run loop measured: the phase's outcome (results/phase.ts) but for what the phase adds. */
export type ScheduledRun = Pick<
  MeasuredPhase,
  'startedAt' | 'endedAt' | 'runtimeMs' | 'timeSeries' | 'operationSeries' | 'cpu' | 'notes'
> & {
  /** Why the run stopped: `complete`, or what cut it short (its result is then partial). */
  stopReason: StopReason;
};

export interface WorkerLoopOptions {
  measurements: Measurements;
  control: RunControl;
  threadcount: number;
  target: number;
  /** Operations of the whole run (every loop's workers); 0 = no limit. */
  operationcount: number;
  /** Global index of the first worker this loop runs, and how many it runs. */
  firstWorker: number;
  workers: number;
  /** When the schedule starts (performance.now(), the same clock in every thread of a process). */
  startMs: number;
  /** Builds worker `index`'s operation (per-worker state lives in its closure). */
  worker: (index: number) => WorkerOperation | SpannedOperation;
}

/** Run workers firstWorker … firstWorker+workers-1 on this event loop; returns how busy the loop was (%). */
export async function runWorkerLoop(options: WorkerLoopOptions): Promise<number | undefined> {
  const { measurements, control, threadcount } = options;
  const limit = options.operationcount > 0 ? options.operationcount : Number.POSITIVE_INFINITY;
  // Milliseconds between two operations of one worker under a target rate.
  const tickMs = options.target > 0 ? (threadcount * 1000) / options.target : 0;
  // Operations of this loop waiting for the store: while there are none, the clock may sleep
  // the thread for the last stretch of a wait.
  let inFlight = 0;
  const clock = tickMs > 0 ? new PreciseClock(() => inFlight > 0) : undefined;
  const budget = new OperationBudget(control, limit);
  const loopMeter = new EventLoopMeter();
  // The warm-up ends when the coordinator says so (the control); this loop's workers start
  // recording at their next operation, and the loop's CPU is counted from then on.
  let recording = control.recording;
  measurements.recording = recording;
  const startRecordingIfDue = () => {
    if (!recording && control.recording) {
      recording = true;
      measurements.recording = true;
      loopMeter.restart();
    }
  };

  const work = async (index: number) => {
    const made = options.worker(index);
    const operation = typeof made === 'function' ? made : made.run;
    const span = typeof made === 'function' ? undefined : made.span;
    // Stagger the workers' schedules so they don't fire in lockstep.
    const scheduleStart = options.startMs + (tickMs * index) / threadcount;
    let done = 0;
    while (budget.take()) {
      startRecordingIfDue();
      let due: number | undefined;
      if (clock !== undefined) {
        due = scheduleStart + done * tickMs;
        if (due > readClock()) await clock.until(due);
        if (control.stopped) break;
        startRecordingIfDue();
      }
      const begin = due ?? (span === undefined ? readClock() : 0);
      inFlight++;
      let outcome: OperationOutcome;
      try {
        outcome = await operation(due);
      } finally {
        inFlight--;
      }
      const failed = outcome === true || outcome === 'outage';
      // A spanned operation that made no store call (its span starts at NaN) is timed as nothing.
      let latency: number;
      if (span === undefined) latency = readClock() - begin;
      else latency = Number.isNaN(span.firstStartMs) ? 0 : span.lastEndMs - (due ?? span.firstStartMs);
      measurements.completeOperation(latency, failed);
      if (failed) control.operationFailed();
      if (outcome === 'outage' && clock === undefined) await sleep(OUTAGE_PAUSE_MS);
      done++;
      // A store whose promises resolve at once (basic) would otherwise starve the timers.
      if ((done & 1023) === 0) await yieldToEventLoop();
    }
  };
  const drain = drainLimit(control, DRAIN_MS);
  try {
    // A worker that throws stops the others too, and the loop fails only once all have
    // finished with the store (or the drain's time is up).
    const all = Promise.allSettled(
      Array.from({ length: options.workers }, (_, i) =>
        work(options.firstWorker + i).catch((error: unknown) => {
          control.stop();
          throw error;
        }),
      ),
    );
    const settled = await Promise.race([all, drain.expired]);
    if (settled === 'drained') measurements.abandonedOperations += inFlight;
    else {
      const failed = settled.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    }
  } finally {
    drain.cancel();
    await clock?.close();
  }
  return recording ? loopMeter.busyPercent() : undefined;
}

/** Resolves DRAIN_MS after the control stops (any thread may stop it: polled, it is shared memory). */
function drainLimit(control: RunControl, ms: number): { expired: Promise<'drained'>; cancel: () => void } {
  let poll: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'drained'>((resolve) => {
    poll = setInterval(() => {
      if (!control.stopped) return;
      clearInterval(poll);
      timer = setTimeout(() => resolve('drained'), ms);
    }, 50);
  });
  return {
    expired,
    cancel: () => {
      clearInterval(poll);
      clearTimeout(timer);
    },
  };
}

/** Where the workers of a coordinated run execute. */
export interface WorkerEngine {
  /** Get the workers ready to start (workloads built, generators initialised), before the run's clock starts. */
  prepare?: (control: RunControl) => Promise<void>;
  /** Run every worker from `startMs` until the control stops them; resolves with each event loop's busy %. */
  run(control: RunControl, startMs: number): Promise<(number | undefined)[]>;
  /** Bring the workers' latest status-interval counts into the coordinator's measurements (none when they are the same object). */
  collectInterval?: () => Promise<void>;
}

export interface CoordinateOptions {
  /** The run's measurements: the workers' own, or the merge of theirs. */
  measurements: Measurements;
  settings: ScheduleSettings;
  /** Print status lines on stderr. */
  status: boolean;
  label: string;
  control: RunControl;
  engine: WorkerEngine;
  /** What failed operations do to the run (default: counted, the run goes on). */
  faults?: FaultPolicy;
  /** Watches the run second by second (live metrics, the capacity search's early stop). */
  observer?: RunObserver;
  /** Awaited once the workers are ready, just before the clock starts (a sharded run's start barrier). */
  beforeStart?: () => Promise<void>;
}

/** What watches a run as it goes: each second's rows, with the run's control to stop it. */
export interface RunObserver {
  /** Each second's latency rows and outcome counts, every process's (emptied after the call). */
  second(rows: IntervalRows, recording: boolean, control: RunControl): void;
}

/**
 * The clock of a run: start the workers, end the warm-up and the run on time, print the status
 * line, and measure the window (after warm-up) and the CPU spent in it.
 */
export async function coordinate(options: CoordinateOptions): Promise<ScheduledRun> {
  const { measurements, settings: s, control } = options;
  const faults = options.faults ?? DEFAULT_FAULT_POLICY;
  control.abortOnError = faults.onError === 'abort';
  const reporter = new StatusReporter(measurements, {
    intervalSeconds: s.statusIntervalSeconds,
    totalOperations: s.operationcount,
    ...(s.expectedOperations !== undefined ? { expectedOperations: s.expectedOperations } : {}),
    maxSeconds: s.maxexecutiontime,
    label: options.label,
    print: options.status,
    ...(options.engine.collectInterval ? { collect: options.engine.collectInterval } : {}),
    // The error budget is judged each second on every process's counts (one time series).
    onSample: (_point, totals) => {
      if (overBudget(faults, totals.failed, totals.operations)) control.stop('error-budget');
    },
    ...(options.observer
      ? { onRows: (rows: IntervalRows, recording: boolean) => options.observer!.second(rows, recording, control) }
      : {}),
  });

  if (s.warmuptime > 0) control.stopRecording();
  await options.engine.prepare?.(control);
  await options.beforeStart?.();

  const timers: NodeJS.Timeout[] = [];
  const startedAt = new Date();
  const startMs = performance.now();
  let measureStartMs = startMs;
  const cpuMeter = new CpuMeter();
  if (s.warmuptime > 0) {
    measurements.recording = false;
    timers.push(
      setTimeout(() => {
        measureStartMs = performance.now();
        measurements.recording = true;
        control.startRecording();
        cpuMeter.restart();
      }, s.warmuptime * 1000),
    );
  }
  if (s.maxexecutiontime > 0) timers.push(setTimeout(() => control.stop(), s.maxexecutiontime * 1000));
  // Sampled with or without status lines: the time series is where an outage's window shows.
  reporter.start();
  const unwatch = interrupts.watch(control);

  let endMs = startMs;
  let loops: (number | undefined)[] = [];
  try {
    loops = await options.engine.run(control, startMs);
    endMs = performance.now();
  } finally {
    unwatch();
    for (const t of timers) clearTimeout(t);
    await reporter.stop();
  }

  const busy = loops.filter((b): b is number => b !== undefined);
  const cpu: CpuSpent = { ...cpuMeter.read(), ...(busy.length > 0 ? { eventLoopBusyPercent: busy } : {}) };
  const notes: string[] = [];
  if (!measurements.recording)
    notes.push(`the run ended before warmuptime (${s.warmuptime} s) was over: nothing was recorded`);
  if (s.warmuptime > 0)
    notes.push(
      `the first ${s.warmuptime} s (${measurements.warmupOperations} operations) were warm-up, excluded from statistics`,
    );
  if (measurements.abandonedOperations > 0) {
    notes.push(
      `${measurements.abandonedOperations} operations were still waiting for the store ${DRAIN_MS / 1000} s after the run stopped; they are not counted`,
    );
  }
  return {
    stopReason: control.stopped ? control.stopReason : 'complete',
    startedAt,
    endedAt: new Date(),
    runtimeMs: measurements.recording ? endMs - measureStartMs : 0,
    timeSeries: reporter.series,
    ...(reporter.operationSeries ? { operationSeries: reporter.operationSeries } : {}),
    cpu,
    notes,
  };
}

export interface ScheduleOptions {
  measurements: Measurements;
  settings: ScheduleSettings;
  /** Print status lines on stderr. */
  status: boolean;
  label: string;
  control?: RunControl;
  /** Builds worker `index`'s operation (per-worker state lives in its closure). */
  worker: (index: number) => WorkerOperation;
}

/** A run whose workers all run on this event loop (one process). */
export async function runScheduled(options: ScheduleOptions): Promise<ScheduledRun> {
  const { measurements, settings: s } = options;
  const control = options.control ?? new RunControl();
  return coordinate({
    measurements,
    settings: s,
    status: options.status,
    label: options.label,
    control,
    engine: {
      run: async (ctl, startMs) => [
        await runWorkerLoop({
          measurements,
          control: ctl,
          ...loopSettings(s),
          firstWorker: 0,
          workers: s.threadcount,
          startMs,
          worker: options.worker,
        }),
      ],
    },
  });
}

/** What a worker loop needs of the schedule settings. */
export function loopSettings(
  s: ScheduleSettings,
): Pick<WorkerLoopOptions, 'threadcount' | 'target' | 'operationcount'> {
  return { threadcount: s.threadcount, target: s.target, operationcount: s.operationcount };
}
