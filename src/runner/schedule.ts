/**
 * The run loop every workload shares (YCSB's run phase, the scenarios' runs): `threadcount`
 * workers, each doing one operation at a time (closed model). With `target` ops/s each worker
 * follows a fixed schedule (YCSB's ClientThread): operation i of a worker is due at
 * start + i × threadcount/target, and the operation gets that due time, so intended-time latency
 * shows a store's queueing delay instead of hiding it (coordinated omission).
 * Stops after `operationcount` operations, after `maxexecutiontime` seconds, or when told to;
 * the first `warmuptime` seconds run but are not recorded. Also owns the status line, the
 * measured window and the CPU spent in it.
 */
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import type { Measurements } from '../measure/measurements.ts';
import { StatusReporter, type TimeSeriesPoint } from '../measure/status-reporter.ts';
import { CpuMeter, type CpuSpent } from './cpu-meter.ts';

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

/** Lets an operation end the run early (a wrong answer, nothing the target can do). */
export class RunControl {
  stopped = false;
  /** Operations started so far. */
  issued = 0;

  stop(): void {
    this.stopped = true;
  }
}

/** One worker's operation: do one, given when it was due (ms, performance.now()). */
export type WorkerOperation = (intendedMs: number) => Promise<void>;

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

export async function runScheduled(options: ScheduleOptions): Promise<ScheduledRun> {
  const { measurements, settings: s } = options;
  const control = options.control ?? new RunControl();
  const limit = s.operationcount > 0 ? s.operationcount : Number.POSITIVE_INFINITY;
  const reporter = new StatusReporter(measurements, {
    intervalSeconds: s.statusIntervalSeconds,
    totalOperations: s.operationcount,
    maxSeconds: s.maxexecutiontime,
    label: options.label,
  });

  const timers: NodeJS.Timeout[] = [];
  const startedAt = new Date();
  const startMs = performance.now();
  let measureStartMs = startMs;
  const cpuMeter = new CpuMeter();
  if (s.warmuptime > 0) {
    measurements.recording = false;
    timers.push(
      setTimeout(() => {
        measurements.recording = true;
        measureStartMs = performance.now();
        cpuMeter.restart();
      }, s.warmuptime * 1000),
    );
  }
  if (s.maxexecutiontime > 0) timers.push(setTimeout(() => control.stop(), s.maxexecutiontime * 1000));
  if (options.status) reporter.start();

  // Milliseconds between two operations of one worker under a target rate.
  const tickMs = s.target > 0 ? (s.threadcount * 1000) / s.target : 0;

  const work = async (index: number) => {
    const operation = options.worker(index);
    // Stagger the workers' schedules so they don't fire in lockstep.
    const scheduleStart = startMs + (tickMs * index) / s.threadcount;
    let done = 0;
    while (!control.stopped && control.issued < limit) {
      control.issued++;
      let intended: number;
      if (tickMs > 0) {
        intended = scheduleStart + done * tickMs;
        const wait = intended - performance.now();
        if (wait >= 1) await sleep(wait);
        if (control.stopped) break;
      } else {
        intended = performance.now();
      }
      await operation(intended);
      measurements.completeOperation(performance.now() - intended);
      done++;
      // A store whose promises resolve at once (basic) would otherwise starve the timers.
      if ((done & 1023) === 0) await yieldToEventLoop();
    }
  };
  let endMs = startMs;
  try {
    // A worker that throws stops the others too, and the run fails only once all have
    // finished with the store.
    const settled = await Promise.allSettled(
      Array.from({ length: s.threadcount }, (_, i) =>
        work(i).catch((error: unknown) => {
          control.stop();
          throw error;
        }),
      ),
    );
    endMs = performance.now();
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } finally {
    for (const t of timers) clearTimeout(t);
    if (options.status) reporter.stop();
  }

  const cpu = cpuMeter.read();
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
