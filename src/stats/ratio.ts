/**
 * The difference between two cells: the ratio of their medians (B over A) with a 95% confidence
 * interval, and a verdict that says "faster" or "slower" only when the interval excludes 1 and
 * the difference is at least a practical threshold; otherwise that no difference can be shown.
 * Ratios, not differences: stores differ by orders of magnitude and run-to-run noise is
 * multiplicative, so a ratio means the same at 100 and at 100,000 ops/s.
 *
 * - Both cells n ≥ 6: the distribution-free interval of Hodges–Lehmann for the shift of the
 *   logarithms (the interval R's `wilcox.test(log(b), log(a), conf.int = TRUE)` gives): the
 *   ratios b_j / a_i of every pair, sorted, cut at ranks from the exact Mann–Whitney
 *   distribution. It assumes only that the two cells' noise differs by a factor, not its shape.
 * - Otherwise (a side with 2 … 5 runs): Welch's t interval on the logarithms, exp(Δ ± t · se),
 *   assuming log-normal noise: with 3 runs against 3 no rank method can reach 95% (the
 *   Mann–Whitney test's smallest two-sided p is 0.1), so a rank method would answer every
 *   default comparison "cannot tell".
 * - A side with one run: no interval; the verdict says it cannot tell.
 *
 * Pure code, no I/O.
 */
import { mannWhitneyCdf, studentTQuantile } from './distributions.ts';
import { CONFIDENCE, DISTRIBUTION_FREE_MIN_N, mean, median, variance, type Interval, type Summary } from './summary.ts';

/** Which way is better: throughput is better higher, latency lower. */
export type Direction = 'higher-is-better' | 'lower-is-better';

/** The default practical threshold: a difference under 5% of A's median is never called one. */
export const DEFAULT_MIN_EFFECT = 0.05;

/**
 * - `faster` / `slower`: B against A, shown by this run (interval excludes 1, effect ≥ minEffect);
 * - `no difference`: no difference this run can show (the interval holds 1, or the difference is under minEffect);
 * - `cannot tell`: a side has a single run (or a figure of 0): there is no interval to judge by.
 */
export type ComparisonVerdict = 'faster' | 'slower' | 'no difference' | 'cannot tell';

export interface RatioComparison {
  /** median(B) / median(A); undefined when A's median is 0 or a side has no run. */
  ratio?: number;
  /** The ratio's 95% confidence interval. */
  interval?: Interval;
  /** The interval excludes 1. */
  significant: boolean;
  /** |ratio − 1|: how far apart, as a share of A's median. */
  effect?: number;
  verdict: ComparisonVerdict;
  /** Why it cannot tell, when it cannot. */
  reason?: string;
  n: [number, number];
}

export interface CompareOptions {
  direction: Direction;
  /** The practical threshold, a fraction (0.05 = 5%). */
  minEffect?: number;
}

/** Ranks by (m, n): a report compares the same run counts for every figure of every cell. */
const ranks = new Map<string, { k: number; coverage: number } | undefined>();

/** The 2.5% and 97.5% ranks of the sorted pairwise ratios, from U's exact distribution; undefined when out of reach. */
function hodgesLehmannRank(m: number, n: number): { k: number; coverage: number } | undefined {
  const key = `${m} ${n}`;
  if (!ranks.has(key)) ranks.set(key, countedRank(m, n));
  return ranks.get(key);
}

function countedRank(m: number, n: number): { k: number; coverage: number } | undefined {
  const cdf = mannWhitneyCdf(m, n);
  const tail = (1 - CONFIDENCE) / 2;
  if (cdf(0) > tail) return undefined;
  let k = 1;
  while (k + 1 <= (m * n) / 2 && cdf(k) <= tail) k += 1;
  return { k, coverage: 1 - 2 * cdf(k - 1) };
}

