import hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';

/**
 * Latency histograms in microseconds, as YCSB's `measurementtype=hdrhistogram` records them:
 * 3 significant digits, auto-resizing, plain JS arrays (no WebAssembly start-up, ~70 ns a record).
 */
export function newLatencyHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
}

/**
 * A histogram in HdrHistogram's standard compressed form (V2 encoding, deflated, base64), the
 * form HdrHistogram's own tools (Java, Go, Rust, JS) read: what result files carry, so results
 * of several processes or machines merge exactly.
 */
export function encodeHistogram(histogram: Histogram): string {
  return hdr.encodeIntoCompressedBase64(histogram);
}

/** Add an encoded histogram's counts into `into` (exact: bucket counts add up). */
export function addEncodedHistogram(into: Histogram, encoded: string): void {
  const decoded = hdr.decodeFromCompressedBase64(encoded, 32, false);
  into.add(decoded);
  decoded.destroy();
}

/**
 * The one definition of a latency percentile in docbench: HdrHistogram's `getValueAtPercentile`
 * (the highest value equivalent to the sample at that rank, what YCSB prints), 0 for an empty
 * histogram. Every figure a result file, the YCSB text or a report shows as a percentile comes
 * from here, over the row's histogram (or the union of several runs' histograms).
 */
export function valueAtPercentile(histogram: Histogram, percentile: number): number {
  return histogram.totalCount > 0 ? histogram.getValueAtPercentile(percentile) : 0;
}

/**
 * The largest and smallest recorded values as HdrHistogram reports them (Java's `getMaxValue()`
 * and `getMinNonZeroValue()`, which YCSB prints): the edges of their buckets. They depend only
 * on the bucket counts, so a histogram merged from several processes reports exactly what one
 * histogram of the same samples reports (the raw extremes would not survive encoding).
 */
export function maxOf(histogram: Histogram): number {
  return valueAtPercentile(histogram, 100);
}

export function minOf(histogram: Histogram): number {
  return valueAtPercentile(histogram, 0);
}

export type { Histogram };

/**
 * How many recorded values are at most `value` (each value as HdrHistogram reports it: the top of
 * its bucket), found by a binary search over ranks with `valueAtPercentile`, so a histogram's
 * bucket counts (the live metrics' `le` buckets) agree with its percentiles everywhere.
 */
export function countAtOrBelow(histogram: Histogram, value: number): number {
  const n = histogram.totalCount;
  if (n === 0) return 0;
  // The value at rank r (1 … n): half a rank below r, so float rounding never lands on r + 1.
  const at = (rank: number) => valueAtPercentile(histogram, (100 * (rank - 0.5)) / n);
  if (at(1) > value) return 0;
  if (at(n) <= value) return n;
  let low = 1;
  let high = n;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (at(middle) <= value) low = middle;
    else high = middle;
  }
  return low;
}
