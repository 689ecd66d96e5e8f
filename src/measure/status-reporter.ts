import { newLatencyHistogram, valueAtPercentile } from './histogram.ts';
import { IntervalRows } from './interval-rows.ts';
import type { Measurements } from './measurements.ts';
import { OperationSeriesBuilder, type OperationSeries } from './operation-series.ts';

export interface TimeSeriesPoint {
  t: number;
  operations: number;
  opsPerSec: number;
  p99Us: number;
  warmup: boolean;
  /** Of `operations`, those that failed (absent when none did). */
  failed?: number;
  /** Store calls that failed because the store was out of reach: refused, closed, timed out (absent when none). */
  outageCalls?: number;
}

export interface StatusReporterOptions {
  /** Seconds between status lines (YCSB's `status.interval`). */
  intervalSeconds: number;
  /** Operations the phase will do, or 0 when it is bounded by time only. */
  totalOperations: number;
  /**
   * Operations the phase is expected to do when no operation count bounds it (a load: its
   * insertcount records, which it counts one by one, batched or not); only the estimate uses it.
   */
  expectedOperations?: number;
  /** Phase time limit in seconds, or 0. */
  maxSeconds: number;
  label: string;
  /** Where lines go; defaults to stderr so piped stdout (the YCSB text) stays clean. */
  write?: (text: string) => void;
  /** Is the destination a terminal (then the line is redrawn in place)? */
  isTTY?: boolean;
  /**
   * Called before each sample: brings the interval counts of workers in other threads into the
   * measurements (absent when the workers record into the measurements themselves).
   */
  collect?: () => Promise<void>;
  /** Print status lines (default true); the time series is sampled either way. */
  print?: boolean;
  /** Called with each second's point, once sampled (the coordinator checks the error budget there). */
  onSample?: (point: TimeSeriesPoint, totals: { operations: number; failed: number }) => void;
  /**
   * Called with each second's latency rows and outcome counts (every process's), while recording
   * or not: live metrics and the capacity search read the run from here. The rows are emptied
   * after the call: keep a copy (`IntervalRows.add`), not the object.
   */
  onRows?: (second: IntervalRows, recording: boolean) => void;
}

/**
 * Samples the measurements once a second into a time series (YCSB's timeseries granularity)
 * and prints a status line every `status.interval` seconds: operations so far, current ops/s,
 * p99 of the window and the estimated time left. On a terminal the line redraws in place; when
 * stderr is piped each status is its own line, so logs stay readable.
 */
export class StatusReporter {
  readonly series: TimeSeriesPoint[] = [];
  private readonly window = newLatencyHistogram();
  private windowOperations = 0;
  private windowFailures = 0;
  private totalOperations = 0;
  private totalFailures = 0;
  private timer: NodeJS.Timeout | undefined;
  private startMs = 0;
  private lastTickMs = 0;
  private ticks = 0;
  private readonly write: (text: string) => void;
  private readonly isTTY: boolean;
  private drewInPlace = false;
  /** Each second's rows, then the status interval's (see operation-series.ts). */
  private readonly second = new IntervalRows();
  private readonly operations: OperationSeriesBuilder;

  constructor(
    private readonly measurements: Measurements,
    private readonly options: StatusReporterOptions,
  ) {
    this.write = options.write ?? ((text) => process.stderr.write(text));
    this.isTTY = options.isTTY ?? Boolean(process.stderr.isTTY);
    this.operations = new OperationSeriesBuilder(options.intervalSeconds);
  }

  /** The per-operation series, a point every status interval (undefined before the first). */
  get operationSeries(): OperationSeries | undefined {
    return this.operations.series;
  }

  start(): void {
    this.startMs = performance.now();
    this.lastTickMs = this.startMs;
    this.timer = setInterval(() => {
      // A collection still under way (workers busy) makes this second count into the next.
      if (this.pending === undefined) this.pending = this.sample().finally(() => (this.pending = undefined));
    }, 1000);
  }

  /** Stop sampling; records the final partial second. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.pending;
    // Every operation belongs in the series: the last few ms are a point of their own, or,
    // when the run ended just after a tick, folded into that tick's point (a point over a few
    // ms would show a rate that means nothing).
    if (performance.now() - this.lastTickMs > 50 || this.series.length === 0) await this.sample(true);
    else {
      await this.options.collect?.();
      this.foldIntoLast();
    }
    this.operations.finish(this.series.at(-1)!.t);
    if (this.drewInPlace) this.write('\n');
  }

  private pending: Promise<void> | undefined;

  private async sample(final = false): Promise<void> {
    await this.options.collect?.();
    this.tick(final);
  }

  /** Add what was counted since the last tick to the last point, over its longer span. */
  private foldIntoLast(): void {
    const last = this.series[this.series.length - 1]!;
    const now = performance.now();
    const previousT = this.series.length > 1 ? this.series[this.series.length - 2]!.t : 0;
    const counted = this.takeInterval(now);
    const t = round((now - this.startMs) / 1000, 3);
    this.takeRows(t, true);
    const operations = last.operations + counted.operations;
    const failed = (last.failed ?? 0) + counted.failed;
    const outageCalls = (last.outageCalls ?? 0) + counted.outageCalls;
    const seconds = t - previousT;
    Object.assign(last, {
      t,
      operations,
      opsPerSec: seconds > 0 ? round((operations - failed) / seconds, 1) : 0,
      p99Us: Math.max(last.p99Us, counted.p99Us),
      ...(failed > 0 ? { failed } : {}),
      ...(outageCalls > 0 ? { outageCalls } : {}),
    });
  }

