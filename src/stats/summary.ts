/**
 * One figure measured over repetitions (a cell's throughput, or one latency percentile, each
 * repetition's from its own run): the median, a 95% confidence interval for it, n and the
 * coefficient of variation. The method and why are in docs/statistics.md; in short:
 *
 * - n ≥ 6: the distribution-free interval of order statistics [x(k), x(n−k+1)], k the largest
 *   for which it still covers the median with at least 95% (binomial(n, ½); n = 6: [min, max]
 *   at 96.9%). No assumption about the noise's shape.
 * - 2 ≤ n ≤ 5: no order-statistic interval reaches 95% (n = 5: [min, max] covers 93.75%), so
 *   the interval assumes run-to-run noise that is log-normal (multiplicative, skewed towards
 *   slow runs) and is Student's t on the logarithms: exp(mean ± t(0.975, n−1) · sd / √n), an
 *   interval for the median exp(μ) of that log-normal.
 * - n = 1: no interval. One run says nothing about its own noise.
 *
 * Pure code, no I/O.
 */
import { binomialHalfCdf, studentTQuantile } from './distributions.ts';

/** The confidence every interval is computed at. */
export const CONFIDENCE = 0.95;

/** Fewest runs whose order statistics give a 95% interval for the median (n = 6: [min, max] covers 96.9%). */
export const DISTRIBUTION_FREE_MIN_N = 6;

/**
 * How an interval was computed:
 * - `order-statistics`: a median's distribution-free interval (n ≥ 6);
 * - `log-t`: a median's interval assuming log-normal noise (2 ≤ n ≤ 5);
 * - `hodges-lehmann`: a ratio's distribution-free interval from the Mann–Whitney distribution
 *   (both sides n ≥ 6), assuming only that the two differ by a factor;
 * - `welch-log-t`: a ratio's interval assuming log-normal noise (Welch's t on the logarithms).
 */
export type IntervalMethod = 'order-statistics' | 'log-t' | 'hodges-lehmann' | 'welch-log-t';

export interface Interval {
  low: number;
  high: number;
  method: IntervalMethod;
  /**
   * The probability the interval covers the true value: exact for the distribution-free methods
   * (at least 0.95: order statistics move in steps), 0.95 for the t intervals when their
   * assumption holds.
   */
  coverage: number;
}

/**
 * A figure over repetitions. Every output renders it with `formatSummary` (stats/format.ts).
 * Which figure it is (a cell's throughput; the median over repetitions of each repetition's own
 * percentile, not the percentile of the pooled histogram) is said where it is built
 * (report/cell-statistics.ts).
 */
export interface Summary {
  /** Each repetition's figure, in the order given. */
  values: number[];
  n: number;
  /** The middle value (the mean of the two middle ones for an even n); 0 when n = 0. */
  median: number;
  min: number;
  max: number;
  /** Coefficient of variation: the sample standard deviation over the mean (n ≥ 2). */
  cov?: number;
  /** The 95% confidence interval of the median (n ≥ 2 and every value positive). */
  interval?: Interval;
  /** Why there is no interval, when n ≥ 2 and there is none. */
  noInterval?: string;
}

export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const middle = Math.floor(n / 2);
  return n % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The sample variance (n − 1 in the denominator); 0 for fewer than two values. */
export function variance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
}

/**
 * The order-statistic interval's k for n runs: the largest k ≥ 1 with P(Bin(n, ½) ≤ k − 1) ≤ 2.5%,
 * or undefined when even [min, max] covers less than 95% (n ≤ 5).
 */
export function orderStatisticRank(n: number): number | undefined {
  const tail = (1 - CONFIDENCE) / 2;
  if (binomialHalfCdf(0, n) > tail) return undefined;
  let k = 1;
  while (k + 1 <= n / 2 && binomialHalfCdf(k, n) <= tail) k += 1;
  return k;
}

/** The interval a median of `sorted` (ascending) gets at n ≥ 2, or undefined for a log scale with a figure ≤ 0. */
function medianInterval(sorted: readonly number[]): Interval | undefined {
  const n = sorted.length;
  const k = n >= DISTRIBUTION_FREE_MIN_N ? orderStatisticRank(n) : undefined;
  if (k !== undefined)
    return {
      low: sorted[k - 1]!,
      high: sorted[n - k]!,
      method: 'order-statistics',
      coverage: 1 - 2 * binomialHalfCdf(k - 1, n),
    };
  if (sorted[0]! <= 0) return undefined;
  // Identical runs (a latency percentile can repeat at the histogram's resolution): the interval is the figure.
  if (sorted[0] === sorted[n - 1]) return { low: sorted[0]!, high: sorted[0]!, method: 'log-t', coverage: CONFIDENCE };
  const logs = sorted.map(Math.log);
  const centre = mean(logs);
  const half = (studentTQuantile(1 - (1 - CONFIDENCE) / 2, n - 1) * Math.sqrt(variance(logs))) / Math.sqrt(n);
  return { low: Math.exp(centre - half), high: Math.exp(centre + half), method: 'log-t', coverage: CONFIDENCE };
}

/** The summary of one figure over repetitions (values in any order; NaN and infinities are the caller's to leave out). */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { values: [], n: 0, median: 0, min: 0, max: 0 };
  const summary: Summary = { values: [...values], n, median: median(sorted), min: sorted[0]!, max: sorted[n - 1]! };
  if (n < 2) return summary;
  const m = mean(sorted);
  if (m > 0) summary.cov = Math.sqrt(variance(sorted)) / m;
  const interval = medianInterval(sorted);
  if (interval) summary.interval = interval;
  else summary.noInterval = 'a run measured 0, and below 6 runs the interval is taken on a log scale';
  return summary;
}

/**
 * How precise a median is: the interval's larger half-width as a share of the median (0.05: within
 * ±5%), what `--repetitions auto` adds rounds until; undefined without an interval (n < 2).
 */
export function relativePrecision(s: Summary): number | undefined {
  if (!s.interval || s.median <= 0) return undefined;
  return Math.max(s.interval.high - s.median, s.median - s.interval.low) / s.median;
}
