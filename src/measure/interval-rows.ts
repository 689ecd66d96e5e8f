/**
 * What every latency row recorded over a stretch of a run (a second, a status interval), and the
 * outcomes each operation counted in it: the per-operation time series, the HDR interval logs,
 * the live metrics and the capacity search's early stop are all read from it. Filled from the
 * measurements once a second (never per operation), and from other processes in HdrHistogram's
 * standard encoding, so what several processes recorded adds up exactly.
 */
import { addEncodedHistogram, encodeHistogram, newLatencyHistogram, type Histogram } from './histogram.ts';
import type { Status } from './status.ts';

/** Rows as they cross threads: each non-empty row's histogram encoded, the counts as plain objects. */
export interface EncodedRows {
  rows: { name: string; histogram: string }[];
  counts: { operation: string; returns: Partial<Record<Status, number>> }[];
}

export class IntervalRows {
  /** Latency rows (`READ`, `Intended-READ`, `READ-FAILED`, …) by name. */
  readonly histograms = new Map<string, Histogram>();
  /** Outcome counts per operation (`READ`: OK, NOT_FOUND, ERROR, …). */
  readonly counts = new Map<string, Map<Status, number>>();

  /** The row's histogram, made empty at first use (to add into). */
  histogramOf(name: string): Histogram {
    let histogram = this.histograms.get(name);
    if (histogram === undefined) {
      histogram = newLatencyHistogram();
      this.histograms.set(name, histogram);
    }
    return histogram;
  }

  addCount(operation: string, status: Status, n: number): void {
    if (n === 0) return;
    let counts = this.counts.get(operation);
    if (counts === undefined) {
      counts = new Map();
      this.counts.set(operation, counts);
    }
    counts.set(status, (counts.get(status) ?? 0) + n);
  }

  /** Add another stretch's rows and counts into these. */
  add(other: IntervalRows): void {
    for (const [name, histogram] of other.histograms)
      if (histogram.totalCount > 0) this.histogramOf(name).add(histogram);
    for (const [operation, counts] of other.counts)
      for (const [status, n] of counts) this.addCount(operation, status, n);
  }

  /** Add rows another thread encoded. */
  addEncoded(encoded: EncodedRows): void {
    for (const row of encoded.rows) addEncodedHistogram(this.histogramOf(row.name), row.histogram);
    for (const { operation, returns } of encoded.counts)
      for (const [status, n] of Object.entries(returns) as [Status, number][]) this.addCount(operation, status, n);
  }

  encode(): EncodedRows {
    const rows = [...this.histograms]
      .filter(([, h]) => h.totalCount > 0)
      .map(([name, h]) => ({ name, histogram: encodeHistogram(h) }));
    const counts = [...this.counts].map(([operation, c]) => ({
      operation,
      returns: Object.fromEntries(c) as Partial<Record<Status, number>>,
    }));
    return { rows, counts };
  }

  /** Calls of one operation with this status in the stretch. */
  countOf(operation: string, status: Status): number {
    return this.counts.get(operation)?.get(status) ?? 0;
  }

  get empty(): boolean {
    for (const h of this.histograms.values()) if (h.totalCount > 0) return false;
    return this.counts.size === 0;
  }

  /** Empty every row (the histograms are kept, to be filled again) and the counts. */
  clear(): void {
    for (const h of this.histograms.values()) h.reset();
    this.counts.clear();
  }
}
