import { newLatencyHistogram, type Histogram } from './histogram.ts';
import type { Status } from './status.ts';

/** Counts and latency of one named operation (`READ`, `UPDATE-FAILED`, `Intended-READ`, …). */
export interface OperationSeries {
  name: string;
  histogram: Histogram;
}

/** Status counts per operation, with the first few error messages kept for the result file. */
interface StatusCounts {
  counts: Map<Status, number>;
  errorSamples: string[];
}

const MAX_ERROR_SAMPLES = 5;

/**
 * Everything measured during one phase. Mirrors YCSB's Measurements: successful operations are
 * recorded under their name, failed ones under `<OP>-FAILED`, and with intended-time measurement
 * on, the latency from the scheduled start under `Intended-<OP>` (coordinated omission corrected).
 *
 * Recording is gated by `recording`: during warm-up, operations run but are not recorded.
 */
export class Measurements {
  readonly series = new Map<string, OperationSeries>();
  readonly statuses = new Map<string, StatusCounts>();
  /** Operations counted in the statistics (after warm-up). */
  measuredOperations = 0;
  /** Operations done during warm-up (not in any statistic). */
  warmupOperations = 0;
  recording = true;
  /** Latency of all operations in the current status interval (reset by the status reporter). */
  readonly interval = newLatencyHistogram();
  intervalOperations = 0;

  constructor(
    readonly recordServiceTime: boolean,
    readonly recordIntendedTime: boolean,
  ) {}

  /**
   * Record one store call. Times are from `performance.now()` (ms, sub-µs resolution);
   * `intendedStartMs` is the scheduled start under a target rate (= startMs when unthrottled).
   */
  measure(operation: string, status: Status, intendedStartMs: number, startMs: number, endMs: number, error?: unknown): void {
    if (!this.recording) return;
    const failed = status !== 'OK';
    this.countStatus(operation, status, error);
    const names = rowNamesOf(operation);
    if (this.recordServiceTime) this.record(failed ? names.failed : operation, endMs - startMs);
    if (this.recordIntendedTime) this.record(failed ? names.intendedFailed : names.intended, endMs - intendedStartMs);
  }

  /** Record a client-side check (YCSB's VERIFY row): its own time and status, no Intended- row. */
  measureCheck(status: Status, latencyMs: number, problem?: string): void {
    if (!this.recording) return;
    this.countStatus('VERIFY', status, problem);
    this.record('VERIFY', latencyMs);
  }

  /** Record a whole client-level operation (counted in OVERALL unless in warm-up, and in the status interval). */
  completeOperation(latencyMs: number): void {
    // Warm-up operations stay out of the statistics but still show in the status line and time series.
    if (this.recording) this.measuredOperations++;
    else this.warmupOperations++;
    this.intervalOperations++;
    this.interval.recordValue(toMicros(latencyMs));
  }

  /** Record a latency under a name directly (used for READ-MODIFY-WRITE and VERIFY). */
  record(name: string, latencyMs: number): void {
    if (!this.recording) return;
    this.histogramOf(name).recordValue(toMicros(latencyMs));
  }

  countStatus(operation: string, status: Status, error?: unknown): void {
    if (!this.recording) return;
    const counts = this.countsOf(operation);
    counts.counts.set(status, (counts.counts.get(status) ?? 0) + 1);
    if (error !== undefined) addSample(counts, error instanceof Error ? error.message : String(error));
  }

  // ---- merging (measurements of other processes or result files; see results/merge.ts) ----

  /** Add another process's counts of one operation, and its error samples (still the first few distinct). */
  addCounts(operation: string, counts: Readonly<Partial<Record<Status, number>>>, errorSamples: readonly string[] = []): void {
    const mine = this.countsOf(operation);
    for (const [status, n] of Object.entries(counts) as [Status, number][]) mine.counts.set(status, (mine.counts.get(status) ?? 0) + n);
    for (const sample of errorSamples) addSample(mine, sample);
  }

  /** The histogram of a row, made empty if the row has none yet (to add other processes' counts into). */
  histogramOf(name: string): Histogram {
    let series = this.series.get(name);
    if (series === undefined) {
      series = { name, histogram: newLatencyHistogram() };
      this.series.set(name, series);
    }
    return series.histogram;
  }

  private countsOf(operation: string): StatusCounts {
    let counts = this.statuses.get(operation);
    if (counts === undefined) {
      counts = { counts: new Map(), errorSamples: [] };
      this.statuses.set(operation, counts);
    }
    return counts;
  }

  statusCounts(operation: string): ReadonlyMap<Status, number> {
    return this.statuses.get(operation)?.counts ?? new Map();
  }

  errorSamples(operation: string): readonly string[] {
    return this.statuses.get(operation)?.errorSamples ?? [];
  }

  /** Total of a status over all operations (e.g. ERROR count for the run). */
  totalOf(status: Status): number {
    let total = 0;
    for (const s of this.statuses.values()) total += s.counts.get(status) ?? 0;
    return total;
  }
}

interface RowNames {
  failed: string;
  intended: string;
  intendedFailed: string;
}

/** Row names per operation, built once (not a string concatenation per measured call). */
const ROW_NAMES = new Map<string, RowNames>();

function rowNamesOf(operation: string): RowNames {
  let names = ROW_NAMES.get(operation);
  if (names === undefined) {
    names = { failed: `${operation}-FAILED`, intended: `Intended-${operation}`, intendedFailed: `Intended-${operation}-FAILED` };
    ROW_NAMES.set(operation, names);
  }
  return names;
}

function addSample(counts: StatusCounts, message: string): void {
  if (counts.errorSamples.length < MAX_ERROR_SAMPLES && !counts.errorSamples.includes(message)) counts.errorSamples.push(message);
}

/** HDR histograms take integers: record microseconds, at least 1 so a sub-µs call still counts. */
function toMicros(ms: number): number {
  const us = Math.round(ms * 1000);
  return us < 1 ? 1 : us;
}
