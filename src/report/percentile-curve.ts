import { valueAtPercentile } from '../measure/histogram.ts';
import type { Result } from '../results/schema.ts';
import { REPORTED_PERCENTILES, rowHistogram } from './percentiles.ts';

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

/**
 * The latency percentile curve of one row, from the union of its histograms in `runs` (repeated
 * runs of a cell are added exactly: their curve is that of every sample). The percentiles the
 * tables show (p50, p95, p99, p99.9) are points of the curve too, so a tooltip at 99% shows the
 * tables' p99. Undefined when no run recorded the row with a histogram.
 */
export function percentileCurve(runs: readonly Result[], row: string): PercentilePoint[] | undefined {
  const histogram = rowHistogram(runs, row);
  if (histogram === undefined || histogram.totalCount === 0) return undefined;
  const percentiles = [...new Set([...curvePercentiles(histogram.totalCount), ...REPORTED_PERCENTILES])].sort(
    (a, b) => a - b,
  );
  return percentiles.map((percentile) => ({
    percentile,
    latencyUs: Math.max(1, valueAtPercentile(histogram, percentile)),
  }));
}
