import type { Histogram } from './histogram.ts';
import { IntervalRows, type EncodedRows } from './interval-rows.ts';
import { LatencyRecorder } from './latency-recorder.ts';
import { isOutage, type Status } from './status.ts';

/** Counts and latency of one named operation (`READ`, `UPDATE-FAILED`, `Intended-READ`, …). */
export interface OperationSeries {
  readonly name: string;
  /** Everything recorded in the row so far, as an HDR histogram. */
  readonly histogram: Histogram;
}

/** A latency row: recorded on the hot path, read as an HDR histogram. */
class Series implements OperationSeries {
  // Its interval feeds the per-operation time series (taken once a second, off the hot path).
  readonly recorder = new LatencyRecorder(true);

  constructor(readonly name: string) {}

  get histogram(): Histogram {
    return this.recorder.histogram;
  }
}

/**
 * Where one operation's calls are filed: its status counts and its four latency rows (each made
 * when it gets its first value, so a result lists only rows that were recorded). A store wrapper
 * looks it up once (`rowsOf`) instead of finding rows by name at every call.
 */
export interface OperationRows {
  readonly operation: string;
  readonly names: RowNames;
  /** Its place in the call log (see Measurements). */
  readonly index: number;
  /** OK calls folded in from the log but not yet added to `counts`. */
  pendingOk: number;
  counts: StatusCounts | undefined;
  service: LatencyRecorder | undefined;
  failed: LatencyRecorder | undefined;
  intended: LatencyRecorder | undefined;
  intendedFailed: LatencyRecorder | undefined;
}

/** Status counts per operation, with the first few error messages kept for the result file. */
interface StatusCounts {
  counts: Map<Status, number>;
  errorSamples: string[];
}

const MAX_ERROR_SAMPLES = 5;
/** Calls the log holds before it is folded in (see Measurements.log). */
const LOG_ENTRIES = 128;
/** A log entry that is a whole operation's latency, for the status interval. */
const INTERVAL_ENTRY = -1;

/**
 * Everything measured during one phase. Mirrors YCSB's Measurements: successful operations are
 * recorded under their name, failed ones under `<OP>-FAILED`, and with intended-time measurement
 * on, the latency from the scheduled start under `Intended-<OP>` (coordinated omission corrected).
 *
 * Recording is gated by `recording`: during warm-up, operations run but are not recorded.
 */
export class Measurements {
  private readonly seriesByName = new Map<string, Series>();
  private readonly statusesByOperation = new Map<string, StatusCounts>();
  /** Operations counted in the statistics (after warm-up) that did their work: the throughput. */
  measuredOperations = 0;
  /** Operations after warm-up that failed (a store call ERROR, TIMEOUT or SERVICE_UNAVAILABLE): not throughput. */
  failedOperations = 0;
  /** Operations done during warm-up (not in any statistic). */
  warmupOperations = 0;
  /** Operations still waiting for the store when the run's drain was over (not in any statistic). */
  abandonedOperations = 0;
  recording = true;
  private readonly intervalRecorder = new LatencyRecorder();
  intervalOperations = 0;
  /** Of the interval's operations, those that failed. */
  intervalFailures = 0;
  /** Store calls in the interval that failed because the store was out of reach (TIMEOUT, SERVICE_UNAVAILABLE). */
  intervalOutageCalls = 0;
  private readonly rows = new Map<string, OperationRows>();
  private readonly rowsByIndex: OperationRows[] = [];
  /**
   * Successful calls and whole operations not yet folded into the counts and histograms, in
   * triples: [row index (or INTERVAL_ENTRY), µs, µs]. Between two operations a store's driver
   * pushes the count maps and the histograms' arrays out of the CPU's caches, so filing each call
   * at once touched several cold objects; appended here it touches one array, and the fold (every
   * LOG_ENTRIES, and before anything reads a count or a histogram) finds them in cache. Measured
   * on Cassandra, client and server apart: 1.071 x a bare driver loop's CPU per operation
   * before, 1.048 after. Failed calls are filed at once (rare, and they carry an error sample).
   */
  private readonly log = new Float64Array(LOG_ENTRIES * 3);
  private logged = 0;
  /** Status counts already handed to `takeIntervalRows`, per operation: the next take hands over what came since. */
  private readonly countsTaken = new Map<string, Map<Status, number>>();
  /** Rows other processes recorded since the last take (a coordinator's; see process-pool.ts). */
  private readonly absorbedRows = new IntervalRows();

  constructor(
    readonly recordServiceTime: boolean,
    readonly recordIntendedTime: boolean,
  ) {}

