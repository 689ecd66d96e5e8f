/**
 * The per-operation time series: every `status.interval` seconds (YCSB's granularity), each
 * latency row's calls, p50, p99 and max in that interval, and each operation's failed calls.
 * Kept column by column (one array per figure, the interval ends shared), so a long run stays
 * small in the result file, and with each interval's HDR histogram in the standard encoding, so
 * the series of several processes or client machines merge exactly (results/merge.ts) and the
 * HDR interval logs are written from it (report/hdr-logs.ts). Every percentile is `valueAtPercentile`'s.
 *
 * Beside it, second by second, each operation's outcomes by kind (`seconds`): what the store
 * answered and how calls failed, from which outage windows are read at a second's resolution
 * (results/faults.ts). Counts only, read off each second's rows once a second (never per call).
 */
import { addEncodedHistogram, encodeHistogram, maxOf, valueAtPercentile, type Histogram } from './histogram.ts';
import { IntervalRows } from './interval-rows.ts';
import { isFailure, STATUSES, type Status } from './status.ts';

/** One latency row's figures, one entry per interval. */
export interface OperationSeriesRow {
  /** YCSB's row name: `READ`, `Intended-READ`, `READ-FAILED`, … */
  name: string;
  /** Calls recorded in the row in each interval. */
  count: number[];
  /** Operation rows only (`READ`, not `Intended-READ`): calls that failed (ERROR, TIMEOUT, SERVICE_UNAVAILABLE) in each interval. */
  failed?: number[];
  p50Us: number[];
  p99Us: number[];
  maxUs: number[];
  /** Each interval's histogram (µs), HdrHistogram's compressed base64; '' for an interval with no call. */
  histograms: string[];
}

export interface OperationSeries {
  /** Seconds between two points as asked (`status.interval`); the last interval may be shorter. */
  intervalSeconds: number;
  /** End of each interval, in seconds since the run started (the time series' clock). */
  t: number[];
  /** Whether each interval was (partly) warm-up, whose calls are not recorded. */
  warmup: boolean[];
  rows: OperationSeriesRow[];
  /** Each operation's outcomes second by second (absent in files written before it). */
  seconds?: OutcomeSeconds;
}

/**
 * Each operation's calls second by second, by outcome: one point per point of the time series
 * (the second before its `t`; the last may be longer or a sliver), column by column. Warm-up
 * calls are not recorded, so its seconds hold zeros.
 */
export interface OutcomeSeconds {
  /** End of each second, in seconds since the run started (the time series' `t`). */
  t: number[];
  rows: OutcomeRow[];
}

export interface OutcomeRow {
  operation: string;
  /** Calls that did their work: OK, NOT_FOUND. */
  ok: number[];
  /** Calls the store answered with an error (ERROR: a conflict, a refused command); absent when none. */
  error?: number[];
  /** Calls that failed because the store was out of reach (SERVICE_UNAVAILABLE); absent when none. */
  unavailable?: number[];
  /** Calls that had no answer in time (TIMEOUT); absent when none. */
  timeout?: number[];
}

/** The columns of an outcome row, and the statuses each counts (UNSUPPORTED and checks: none). */
export const OUTCOME_COLUMNS = ['ok', 'error', 'unavailable', 'timeout'] as const;
export type OutcomeColumn = (typeof OUTCOME_COLUMNS)[number];
const COLUMN_OF: Readonly<Partial<Record<Status, OutcomeColumn>>> = {
  OK: 'ok',
  NOT_FOUND: 'ok',
  ERROR: 'error',
  SERVICE_UNAVAILABLE: 'unavailable',
  TIMEOUT: 'timeout',
};

const FAILURES = STATUSES.filter(isFailure);

/** A row named after an operation (not `Intended-` nor `-FAILED`): where its failures are counted. */
export function isOperationRow(name: string): boolean {
  return !name.startsWith('Intended-') && !name.endsWith('-FAILED');
}

/** A check of answers (VERIFY, a scenario's READBACK-VERIFY): no store call, no outcome row. */
const isCheckRow = (operation: string) => operation === 'VERIFY' || operation.endsWith('-VERIFY');

/** Builds the series from the seconds of a run, closing a point every status interval. */
export class OperationSeriesBuilder {
  private readonly rows = new Map<string, OperationSeriesRow>();
  private readonly t: number[] = [];
  private readonly warmup: boolean[] = [];
  private inWarmup = false;
  private readonly seconds = new OutcomeSecondsBuilder();

  /** The interval being filled. */
  private readonly period = new IntervalRows();

  constructor(private readonly intervalSeconds: number) {}

  /**
   * Add a second's rows to the interval being filled; with `t`, its outcomes are also the
   * per-second point that ended `t` seconds after the start.
   */
  addSecond(second: IntervalRows, t?: number): void {
    this.period.add(second);
    if (t !== undefined) this.seconds.add(second, t);
  }

  /** Add a last sliver of the run: to the interval being filled, and to the last second's outcomes, which then end at `t`. */
  foldSecond(second: IntervalRows, t: number): void {
    this.period.add(second);
    this.seconds.foldIntoLast(second, t);
  }

  /**
   * The run ended at `t`: the interval being filled is its last point, or, when it is a sliver
   * of less than a second after the last point, part of that point.
   */
  finish(t: number): void {
    const last = this.t.at(-1);
    if (last !== undefined && t - last < 1) this.extendLast(t);
    else this.close(t);
  }

  /** Part of the interval being filled ran in warm-up. */
  markWarmup(): void {
    this.inWarmup = true;
  }

