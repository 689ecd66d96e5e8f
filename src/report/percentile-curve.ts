import hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';
import type { Result } from '../results/schema.ts';

/** One point of a latency percentile curve. */
export interface PercentilePoint {
  percentile: number;
  latencyUs: number;
}

/**
 * Percentiles of a curve: the body at 10% steps, then the tail in halving steps (90, 95, 97.5 …
 * 99.9 …), as HdrHistogram's own percentile distributions walk it, up to where a histogram of
 * `count` samples still has a sample beyond the percentile, and then 100 (the maximum).
 */
export function curvePercentiles(count: number): number[] {
  const out = [0, 10, 20, 30, 40, 50, 60, 70, 80];
  for (let tail = 20; count * (1 / tail) * 100 >= 100 && tail <= 2 ** 20; tail *= 2) out.push(100 - 200 / tail);
  out.push(100);
  return out;
}

function decode(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

/**
 * The latency percentile curve of one row, from the union of its histograms in `runs` (repeated
 * runs of a cell are added exactly: their curve is that of every sample). Undefined when no run
 * recorded the row.
 */
export function percentileCurve(runs: readonly Result[], row: string): PercentilePoint[] | undefined {
  const encoded = runs.flatMap((r) => r.operations.filter((o) => o.name === row && o.histogram !== undefined).map((o) => o.histogram!));
  if (encoded.length === 0) return undefined;
  const histogram = decode(encoded[0]!);
  for (const more of encoded.slice(1)) {
    const other = decode(more);
    histogram.add(other);
    other.destroy();
  }
  try {
    if (histogram.totalCount === 0) return undefined;
    return curvePercentiles(histogram.totalCount).map((percentile) => ({ percentile, latencyUs: Math.max(1, histogram.getValueAtPercentile(percentile)) }));
  } finally {
    histogram.destroy();
  }
}