  private tick(final: boolean): void {
    const now = performance.now();
    const seconds = (now - this.lastTickMs) / 1000;
    const warmup = !this.measurements.recording;
    const { operations, failed, outageCalls, p99Us } = this.takeInterval(now);
    const t = round((now - this.startMs) / 1000, 3);
    this.takeRows(t, false);
    const point: TimeSeriesPoint = {
      t,
      operations,
      // A rate counts the operations that did their work, as the result's throughput does.
      opsPerSec: seconds > 0 ? round((operations - failed) / seconds, 1) : 0,
      p99Us,
      warmup,
      ...(failed > 0 ? { failed } : {}),
      ...(outageCalls > 0 ? { outageCalls } : {}),
    };
    this.series.push(point);
    this.ticks++;
    if (!final && this.ticks % this.options.intervalSeconds === 0) this.operations.close(point.t);
    if (!final && this.options.print !== false && this.ticks % this.options.intervalSeconds === 0) this.printLine(now);
    if (!final) this.options.onSample?.(point, { operations: this.totalOperations, failed: this.totalFailures });
  }

  /**
   * Every row's calls since the last tick: to the listeners, then into the status interval's
   * point and the per-second outcomes (the point ending at `t`, or folded into the last one).
   */
  private takeRows(t: number, foldIntoLast: boolean): void {
    const recording = this.measurements.recording;
    this.measurements.takeIntervalRows(this.second);
    this.options.onRows?.(this.second, recording);
    if (!recording) this.operations.markWarmup();
    if (foldIntoLast) this.operations.foldSecond(this.second, t);
    else this.operations.addSecond(this.second, t);
    this.second.clear();
  }

  /** What was counted since the last tick, added to the status window and the totals, the interval then emptied. */
  private takeInterval(now: number): { operations: number; failed: number; outageCalls: number; p99Us: number } {
    const m = this.measurements;
    const taken = {
      operations: m.intervalOperations,
      failed: m.intervalFailures,
      outageCalls: m.intervalOutageCalls,
      p99Us: valueAtPercentile(m.interval, 99),
    };
    this.window.add(m.interval);
    this.windowOperations += taken.operations;
    this.windowFailures += taken.failed;
    this.totalOperations += taken.operations;
    this.totalFailures += taken.failed;
    m.interval.reset();
    m.intervalOperations = 0;
    m.intervalFailures = 0;
    m.intervalOutageCalls = 0;
    this.lastTickMs = now;
    return taken;
  }

  private printLine(now: number): void {
    const elapsed = (now - this.startMs) / 1000;
    const done = this.totalOperations;
    // Operations and ops/sec count what did its work, as the result does; failures have their own figures.
    const succeeded = done - this.totalFailures;
    const current = (this.windowOperations - this.windowFailures) / this.options.intervalSeconds;
    const p99 = valueAtPercentile(this.window, 99);
    const errors =
      this.windowOperations > 0 && this.windowFailures > 0
        ? `; ${this.totalFailures} failed (${formatRate(this.windowFailures / this.windowOperations)} errors now)`
        : this.totalFailures > 0
          ? `; ${this.totalFailures} failed`
          : '';
    const line =
      `${this.options.label} ${Math.round(elapsed)} sec: ${succeeded} operations; ${current.toFixed(1)} current ops/sec; ` +
      `p99 ${p99} us${errors}${this.measurements.recording ? '' : ' (warm-up)'}; ${this.eta(elapsed, done)}`;
    this.window.reset();
    this.windowOperations = 0;
    this.windowFailures = 0;
    if (this.isTTY) {
      this.write(`\r\x1b[K${line}`);
      this.drewInPlace = true;
    } else {
      this.write(`${line}\n`);
    }
  }

  private eta(elapsed: number, done: number): string {
    const total =
      this.options.totalOperations > 0 ? this.options.totalOperations : (this.options.expectedOperations ?? 0);
    const byCount = total > 0 && done > 0 ? (elapsed / done) * Math.max(0, total - done) : Infinity;
    const byTime = this.options.maxSeconds > 0 ? this.options.maxSeconds - elapsed : Infinity;
    const left = Math.min(byCount, byTime);
    if (!Number.isFinite(left)) return 'est completion unknown';
    return `est completion in ${formatDuration(Math.max(0, left))}`;
  }
}

function formatRate(rate: number): string {
  const percent = rate * 100;
  return `${percent >= 10 || percent === 0 ? percent.toFixed(0) : percent.toFixed(1)}%`;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
