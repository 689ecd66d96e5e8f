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
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Measurements } from '../measure/measurements.ts';
import { StatusReporter, type TimeSeriesPoint } from '../measure/status-reporter.ts';
import { CpuMeter, EventLoopMeter, type CpuSpent } from './cpu-meter.ts';
import { PreciseClock } from './precise-clock.ts';
import { OperationBudget, RunControl } from './run-control.ts';

export { RunControl } from './run-control.ts';

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
}

/**
 * One worker's operation: do one. `dueMs` is when it was due (performance.now()) under a target
 * rate, undefined when unthrottled.
 */
export type WorkerOperation = (dueMs: number | undefined) => Promise<void>;

export interface ScheduledRun {
  startedAt: Date;
  endedAt: Date;
  /** Measured window (after warm-up) in ms; 0 when the run ended during warm-up. */
  runtimeMs: number;
  timeSeries: TimeSeriesPoint[];
  cpu: CpuSpent;
  /** What a reader must know about the window (warm-up). */
  notes: string[];
}

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
  worker: (index: number) => WorkerOperation;
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
    const operation = options.worker(index);
    // Stagger the workers' schedules so they don't fire in lockstep.
    const scheduleStart = options.startMs + (tickMs * index) / threadcount;
    let done = 0;
    while (budget.take()) {
      startRecordingIfDue();
      let due: number | undefined;
      if (clock !== undefined) {
        due = scheduleStart + done * tickMs;
        if (due > performance.now()) await clock.until(due);
        if (control.stopped) break;
        startRecordingIfDue();
      }
      const begin = due ?? performance.now();
      inFlight++;
      try {
        await operation(due);
      } finally {
        inFlight--;
      }
      measurements.completeOperation(performance.now() - begin);
      done++;
      // A store whose promises resolve at once (basic) would otherwise starve the timers.
      if ((done & 1023) === 0) await yieldToEventLoop();
    }
  };
  try {
    // A worker that throws stops the others too, and the loop fails only once all have
    // finished with the store.
    const settled = await Promise.allSettled(
      Array.from({ length: options.workers }, (_, i) =>
        work(options.firstWorker + i).catch((error: unknown) => {
          control.stop();
          throw error;
        }),
      ),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } finally {
    await clock?.close();
  }
  return recording ? loopMeter.busyPercent() : undefined;
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
}

/**
 * The clock of a run: start the workers, end the warm-up and the run on time, print the status
 * line, and measure the window (after warm-up) and the CPU spent in it.
 */
export async function coordinate(options: CoordinateOptions): Promise<ScheduledRun> {
  const { measurements, settings: s, control } = options;
  const reporter = new StatusReporter(measurements, {
    intervalSeconds: s.statusIntervalSeconds,
    totalOperations: s.operationcount,
    maxSeconds: s.maxexecutiontime,
    label: options.label,
    ...(options.engine.collectInterval ? { collect: options.engine.collectInterval } : {}),
  });

  if (s.warmuptime > 0) control.stopRecording();
  await options.engine.prepare?.(control);

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
  if (options.status) reporter.start();

  let endMs = startMs;
  let loops: (number | undefined)[] = [];
  try {
    loops = await options.engine.run(control, startMs);
    endMs = performance.now();
  } finally {
    for (const t of timers) clearTimeout(t);
    if (options.status) await reporter.stop();
  }

  const busy = loops.filter((b): b is number => b !== undefined);
  const cpu: CpuSpent = { ...cpuMeter.read(), ...(busy.length > 0 ? { eventLoopBusyPercent: busy } : {}) };
  const notes: string[] = [];
  if (!measurements.recording) notes.push(`the run ended before warmuptime (${s.warmuptime} s) was over: nothing was recorded`);
  if (s.warmuptime > 0) notes.push(`the first ${s.warmuptime} s (${measurements.warmupOperations} operations) were warm-up, excluded from statistics`);
  return {
    startedAt,
    endedAt: new Date(),
    runtimeMs: measurements.recording ? endMs - measureStartMs : 0,
    timeSeries: reporter.series,
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
        await runWorkerLoop({ measurements, control: ctl, ...loopSettings(s), firstWorker: 0, workers: s.threadcount, startMs, worker: options.worker }),
      ],
    },
  });
}

/** What a worker loop needs of the schedule settings. */
export function loopSettings(s: ScheduleSettings): Pick<WorkerLoopOptions, 'threadcount' | 'target' | 'operationcount'> {
  return { threadcount: s.threadcount, target: s.target, operationcount: s.operationcount };
}
