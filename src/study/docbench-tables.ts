/**
 * docbench's figures in the shapes the studies publish, built from results through the report's
 * own grouping (cells of repeated runs) and statistics, so every table reads the same figures
 * the rest of the report shows. Each table says which statistic it shows: the paper's mean where
 * the paper averaged, with [min–max] over the repetitions beside it; else docbench's median, with
 * its 95% interval from the one formatter (src/stats/format.ts) where the cell was repeated.
 */
import type { Result } from '../results/schema.ts';
import type { FigureTable } from '../report/html-page.ts';
import { cellsOf, distinct, runtimeSecondsOf, throughputOf, type Cell, type Spread } from '../report/groups.ts';
import { spreadText } from '../report/html-tables.ts';
import { isValid, verdictMark, verdictOf } from '../results/verdict.ts';
import { formatSummary } from '../stats/format.ts';
import { summarize } from '../stats/summary.ts';

export type Measure = (cell: Cell) => Spread;
export type Statistic = 'median' | 'mean';

export const runtimeOf: Measure = runtimeSecondsOf;
export const throughput: Measure = throughputOf;

/** The run-phase cells of the results, in the order they came. */
export function runCells(results: readonly Result[]): Cell[] {
  return cellsOf(results.filter((r) => r.phase === 'run'));
}

/**
 * A cell's figure as a table shows it: the mean [min–max], or the median [95% CI], with its unit,
 * and how much of it was not OK.
 */
export function cellText(all: Cell, measure: Measure, statistic: Statistic, digits = 2, unit = ''): string {
  // Figures of the valid runs only: a cell without any is marked INVALID, not given a figure.
  const cell = { ...all, runs: all.runs.filter(isValid) };
  if (cell.runs.length === 0) return `INVALID: ${verdictMark(verdictOf(all.runs[0]!)).replace(/^INVALID: /, '')}`;
  const dropped = all.runs.length - cell.runs.length;
  // A median over repetitions says how far it can be trusted: each run's own figure, summarized.
  const centre =
    statistic === 'median' && cell.runs.length > 1
      ? formatSummary(summarize(cell.runs.map((r) => measure({ ...cell, runs: [r] }).median)), { digits, brief: true })
      : spreadText(measure(cell), digits, statistic);
  return `${centre}${unit ? ` ${unit}` : ''}${notOkSuffix(cell)}${dropped > 0 ? ` (${dropped} invalid run${dropped === 1 ? '' : 's'} left out)` : ''}`;
}

/**
 * Rows: workloads; columns: each store at each value of `column` (records or threads); cells:
 * the measure over repetitions as cellText writes it.
 */
export function pivotTable(
  results: readonly Result[],
  title: string,
  note: string,
  measure: Measure,
  column: 'records' | 'threads',
  statistic: Statistic,
  keep: (cell: Cell) => boolean = () => true,
  digits = 2,
): FigureTable | undefined {
  const cells = runCells(results).filter(keep);
  if (cells.length === 0) return undefined;
  const values = distinct(cells.map((c) => c[column])).sort((a, b) => (a ?? 0) - (b ?? 0));
  const series = distinct(cells.map((c) => c.series));
  const columns = series.flatMap((s) => values.map((v) => ({ s, v })));
  const header = ['workload', ...columns.map(({ s, v }) => `${s} · ${v?.toLocaleString('en-US') ?? '?'} ${column}`)];
  const rows = distinct(cells.map((c) => c.workload)).map((w) => [
    w,
    ...columns.map(({ s, v }) => {
      const cell = cells.find((c) => c.workload === w && c.series === s && c[column] === v);
      return cell ? cellText(cell, measure, statistic, digits) : '';
    }),
  ]);
  return { title, note, header, rows };
}

/** A figure made of failed calls is not a figure of the store doing the work: say so in the cell. */
export function notOkSuffix(cell: Cell): string {
  const notOk = cell.runs.reduce(
    (n, r) =>
      n +
      Object.entries(r.returns)
        .filter(([s]) => s !== 'OK')
        .reduce((m, [, k]) => m + (k ?? 0), 0),
    0,
  );
  const all = cell.runs.reduce((n, r) => n + Object.values(r.returns).reduce((m, k) => m + (k ?? 0), 0), 0);
  const percent = Math.round((notOk / Math.max(1, all)) * 100);
  return notOk > 0 ? ` (${percent > 0 ? `${percent}%` : '<1%'} not OK)` : '';
}

/** Load results per store and record count: time, rate, one row each (a load is one run). */
export function loadCells(results: readonly Result[], keep: (r: Result) => boolean = () => true): Cell[] {
  return cellsOf(results.filter((r) => r.phase === 'load' && keep(r))).sort(
    (a, b) => a.series.localeCompare(b.series) || (a.records ?? 0) - (b.records ?? 0),
  );
}

/** Load time (s) and rate per store and record count. */
export function loadTable(
  results: readonly Result[],
  title: string,
  note: string,
  keep: (r: Result) => boolean = () => true,
): FigureTable | undefined {
  const cells = loadCells(results, keep);
  if (cells.length === 0) return undefined;
  const rows = cells.map((c) => [
    c.series,
    c.records?.toLocaleString('en-US') ?? '',
    String(c.runs.length),
    spreadText(runtimeSecondsOf(c), 2, 'mean'),
    spreadText(throughputOf(c), 0, 'mean'),
  ]);
  return {
    title,
    note,
    header: ['store', 'records', 'loads', 'load time s (mean [min–max])', 'records/s (mean [min–max])'],
    rows,
  };
}

/** A figure with its unit for a table cell, or '' when there is none. */
export function figure(value: number | undefined, digits = 2): string {
  return value === undefined || !Number.isFinite(value)
    ? ''
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function present(tables: readonly (FigureTable | undefined)[]): FigureTable[] {
  return tables.filter((t): t is FigureTable => t !== undefined);
}
