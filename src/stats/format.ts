/**
 * The one way every output writes a figure over repetitions, "median [low, high] (n=…, CoV …%)",
 * a ratio "0.62× [0.55, 0.70]" and a verdict, so the text table, the Markdown, the HTML report
 * and `docbench diff` say the same thing in the same words. A single run is written as the bare
 * figure, exactly as before repetitions existed.
 */
import type { ComparisonVerdict, RatioComparison } from './ratio.ts';
import type { Summary } from './summary.ts';

export function formatNumber(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export interface SummaryFormat {
  /** Decimals of the figure and its interval. */
  digits?: number;
  /** Leave out "(n=…, CoV …%)" (a table that says n once per row, in another column). */
  brief?: boolean;
}

/** `12,345 [11,900, 12,800] (n=3, CoV 4.2%)`; a single run: `12,345`; no run: ''. */
export function formatSummary(s: Summary, format: SummaryFormat = {}): string {
  const digits = format.digits ?? 0;
  if (s.n === 0) return '';
  const centre = formatNumber(s.median, digits);
  if (s.n === 1) return centre;
  const interval = s.interval
    ? ` [${formatNumber(s.interval.low, digits)}, ${formatNumber(s.interval.high, digits)}]`
    : '';
  if (format.brief) return `${centre}${interval}`;
  const cov = s.cov !== undefined ? `, CoV ${formatPercent(s.cov)}` : '';
  return `${centre}${interval} (n=${s.n}${cov})`;
}

/** 0.042 -> `4.2%`. */
export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

function formatRatioValue(ratio: number): string {
  return ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2);
}

/** `0.62× [0.55, 0.70]`; without an interval `0.62×`; without a ratio ''. */
export function formatRatio(c: RatioComparison): string {
  if (c.ratio === undefined) return '';
  const interval = c.interval ? ` [${formatRatioValue(c.interval.low)}, ${formatRatioValue(c.interval.high)}]` : '';
  return `${formatRatioValue(c.ratio)}×${interval}`;
}

const VERDICT_WORDS: Record<ComparisonVerdict, string> = {
  faster: 'faster',
  slower: 'slower',
  'no difference': 'no difference this run can show',
  'cannot tell': 'cannot tell',
};

/** `faster`, `slower`, `no difference this run can show`, `cannot tell: one run cannot show a difference`. */
export function formatVerdict(c: RatioComparison): string {
  return c.verdict === 'cannot tell' && c.reason ? `cannot tell: ${c.reason}` : VERDICT_WORDS[c.verdict];
}

/** The note every output carries when no cell was repeated. */
export const ONE_RUN_NOTE =
  'One run per cell: a difference between these figures may be noise, and one run cannot show whether it is; repeat the runs (--repetitions 3 or more) for intervals and verdicts (docs/statistics.md).';
