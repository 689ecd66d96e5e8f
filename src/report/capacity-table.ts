/**
 * A capacity search as text: with repeated searches first one line per store (the median of the
 * searches' figures with their range, n, and whether they agree: capacity-spread.ts); then one
 * line per search (the highest rate that held, the rate that failed above it, the step size
 * between them), then every step with its figures, a retry marked by its try at the rate. The
 * latencies are the steps' `Intended-` percentiles from the one percentile function
 * (capacity-curves.ts).
 */
import type { CapacityCurve, StepJudgment } from './capacity-curves.ts';
import { capacityOverSearches, formatAgreement, formatSpread } from './capacity-spread.ts';

function n(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function ms(us: number): string {
  return (us / 1000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A Markdown table; the columns `right` says are right-aligned. */
function table(header: string[], rows: string[][], right: (column: number) => boolean): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (right(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/** Whether the curves hold more than one search of a store (`--repetitions`). */
export function repeated(curves: readonly CapacityCurve[]): boolean {
  return curves.some((c) => c.round !== undefined);
}

/** A search's name in a table: its store, and its round when the searches were repeated. */
export function searchName(c: CapacityCurve): string {
  return c.round !== undefined ? `${c.store} #${c.round}` : c.store;
}

/** Per store over its searches: the median [min–max], n, and whether they agree. */
export function spreadRows(curves: readonly CapacityCurve[]): string[][] {
  return capacityOverSearches(curves).map((g) => [
    g.store,
    g.workload,
    formatSpread(g.spread),
    String(g.spread.n),
    formatAgreement(g.spread),
  ]);
}

export const SPREAD_HEADER = ['store', 'workload', 'capacity (ops/s): median [min–max]', 'n', 'searches agree'];

/** Why a step held or not, and a step that was tried again saying so. */
export function heldText(s: StepJudgment, retried: boolean): string {
  if (!s.valid) return `INVALID: ${s.why[0]}`;
  if (s.held) return s.attempt > 1 ? 'yes (on a retry)' : 'yes';
  return `no${retried ? ', tried again' : ''}: ${s.why.join('; ')}`;
}

/** Whether the step after `s` in its search was a retry of its rate. */
export function wasRetried(c: CapacityCurve, s: StepJudgment): boolean {
  const next = c.steps[c.steps.indexOf(s) + 1];
  return next !== undefined && next.targetOpsPerSec === s.targetOpsPerSec;
}

/** What the search found for one store, in words. */
export function capacityVerdict(curve: CapacityCurve): string {
  if (curve.highestHeld === undefined) return curve.steps.some((s) => !s.valid) ? 'no valid step' : 'none held';
  if (curve.lowestFailed === undefined) return `≥ ${n(curve.highestHeld)} (the highest rate tried held)`;
  return `${n(curve.highestHeld)}`;
}

/** The gap between the highest held rate and the failure above it: the figure's step size. */
export function stepSize(curve: CapacityCurve): string {
  if (curve.highestHeld === undefined || curve.lowestFailed === undefined) return '';
  const gap = curve.lowestFailed - curve.highestHeld;
  return `${n(gap)} (${((gap / curve.highestHeld) * 100).toFixed(0)}%)`;
}

export function renderCapacityTable(curves: readonly CapacityCurve[]): string {
  if (curves.length === 0) return 'no capacity step was run\n';
  const several = repeated(curves);
  const spread = several
    ? `${table(SPREAD_HEADER, spreadRows(curves), (i) => i === 2 || i === 3)}\n\nA store's capacity over its searches: the median of each search's highest rate that held, [the lowest–the highest], over n searches; UNSTABLE when one search held at a rate another failed at (every try), so their figures differ by more than the search's step.\n\n`
    : '';
  const summary = table(
    [
      several ? 'search' : 'store',
      'workload',
      'budget',
      'highest rate that held (ops/s)',
      'failed at (ops/s)',
      'step size',
      'steps',
    ],
    curves.map((c) => [
      searchName(c),
      c.workload,
      `${c.slo}, errors <= ${(c.errorBudget * 100).toLocaleString('en-US')}%`,
      capacityVerdict(c),
      c.lowestFailed !== undefined ? n(c.lowestFailed) : '',
      stepSize(c),
      String(c.steps.length),
    ]),
    (i) => i >= 3,
  );
  const steps = table(
    [
      several ? 'search' : 'store',
      'step',
      'try',
      'offered (ops/s)',
      'done (ops/s)',
      'Intended p50 (ms)',
      'Intended p99 (ms)',
      'Intended p99.9 (ms)',
      'errors',
      'load avg',
      'held',
    ],
    curves.flatMap((c) => c.steps.map((s) => stepRow(c, s))),
    (i) => i >= 2,
  );
  const retried = curves.some((c) => c.steps.some((s) => s.attempt > 1))
    ? ' A step that did not hold was tried again at its rate (try 2) before the search bracketed below it: a rate failed only when every try failed.'
    : '';
  const once = several ? '' : ' One search per store: `--repetitions 3` repeats it and shows its spread.';
  return `${spread}${summary}\n\n${steps}\n\nLatencies are the worst operation kind's, measured from each operation's intended start (coordinated omission corrected).${retried}${once}\n`;
}

function stepRow(c: CapacityCurve, s: StepJudgment): string[] {
  const load =
    String(s.result.workload.properties['capacity.loadaverage'] ?? '')
      .split(' / ')[0]
      ?.split(' ')[0] ?? '';
  return [
    searchName(c),
    String(s.step),
    String(s.attempt),
    n(s.targetOpsPerSec),
    n(s.achievedOpsPerSec),
    ms(s.worstUs['50']),
    ms(s.worstUs['99']),
    ms(s.worstUs['99.9']),
    `${(s.errorRate * 100).toFixed(2)}%`,
    load,
    heldText(s, wasRetried(c, s)),
  ];
}