/** The interval of B/A from every pairwise ratio (both sides ≥ 6 runs, all positive). */
function hodgesLehmannInterval(a: readonly number[], b: readonly number[]): Interval | undefined {
  const rank = hodgesLehmannRank(a.length, b.length);
  if (!rank) return undefined;
  const logs: number[] = [];
  for (const x of a) for (const y of b) logs.push(Math.log(y) - Math.log(x));
  logs.sort((p, q) => p - q);
  return {
    low: Math.exp(logs[rank.k - 1]!),
    high: Math.exp(logs[logs.length - rank.k]!),
    method: 'hodges-lehmann',
    coverage: rank.coverage,
  };
}

/** Welch's interval of B/A on the logarithms (each side ≥ 2 runs, all positive). */
function welchLogInterval(a: readonly number[], b: readonly number[]): Interval {
  const la = a.map(Math.log);
  const lb = b.map(Math.log);
  const delta = mean(lb) - mean(la);
  const va = variance(la) / la.length;
  const vb = variance(lb) / lb.length;
  const se = Math.sqrt(va + vb);
  // Identical runs on both sides (a latency percentile can repeat at the histogram's resolution): the interval is the ratio.
  if (se === 0) return { low: b[0]! / a[0]!, high: b[0]! / a[0]!, method: 'welch-log-t', coverage: CONFIDENCE };
  const df = (va + vb) ** 2 / (va ** 2 / (la.length - 1) + vb ** 2 / (lb.length - 1));
  const half = studentTQuantile(1 - (1 - CONFIDENCE) / 2, df) * se;
  return { low: Math.exp(delta - half), high: Math.exp(delta + half), method: 'welch-log-t', coverage: CONFIDENCE };
}

/** The interval of median(B)/median(A), by the method the run counts allow. */
export function ratioInterval(a: readonly number[], b: readonly number[]): Interval | undefined {
  if (a.length < 2 || b.length < 2) return undefined;
  if (a.some((v) => !(v > 0)) || b.some((v) => !(v > 0))) return undefined;
  if (a.length >= DISTRIBUTION_FREE_MIN_N && b.length >= DISTRIBUTION_FREE_MIN_N) {
    const interval = hodgesLehmannInterval(a, b);
    if (interval) return interval;
  }
  return welchLogInterval(a, b);
}

function isSummary(x: readonly number[] | Summary): x is Summary {
  return !Array.isArray(x);
}

/** B against A: the ratio of medians, its interval and the verdict. */
export function compareSamples(
  a: readonly number[] | Summary,
  b: readonly number[] | Summary,
  options: CompareOptions,
): RatioComparison {
  const va = isSummary(a) ? a.values : a;
  const vb = isSummary(b) ? b.values : b;
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const n: [number, number] = [va.length, vb.length];
  if (va.length === 0 || vb.length === 0)
    return { significant: false, verdict: 'cannot tell', reason: 'no valid run on one side', n };
  const ma = median([...va].sort((x, y) => x - y));
  const mb = median([...vb].sort((x, y) => x - y));
  const ratio = ma > 0 ? mb / ma : undefined;
  const point = ratio !== undefined ? { ratio, effect: Math.abs(ratio - 1) } : {};
  if (va.length < 2 || vb.length < 2)
    return { ...point, significant: false, verdict: 'cannot tell', reason: 'one run cannot show a difference', n };
  const interval = ratioInterval(va, vb);
  if (!interval || ratio === undefined)
    return { ...point, significant: false, verdict: 'cannot tell', reason: 'a run measured 0', n };
  const significant = interval.low > 1 || interval.high < 1;
  // The point estimate on the side of 1 the interval lies on (the ratio of medians and the
  // Hodges–Lehmann interval can, rarely, disagree): a verdict needs both.
  const agrees = interval.low > 1 ? ratio > 1 : ratio < 1;
  const shown = significant && agrees && Math.abs(ratio - 1) >= minEffect;
  const better = options.direction === 'higher-is-better' ? ratio > 1 : ratio < 1;
  return {
    ratio,
    effect: Math.abs(ratio - 1),
    interval,
    significant,
    verdict: shown ? (better ? 'faster' : 'slower') : 'no difference',
    n,
  };
}
