/**
 * docbench's figures in the shapes the studies publish: runtime and throughput per workload and
 * store (Carvalho et al. 2023 Tables 2–7), per thread count (Altoros 2022, DZone 2016), per record
 * count (Tang & Fan 2016), and the persons figures (Henricsson 2011).
 */
import type { Result } from '../results/schema.ts';
import type { FigureTable } from '../report/html-page.ts';
import { cellsOf, distinct, runtimeSecondsOf, spreadOf, throughputOf, type Cell, type Spread } from '../report/groups.ts';
import { spreadText } from '../report/html-tables.ts';
import { isValid, verdictMark, verdictOf } from '../results/verdict.ts';

type Measure = (cell: Cell) => Spread;

export const runtimeOf: Measure = runtimeSecondsOf;
export const throughput: Measure = throughputOf;

/**
 * Rows: workloads; columns: each store at each value of `column` (records or threads);
 * cells: the median [min–max] of the measure over repetitions.
 */
export function pivotTable(results: readonly Result[], title: string, note: string, measure: Measure, column: 'records' | 'threads', keep: (cell: Cell) => boolean = () => true, digits = 2): FigureTable | undefined {
  const cells = cellsOf(results.filter((r) => r.phase === 'run')).filter(keep);
  if (cells.length === 0) return undefined;
  const values = distinct(cells.map((c) => c[column])).sort((a, b) => (a ?? 0) - (b ?? 0));
  const series = distinct(cells.map((c) => c.series));
  const columns = series.flatMap((s) => values.map((v) => ({ s, v })));
  const header = ['workload', ...columns.map(({ s, v }) => `${s} · ${v?.toLocaleString('en-US') ?? '?'} ${column}`)];
  const rows = distinct(cells.map((c) => c.workload)).map((w) => [
    w,
    ...columns.map(({ s, v }) => {
      const cell = cells.find((c) => c.workload === w && c.series === s && c[column] === v);
      return cell ? figureText(cell, measure, digits) : '';
    }),
  ]);
  return { title, note, header, rows };
}

/** The measure over the cell's valid runs; a cell without any is marked INVALID, not given a figure. */
function figureText(all: Cell, measure: Measure, digits: number): string {
  const cell = { ...all, runs: all.runs.filter(isValid) };
  if (cell.runs.length === 0) return `INVALID: ${verdictMark(verdictOf(all.runs[0]!)).replace(/^INVALID: /, '')}`;
  const dropped = all.runs.length - cell.runs.length;
  return `${spreadText(measure(cell), digits)}${notOkSuffix(cell)}${dropped > 0 ? ` (${dropped} invalid run${dropped === 1 ? '' : 's'} left out)` : ''}`;
}

/** A figure made of failed calls is not a figure of the store doing the work: say so in the cell. */
function notOkSuffix(cell: Cell): string {
  const notOk = cell.runs.reduce((n, r) => n + Object.entries(r.returns).filter(([s]) => s !== 'OK').reduce((m, [, k]) => m + (k ?? 0), 0), 0);
  const all = cell.runs.reduce((n, r) => n + Object.values(r.returns).reduce((m, k) => m + (k ?? 0), 0), 0);
  const percent = Math.round((notOk / Math.max(1, all)) * 100);
  return notOk > 0 ? ` (${percent > 0 ? `${percent}%` : '<1%'} not OK)` : '';
}

/** Load time (s) and rate per store and record count, from the load results. */
export function loadTable(results: readonly Result[], title: string, note: string): FigureTable | undefined {
  const cells = cellsOf(results.filter((r) => r.phase === 'load'));
  if (cells.length === 0) return undefined;
  const rows = cells
    .sort((a, b) => a.series.localeCompare(b.series) || (a.records ?? 0) - (b.records ?? 0))
    .map((c) => [c.series, c.records?.toLocaleString('en-US') ?? '', String(c.runs.length), spreadText(runtimeSecondsOf(c), 2), spreadText(throughputOf(c))]);
  return { title, note, header: ['store', 'records', 'loads', 'load time s', 'records/s'], rows };
}

/** Persons (Henricsson 2011): insert time, size on disk, and Q1–Q5 mean latency per store and size. */
export function personsTable(results: readonly Result[]): FigureTable | undefined {
  const runs = results.filter((r) => r.kind === 'persons' && r.phase === 'run');
  if (runs.length === 0) return undefined;
  const loads = results.filter((r) => r.kind === 'persons' && r.phase === 'load');
  const queries = ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'];
  const rows = runs.map((r) => {
    const load = loads.find((l) => l.store.name === r.store.name && l.workload.name === r.workload.name);
    const queryMs = queries.map((q) => {
      const ops = r.operations.filter((o) => o.name.endsWith(`:${q}`) || o.name === q);
      const mean = ops.length > 0 ? spreadOf(ops.map((o) => o.latency.averageUs / 1000)).median : undefined;
      return mean === undefined ? '' : mean.toFixed(mean < 10 ? 2 : 0);
    });
    return [
      `${r.store.name}${r.store.standIn ? ` (stand-in: ${r.store.standIn.name})` : ''}`,
      String(r.workload.properties.size ?? ''),
      load ? (load.overall.runtimeMs / 1000).toFixed(2) : '',
      r.store.diskBytes !== undefined ? (r.store.diskBytes / 2 ** 20).toFixed(2) : '',
      ...queryMs,
    ];
  });
  return {
    title: "docbench: persons inserts, size on disk, Q1–Q5 (this machine)",
    note: 'Insert time of the whole dataset, size the store reports after loading, and the mean latency of each query over its repetitions (every answer checked against the oracle).',
    header: ['store', 'documents', 'insert s', 'size MiB', ...queries.map((q) => `${q} mean ms`)],
    rows,
  };
}

export function present(tables: readonly (FigureTable | undefined)[]): FigureTable[] {
  return tables.filter((t): t is FigureTable => t !== undefined);
}