  /** Close the interval being filled at `t` seconds since the start, and start the next. */
  close(t: number): void {
    const index = this.t.length;
    this.t.push(t);
    this.warmup.push(this.inWarmup);
    this.inWarmup = false;
    this.fill(index);
  }

  /**
   * Add the interval being filled to the last point instead, which then ends at `t`: a run that
   * ended just after a point would otherwise end on an interval of a few ms, whose rate means
   * nothing. Nothing is lost either way: every call is in some interval.
   */
  private extendLast(t: number): void {
    const index = this.t.length - 1;
    if (index < 0) {
      this.close(t);
      return;
    }
    this.t[index] = t;
    if (this.inWarmup) this.warmup[index] = true;
    this.inWarmup = false;
    for (const row of this.rows.values()) {
      const encoded = row.histograms.pop()!;
      if (encoded !== '') addEncodedHistogram(this.period.histogramOf(row.name), encoded);
      for (const column of [row.count, row.p50Us, row.p99Us, row.maxUs]) column.pop();
      // The point keeps only the sum of its failures: they come back as one failing status.
      const failed = row.failed?.pop() ?? 0;
      if (failed > 0) this.period.addCount(row.name, 'ERROR', failed);
    }
    this.fill(index);
  }

  /** Point `index` of every row, from the interval being filled, which is then emptied. */
  private fill(index: number): void {
    const names = new Set([...this.period.histograms.keys(), ...[...this.period.counts.keys()].filter(isOperationRow)]);
    for (const name of names) {
      if (!this.rows.has(name)) this.rows.set(name, emptyRow(name, index));
    }
    for (const row of this.rows.values()) {
      const histogram: Histogram | undefined = this.period.histograms.get(row.name);
      const n = histogram?.totalCount ?? 0;
      row.count.push(n);
      row.p50Us.push(n > 0 ? valueAtPercentile(histogram!, 50) : 0);
      row.p99Us.push(n > 0 ? valueAtPercentile(histogram!, 99) : 0);
      row.maxUs.push(n > 0 ? maxOf(histogram!) : 0);
      row.histograms.push(n > 0 ? encodeHistogram(histogram!) : '');
      if (isOperationRow(row.name))
        (row.failed ??= new Array<number>(index).fill(0)).push(
          FAILURES.reduce((sum, status) => sum + this.period.countOf(row.name, status), 0),
        );
    }
    this.period.clear();
  }

  /** The series so far; undefined when no interval was closed. */
  get series(): OperationSeries | undefined {
    if (this.t.length === 0) return undefined;
    const seconds = this.seconds.series;
    return {
      intervalSeconds: this.intervalSeconds,
      t: [...this.t],
      warmup: [...this.warmup],
      rows: [...this.rows.values()],
      ...(seconds ? { seconds } : {}),
    };
  }
}

/** Each operation's outcome counts, a point per second (see OutcomeSeconds). */
export class OutcomeSecondsBuilder {
  private readonly t: number[] = [];
  /** Every column of every operation, kept whole (zeros too) until the series is read. */
  private readonly rows = new Map<string, Record<OutcomeColumn, number[]>>();

  /** The point of the second that ended at `t`, from that second's counts. */
  add(second: IntervalRows, t: number): void {
    const index = this.t.length;
    this.t.push(t);
    for (const columns of this.rows.values()) for (const column of OUTCOME_COLUMNS) columns[column].push(0);
    this.count(second, index);
  }

  /** Add a sliver's counts to the last point, which then ends at `t` (the first point, when there is none). */
  foldIntoLast(second: IntervalRows, t: number): void {
    if (this.t.length === 0) {
      this.add(second, t);
      return;
    }
    this.t[this.t.length - 1] = t;
    this.count(second, this.t.length - 1);
  }

  private count(second: IntervalRows, index: number): void {
    for (const [operation, counts] of second.counts) {
      if (isCheckRow(operation)) continue;
      for (const [status, n] of counts) {
        const column = COLUMN_OF[status];
        if (column === undefined || n === 0) continue;
        this.columnsOf(operation)[column][index]! += n;
      }
    }
  }

  private columnsOf(operation: string): Record<OutcomeColumn, number[]> {
    let columns = this.rows.get(operation);
    if (columns === undefined) {
      const zeros = () => new Array<number>(this.t.length).fill(0);
      columns = { ok: zeros(), error: zeros(), unavailable: zeros(), timeout: zeros() };
      this.rows.set(operation, columns);
    }
    return columns;
  }

  /** The series so far (columns of zeros left out, `ok` always there); undefined before the first second. */
  get series(): OutcomeSeconds | undefined {
    if (this.t.length === 0) return undefined;
    const rows: OutcomeRow[] = [];
    for (const [operation, columns] of this.rows) {
      const row: OutcomeRow = { operation, ok: [...columns.ok] };
      for (const column of ['error', 'unavailable', 'timeout'] as const)
        if (columns[column].some((n) => n > 0)) row[column] = [...columns[column]];
      rows.push(row);
    }
    return { t: [...this.t], rows };
  }
}

/** A row first seen at interval `index`: the intervals before it had no call of it. */
function emptyRow(name: string, index: number): OperationSeriesRow {
  const zeros = () => new Array<number>(index).fill(0);
  return {
    name,
    count: zeros(),
    ...(isOperationRow(name) ? { failed: zeros() } : {}),
    p50Us: zeros(),
    p99Us: zeros(),
    maxUs: zeros(),
    histograms: new Array<string>(index).fill(''),
  };
}
