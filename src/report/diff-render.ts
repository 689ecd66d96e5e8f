/**
 * A diff (diff.ts) as a person reads it (a Markdown table and a closing verdict, on stdout and
 * in the report) and as a pipeline reads it (JSON), with the figures written by the one
 * formatter (stats/format.ts).
 */
import { formatPercent, formatRatio, formatSummary, formatVerdict } from '../stats/format.ts';
import type { DiffReport, DiffRow } from './diff.ts';
import { escapeHtml, htmlTable } from './html-tables.ts';
import { markdownTable } from './markdown.ts';

export const DIFF_HEADER = ['workload', 'store', 'figure', 'BASE', 'NEW', 'NEW/BASE [95% CI]', 'verdict'] as const;

function figureText(r: DiffRow): string {
  return r.unit === 'ops/s' ? 'ops/s' : `${r.figure} (us)`;
}

function verdictText(r: DiffRow, maxRegression: number): string {
  const verdict = formatVerdict(r.comparison);
  return r.regression ? `${verdict}: REGRESSION (${formatPercent(maxRegression)} or more)` : verdict;
}

export function diffRows(report: DiffReport): string[][] {
  // The setting is said only where a workload ran in several (a sweep's records or threads).
  const settings = new Map<string, Set<string>>();
  for (const r of report.rows) settings.set(r.workload, (settings.get(r.workload) ?? new Set()).add(r.setting));
  return report.rows.map((r) => [
    `${r.phase === 'load' ? 'load ' : ''}${r.workload}${r.setting && settings.get(r.workload)!.size > 1 ? ` (${r.setting})` : ''}`,
    r.series,
    figureText(r),
    formatSummary(r.base),
    formatSummary(r.new),
    formatRatio(r.comparison),
    `${verdictText(r, report.maxRegression)}${r.note ? ` (${r.note})` : ''}`,
  ]);
}

/** The closing lines: what regressed (or that nothing did), the cells only one side has, and what one run cannot show. */
export function diffSummaryLines(report: DiffReport): string[] {
  const lines: string[] = [];
  const threshold = formatPercent(report.maxRegression);
  for (const name of report.invalidInNew)
    lines.push(`REGRESSION: ${name} has no valid run in NEW (every run INVALID), and had in BASE`);
  for (const r of report.rows.filter((x) => x.regression))
    lines.push(
      `REGRESSION: ${r.workload} on ${r.series}, ${r.unit === 'ops/s' ? 'throughput' : r.figure} ${formatRatio(r.comparison)} of BASE: worse by ${formatPercent(r.comparison.effect ?? 0)}, beyond ${threshold}`,
    );
  if (report.onlyInBase.length > 0) lines.push(`only in BASE (not compared): ${report.onlyInBase.join('; ')}`);
  if (report.onlyInNew.length > 0) lines.push(`only in NEW (not compared): ${report.onlyInNew.join('; ')}`);
  if (report.cannotTell > 0)
    lines.push(
      `${report.cannotTell} of ${report.rows.length} figures cannot be judged: one run on a side cannot show a difference; run both sides with --repetitions 3 or more.`,
    );
  lines.push(
    report.regressions > 0
      ? `${report.regressions} regression${report.regressions === 1 ? '' : 's'} of ${threshold} or more that these runs show.`
      : `No regression of ${threshold} or more that these runs can show (${report.rows.length} figures compared; a verdict needs the 95% interval to exclude 1 and a difference of at least ${formatPercent(report.minEffect)}).`,
  );
  return lines;
}

/** The table and the closing lines, in Markdown. */
export function renderDiff(report: DiffReport): string {
  const header = [...DIFF_HEADER];
  const table = markdownTable(
    header,
    diffRows(report),
    header.map((_, i) => (i >= 3 && i <= 5 ? 'right' : 'left')),
  );
  return `${table}\n${diffSummaryLines(report).join('\n')}\n`;
}

/** The report's section: the same table and lines in HTML. */
export function diffHtml(report: DiffReport): string {
  const lines = diffSummaryLines(report)
    .map((line) => `<p${line.startsWith('REGRESSION') ? ' class="invalid"' : ''}>${escapeHtml(line)}</p>`)
    .join('');
  return `${htmlTable([...DIFF_HEADER], diffRows(report), 3)}${lines}`;
}

/** The diff as a pipeline reads it: every row with its samples, interval and verdict, and the exit status's reason. */
export function diffJson(report: DiffReport): object {
  return {
    minEffect: report.minEffect,
    maxRegression: report.maxRegression,
    regressions: report.regressions,
    regressed: report.regressions > 0,
    invalidInNew: report.invalidInNew,
    onlyInBase: report.onlyInBase,
    onlyInNew: report.onlyInNew,
    cannotTell: report.cannotTell,
    rows: report.rows,
  };
}