  /** The latency rows recorded so far, by name. */
  get series(): ReadonlyMap<string, OperationSeries> {
    this.fold();
    return this.seriesByName;
  }

  /** Status counts and error samples per operation. */
  get statuses(): ReadonlyMap<string, StatusCounts> {
    this.fold();
    return this.statusesByOperation;
  }

  /** Latency of all operations in the current status interval (reset by the status reporter). */
  get interval(): Histogram {
    this.fold();
    return this.intervalRecorder.histogram;
  }

  /**
   * Record one store call. Times are from `performance.now()` (ms, sub-µs resolution);
   * `intendedStartMs` is the scheduled start under a target rate (= startMs when unthrottled).
   */
  measure(
    operation: string,
    status: Status,
    intendedStartMs: number,
    startMs: number,
    endMs: number,
    error?: unknown,
  ): void {
    this.measureRows(this.rowsOf(operation), status, intendedStartMs, startMs, endMs, error);
  }

  /** `measure`, with the operation's rows looked up beforehand (the runner's store wrapper, on every call). */
  measureRows(
    rows: OperationRows,
    status: Status,
    intendedStartMs: number,
    startMs: number,
    endMs: number,
    error?: unknown,
  ): void {
    // Outages show in the time series during warm-up too (when the store went is worth knowing).
    if (isOutage(status)) this.intervalOutageCalls++;
    if (!this.recording) return;
    if (status === 'OK') {
      this.append(rows.index, toMicros(endMs - startMs), toMicros(endMs - intendedStartMs));
      if (error !== undefined)
        addSample(
          (rows.counts ??= this.countsOf(rows.operation)),
          error instanceof Error ? error.message : String(error),
        );
      return;
    }
    const statusCounts = (rows.counts ??= this.countsOf(rows.operation));
    statusCounts.counts.set(status, (statusCounts.counts.get(status) ?? 0) + 1);
    if (error !== undefined) addSample(statusCounts, error instanceof Error ? error.message : String(error));
    if (this.recordServiceTime)
      (rows.failed ??= this.seriesOf(rows.names.failed).recorder).record(toMicros(endMs - startMs));
    if (this.recordIntendedTime)
      (rows.intendedFailed ??= this.seriesOf(rows.names.intendedFailed).recorder).record(
        toMicros(endMs - intendedStartMs),
      );
  }

  /** The rows and counts of an operation, made at first use. */
  rowsOf(operation: string): OperationRows {
    let rows = this.rows.get(operation);
    if (rows === undefined) {
      rows = {
        operation,
        names: rowNamesOf(operation),
        index: this.rowsByIndex.length,
        pendingOk: 0,
        counts: undefined,
        service: undefined,
        failed: undefined,
        intended: undefined,
        intendedFailed: undefined,
      };
      this.rows.set(operation, rows);
      this.rowsByIndex.push(rows);
    }
    return rows;
  }

  /** Record a client-side check (YCSB's VERIFY row): its own time and status, no Intended- row. */
  measureCheck(status: Status, latencyMs: number, problem?: string): void {
    if (!this.recording) return;
    this.countStatus('VERIFY', status, problem);
    this.record('VERIFY', latencyMs);
  }

  /**
   * Record a whole client-level operation (counted in OVERALL unless in warm-up, and in the status
   * interval). A failed one is counted apart: a store that is down answers fast, and its failures
   * must not pass for throughput.
   */
  completeOperation(latencyMs: number, failed = false): void {
    // Warm-up operations stay out of the statistics but still show in the status line and time series.
    if (!this.recording) this.warmupOperations++;
    else if (failed) this.failedOperations++;
    else this.measuredOperations++;
    this.intervalOperations++;
    if (failed) this.intervalFailures++;
    this.append(INTERVAL_ENTRY, toMicros(latencyMs), 0);
  }

  private append(entry: number, first: number, second: number): void {
    const log = this.log;
    const n = this.logged;
    log[n] = entry;
    log[n + 1] = first;
    log[n + 2] = second;
    this.logged = n + 3;
    if (n + 3 === log.length) this.fold();
  }

