/**
 * Latency percentiles as every report shows them. A row's percentile is read off its HDR
 * histogram with the one definition of a percentile (`valueAtPercentile`), over the union of the
 * histograms of every run given (repeated runs of a cell are added exactly), so a figure is the
 * same in the YCSB text, the JSON, the CSV, the tables and the charts. A row with no histogram (an
 * end-to-end k6 row: k6 computes its own percentiles over every sample; or a file written before
 * histograms were kept) shows the value the result stores, and only for a single run: stored
 * percentiles of several runs cannot be combined into a true one.
 */
import hdr from 'hdr-histogram-js';
import { valueAtPercentile, type Histogram } from '../measure/histogram.ts';
import type { Result } from '../results/schema.ts';
import { summarize, type Summary } from '../stats/summary.ts';

/** The percentiles the tables, CSV and charts show whatever `hdrhistogram.percentiles` lists. */
export const REPORTED_PERCENTILES = [50, 95, 99, 99.9] as const;

/** Decoded histograms by the joined encodings of their runs: a report asks for many percentiles of the same rows. */
const decoded = new Map<string, Histogram>();
const MAX_CACHED = 512;

function decode(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

/** The union of the encoded histograms (exact: bucket counts add up). */
function unionOf(encoded: readonly string[]): Histogram {
  const key = encoded.join('\n');
  let histogram = decoded.get(key);
  if (histogram === undefined) {
    histogram = decode(encoded[0]!);
    for (const more of encoded.slice(1)) {
      const other = decode(more);
      histogram.add(other);
      other.destroy();
    }
    if (decoded.size >= MAX_CACHED) {
      for (const h of decoded.values()) h.destroy();
      decoded.clear();
    }
    decoded.set(key, histogram);
  }
  return histogram;
}

/** The rows called `row` in the runs that recorded a latency for it. */
function rowsOf(runs: readonly Result[], row: string): Result['operations'] {
  return runs.flatMap((r) => r.operations.filter((o) => o.name === row && o.latency.operations > 0));
}

/**
 * The union histogram of a row over the runs, or undefined when no run recorded it or some run
 * recorded it without a histogram (its samples cannot be added in).
 */
export function rowHistogram(runs: readonly Result[], row: string): Histogram | undefined {
  const rows = rowsOf(runs, row);
  if (rows.length === 0 || rows.some((o) => o.histogram === undefined)) return undefined;
  return unionOf(rows.map((o) => o.histogram!));
}

/**
 * The `percentile` of a row's latency in µs over the runs, or undefined when it cannot be told
 * truly (no run recorded the row; several runs without histograms; a single run's stored
 * percentiles lack this one).
 */
export function latencyPercentile(runs: readonly Result[], row: string, percentile: number): number | undefined {
  const histogram = rowHistogram(runs, row);
  if (histogram !== undefined) return valueAtPercentile(histogram, percentile);
  const rows = rowsOf(runs, row);
  if (rows.length !== 1) return undefined;
  return rows[0]!.latency.percentilesUs[String(percentile)];
}

/**
 * The figure a comparison of repeated runs judges: each run's `percentile` of `row` read off its
 * own histogram (with the same function as above), summarized over the runs as a median with its
 * interval (stats/summary.ts). Not the pooled figure above: that one adds every run's samples up.
 * Runs that did not record the row are left out.
 */
export function percentileOverRepetitions(runs: readonly Result[], row: string, percentile: number): Summary {
  const values = runs
    .map((r) => latencyPercentile([r], row, percentile))
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  return summarize(values);
}
