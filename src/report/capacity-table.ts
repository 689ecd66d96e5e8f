/**
 * A capacity search as text: one line per store (the highest rate that held, the rate that failed
 * above it, the step size between them), then every step with its figures. The latencies are the
 * steps' `Intended-` percentiles from the one percentile function (capacity-curves.ts).
 */
import type { CapacityCurve, StepJudgment } from './capacity-curves.ts';

function n(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function ms(us: number): string {
  return (us / 1000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function table(header: string[], rows: string[][], numeric: number): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i >= numeric ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i >= numeric ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
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
  const summary = table(
    ['store', 'workload', 'budget', 'highest rate that held (ops/s)', 'failed at (ops/s)', 'step size', 'steps'],
    curves.map((c) => [
      c.store,
      c.workload,
      `${c.slo}, errors <= ${(c.errorBudget * 100).toLocaleString('en-US')}%`,
      capacityVerdict(c),
      c.lowestFailed !== undefined ? n(c.lowestFailed) : '',
      stepSize(c),
      String(c.steps.length),
    ]),
    3,
  );
  const steps = table(
    [
      'store',
      'step',
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
    2,
  );
  return `${summary}\n\n${steps}\n\nLatencies are the worst operation kind's, measured from each operation's intended start (coordinated omission corrected).\n`;
}

function stepRow(c: CapacityCurve, s: StepJudgment): string[] {
  const load =
    String(s.result.workload.properties['capacity.loadaverage'] ?? '')
      .split(' / ')[0]
      ?.split(' ')[0] ?? '';
  const held = !s.valid ? `INVALID: ${s.why[0]}` : s.held ? 'yes' : `no: ${s.why.join('; ')}`;
  return [
    c.store,
    String(s.step),
    n(s.targetOpsPerSec),
    n(s.achievedOpsPerSec),
    ms(s.worstUs['50']),
    ms(s.worstUs['99']),
    ms(s.worstUs['99.9']),
    `${(s.errorRate * 100).toFixed(2)}%`,
    load,
    held,
  ];
}