  /** File what the log holds: OK counts, service and intended latencies, the interval's latencies. */
  private fold(): void {
    const log = this.log;
    const end = this.logged;
    if (end === 0) return;
    this.logged = 0;
    for (let i = 0; i < end; i += 3) {
      const entry = log[i]!;
      if (entry === INTERVAL_ENTRY) {
        this.intervalRecorder.record(log[i + 1]!);
        continue;
      }
      const rows = this.rowsByIndex[entry]!;
      rows.pendingOk++;
      if (this.recordServiceTime) (rows.service ??= this.seriesOf(rows.operation).recorder).record(log[i + 1]!);
      if (this.recordIntendedTime) (rows.intended ??= this.seriesOf(rows.names.intended).recorder).record(log[i + 2]!);
    }
    for (const rows of this.rowsByIndex) {
      if (rows.pendingOk === 0) continue;
      const counts = (rows.counts ??= this.countsOf(rows.operation)).counts;
      counts.set('OK', (counts.get('OK') ?? 0) + rows.pendingOk);
      rows.pendingOk = 0;
    }
  }

  /** Record a latency under a name directly (used for READ-MODIFY-WRITE and VERIFY). */
  record(name: string, latencyMs: number): void {
    if (!this.recording) return;
    this.seriesOf(name).recorder.record(toMicros(latencyMs));
  }

  countStatus(operation: string, status: Status, error?: unknown): void {
    if (!this.recording) return;
    const counts = this.countsOf(operation);
    counts.counts.set(status, (counts.counts.get(status) ?? 0) + 1);
    if (error !== undefined) addSample(counts, error instanceof Error ? error.message : String(error));
  }

  /**
   * Add what every row recorded since the last call, and the status counts since then, into
   * `into`, with what other processes handed over meanwhile (`absorbIntervalRows`). Called once a
   * second by the status reporter: the per-operation time series, HDR interval logs and live
   * metrics are read from it, at no cost to an operation.
   */
  takeIntervalRows(into: IntervalRows): void {
    this.fold();
    for (const [name, series] of this.seriesByName) series.recorder.takeInterval(into.histogramOf(name));
    for (const [operation, counts] of this.statusesByOperation) {
      let taken = this.countsTaken.get(operation);
      if (taken === undefined) {
        taken = new Map();
        this.countsTaken.set(operation, taken);
      }
      for (const [status, n] of counts.counts) {
        const before = taken.get(status) ?? 0;
        if (n > before) into.addCount(operation, status, n - before);
        taken.set(status, n);
      }
    }
    if (!this.absorbedRows.empty) {
      into.add(this.absorbedRows);
      this.absorbedRows.clear();
    }
  }

  /** Another process's rows since its last take, to hand over at this one's next take. */
  absorbIntervalRows(encoded: EncodedRows): void {
    this.absorbedRows.addEncoded(encoded);
  }

  // ---- merging (measurements of other processes or result files; see results/merge.ts) ----

  /** Add another process's counts of one operation, and its error samples (still the first few distinct). */
  addCounts(
    operation: string,
    counts: Readonly<Partial<Record<Status, number>>>,
    errorSamples: readonly string[] = [],
  ): void {
    const mine = this.countsOf(operation);
    // Merged counts were recorded elsewhere, and reach the interval rows from there (absorbIntervalRows).
    let taken = this.countsTaken.get(operation);
    if (taken === undefined) {
      taken = new Map();
      this.countsTaken.set(operation, taken);
    }
    for (const [status, n] of Object.entries(counts) as [Status, number][]) {
      mine.counts.set(status, (mine.counts.get(status) ?? 0) + n);
      taken.set(status, (taken.get(status) ?? 0) + n);
    }
    for (const sample of errorSamples) addSample(mine, sample);
  }

  /** The histogram of a row, made empty if the row has none yet (to add other processes' counts into). */
  histogramOf(name: string): Histogram {
    this.fold();
    return this.seriesOf(name).histogram;
  }

  private seriesOf(name: string): Series {
    let series = this.seriesByName.get(name);
    if (series === undefined) {
      series = new Series(name);
      this.seriesByName.set(name, series);
    }
    return series;
  }

  private countsOf(operation: string): StatusCounts {
    let counts = this.statusesByOperation.get(operation);
    if (counts === undefined) {
      counts = { counts: new Map(), errorSamples: [] };
      this.statusesByOperation.set(operation, counts);
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
    names = {
      failed: `${operation}-FAILED`,
      intended: `Intended-${operation}`,
      intendedFailed: `Intended-${operation}-FAILED`,
    };
    ROW_NAMES.set(operation, names);
  }
  return names;
}

function addSample(counts: StatusCounts, message: string): void {
  if (counts.errorSamples.length < MAX_ERROR_SAMPLES && !counts.errorSamples.includes(message))
    counts.errorSamples.push(message);
}

/** HDR histograms take integers: record microseconds, at least 1 so a sub-µs call still counts. */
function toMicros(ms: number): number {
  const us = Math.round(ms * 1000);
  return us < 1 ? 1 : us;
}
