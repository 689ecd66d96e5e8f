import { newLatencyHistogram } from './histogram.ts';
import type { Measurements } from './measurements.ts';

export interface TimeSeriesPoint {
  t: number;
  operations: number;
  opsPerSec: number;
  p99Us: number;
  warmup: boolean;
}

export interface StatusReporterOptions {
  /** Seconds between status lines (YCSB's `status.interval`). */
  intervalSeconds: number;
  /** Operations the phase will do, or 0 when it is bounded by time only. */
  totalOperations: number;
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
  private totalOperations = 0;
  private timer: NodeJS.Timeout | undefined;
  private startMs = 0;
  private lastTickMs = 0;
  private ticks = 0;
  private readonly write: (text: string) => void;
  private readonly isTTY: boolean;
  private drewInPlace = false;

  constructor(
    private readonly measurements: Measurements,
    private readonly options: StatusReporterOptions,
  ) {
    this.write = options.write ?? ((text) => process.stderr.write(text));
    this.isTTY = options.isTTY ?? Boolean(process.stderr.isTTY);
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
    if (performance.now() - this.lastTickMs > 50) await this.sample(true);
    if (this.drewInPlace) this.write('\n');
  }

  private pending: Promise<void> | undefined;

  private async sample(final = false): Promise<void> {
    await this.options.collect?.();
    this.tick(final);
  }

  private tick(final: boolean): void {
    const now = performance.now();
    const m = this.measurements;
    const seconds = (now - this.lastTickMs) / 1000;
    const operations = m.intervalOperations;
    const p99 = operations > 0 ? m.interval.getValueAtPercentile(99) : 0;
    this.series.push({
      t: round((now - this.startMs) / 1000, 3),
      operations,
      opsPerSec: seconds > 0 ? round(operations / seconds, 1) : 0,
      p99Us: p99,
      warmup: !m.recording,
    });
    this.window.add(m.interval);
    this.windowOperations += operations;
    this.totalOperations += operations;
    m.interval.reset();
    m.intervalOperations = 0;
    this.lastTickMs = now;
    this.ticks++;
    if (!final && this.ticks % this.options.intervalSeconds === 0) this.printLine(now);
  }

  private printLine(now: number): void {
    const elapsed = (now - this.startMs) / 1000;
    const done = this.totalOperations;
    const current = this.windowOperations / this.options.intervalSeconds;
    const p99 = this.windowOperations > 0 ? this.window.getValueAtPercentile(99) : 0;
    const line =
      `${this.options.label} ${Math.round(elapsed)} sec: ${done} operations; ${current.toFixed(1)} current ops/sec; ` +
      `p99 ${p99} us${this.measurements.recording ? '' : ' (warm-up)'}; ${this.eta(elapsed, done)}`;
    this.window.reset();
    this.windowOperations = 0;
    if (this.isTTY) {
      this.write(`\r\x1b[K${line}`);
      this.drewInPlace = true;
    } else {
      this.write(`${line}\n`);
    }
  }

  private eta(elapsed: number, done: number): string {
    const byCount = this.options.totalOperations > 0 && done > 0 ? (elapsed / done) * (this.options.totalOperations - done) : Infinity;
    const byTime = this.options.maxSeconds > 0 ? this.options.maxSeconds - elapsed : Infinity;
    const left = Math.min(byCount, byTime);
    if (!Number.isFinite(left)) return 'est completion unknown';
    return `est completion in ${formatDuration(Math.max(0, left))}`;
  }
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
