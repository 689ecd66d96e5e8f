/**
 * docbench's runs in Carvalho et al. 2023's shapes: runtime per workload with 3 threads per store
 * (Tables 2, 4, 6), the total over workloads per thread count and record count (Tables 3, 5, 7),
 * the totals per store (Table 8), of workload E (Table 9) and of all but E (Table 10), and the
 * log-scale charts of those totals (Figures 6–8). Every figure is the mean of the repetitions,
 * as the paper's; a total adds the means, as the paper's do.
 */
import type { Result } from '../../results/schema.ts';
import type { ChartSpec } from '../../report/chart-spec.ts';
import { chartId } from '../../report/charts-throughput.ts';
import { contextLines } from '../../report/context.ts';
import type { FigureTable } from '../../report/html-page.ts';
import { distinct, runtimeSecondsOf, type Cell } from '../../report/groups.ts';
import { cellText, figure, notOkSuffix, present, runCells } from '../docbench-tables.ts';

const HERE = "this machine; the mean [min–max] of the repetitions (the paper's statistic: the mean of 3 runs)";
const WORKLOADS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((w) => `workload${w}`);

const meanRuntime = (cell: Cell) => runtimeSecondsOf(cell).mean;
const sorted = (values: (number | undefined)[]) =>
  distinct(values.filter((v): v is number => v !== undefined)).sort((a, b) => a - b);
const recordsLabel = (n: number) => `${n.toLocaleString('en-US')} records`;

interface Total {
  seconds: number;
  /** Cells (workload × records × threads) added. */
  cells: number;
  /** Some of the runs added had calls that were not OK (UNSUPPORTED, ERROR): not the store doing the work. */
  notOk: boolean;
}

/** The sum of the mean runtimes of the cells `keep` picks. */
function totalOf(cells: readonly Cell[], keep: (c: Cell) => boolean): Total | undefined {
  const picked = cells.filter(keep);
  if (picked.length === 0) return undefined;
  return {
    seconds: picked.reduce((s, c) => s + meanRuntime(c), 0),
    cells: picked.length,
    notOk: picked.some((c) => notOkSuffix(c) !== ''),
  };
}

/** A total as the paper prints it (seconds and minutes), with what it lacks: cells not run, runs not OK. */
function totalText(total: Total | undefined, expected: number): string {
  if (!total) return '';
  const lacks = [
    total.cells < expected ? `${total.cells} of ${expected} cells` : '',
    total.notOk ? 'some runs not OK' : '',
  ].filter(Boolean);
  return `${figure(total.seconds, 2)} s (${figure(total.seconds / 60, 2)} min)${lacks.length > 0 ? ` [${lacks.join('; ')}]` : ''}`;
}

/** The thread count the paper's per-workload tables use (3), or the middle one run. */
function tableThreads(cells: readonly Cell[]): number | undefined {
  const threads = sorted(cells.map((c) => c.threads));
  return threads.includes(3) ? 3 : threads[Math.floor(threads.length / 2)];
}

/** Tables 2, 4, 6 in shape: one per store, workloads × record counts at 3 threads, with the total. */
function perWorkloadTables(cells: readonly Cell[]): FigureTable[] {
  const threads = tableThreads(cells);
  const records = sorted(cells.map((c) => c.records));
  return distinct(cells.map((c) => c.series)).map((series) => {
    const mine = cells.filter((c) => c.series === series && c.threads === threads);
    const workloads = WORKLOADS.filter((w) => mine.some((c) => c.workload === w));
    const rows = workloads.map((w) => [
      w,
      ...records.map((n) => {
        const cell = mine.find((c) => c.workload === w && c.records === n);
        return cell ? cellText(cell, runtimeSecondsOf, 'mean', 2, 's') : '';
      }),
    ]);
    rows.push([
      'Total',
      ...records.map((n) =>
        totalText(
          totalOf(mine, (c) => c.records === n),
          WORKLOADS.length,
        ),
      ),
    ]);
    return {
      title: `docbench: runtime of ${series} with ${threads} threads (the shape of Tables 2, 4, 6)`,
      note: HERE,
      header: [series, ...records.map(recordsLabel)],
      rows,
    };
  });
}

/** Tables 3, 5, 7 in shape: one per store, the total over workloads per thread count and record count. */
function perThreadTables(cells: readonly Cell[]): FigureTable[] {
  const records = sorted(cells.map((c) => c.records));
  const threads = sorted(cells.map((c) => c.threads));
  return distinct(cells.map((c) => c.series)).map((series) => {
    const mine = cells.filter((c) => c.series === series);
    const rows = threads.map((t) => [
      `${t} Thread${t === 1 ? '' : 's'}`,
      ...records.map((n) =>
        totalText(
          totalOf(mine, (c) => c.threads === t && c.records === n),
          WORKLOADS.length,
        ),
      ),
    ]);
    rows.push([
      'Total',
      ...records.map((n) =>
        totalText(
          totalOf(mine, (c) => c.records === n),
          WORKLOADS.length * threads.length,
        ),
      ),
    ]);
    return {
      title: `docbench: runtime of ${series}, the sum over workloads (the shape of Tables 3, 5, 7)`,
      note: `${HERE}; a total adds the workloads' means, as the paper's do`,
      header: [series, ...records.map(recordsLabel)],
      rows,
    };
  });
}

/** Tables 8, 9, 10 in shape: per store, the total of everything, of workload E, of all but E. */
function storeTotals(cells: readonly Cell[]): FigureTable | undefined {
  const series = distinct(cells.map((c) => c.series));
  if (series.length === 0) return undefined;
  const runs = (s: string) => cells.filter((c) => c.series === s).length;
  // Every workload at every record count and thread count the run has.
  const grid = sorted(cells.map((c) => c.records)).length * sorted(cells.map((c) => c.threads)).length;
  const row = (label: string, keep: (c: Cell) => boolean, workloads: number) => [
    label,
    ...series.map((s) =>
      totalText(
        totalOf(cells, (c) => c.series === s && keep(c)),
        workloads * grid,
      ),
    ),
  ];
  return {
    title:
      'docbench: total runtime per store, of every workload, of workload E, and of all but E (the shape of Tables 8, 9, 10)',
    note: `${HERE}; each total adds the means of every record count and thread count run (${series.map((s) => `${s}: ${runs(s)} cells`).join('; ')})`,
    header: ['', ...series],
    rows: [
      row('Total (Table 8)', () => true, WORKLOADS.length),
      row('Workload E (Table 9)', (c) => c.workload === 'workloade', 1),
      row('All but E (Table 10)', (c) => c.workload !== 'workloade', WORKLOADS.length - 1),
    ],
  };
}

export function carvalhoFigures(results: readonly Result[]): FigureTable[] {
  const cells = runCells(results).filter((c) => WORKLOADS.includes(c.workload));
  return present([...perWorkloadTables(cells), ...perThreadTables(cells), storeTotals(cells)]);
}

/** A log-scale bar chart of totals: one bar per store at each category. */
function logBars(
  title: string,
  subtitle: string[],
  labels: string[],
  series: string[],
  value: (series: string, label: string) => number | undefined,
): ChartSpec {
  return {
    id: chartId('carvalho'),
    section: "Carvalho et al. 2023's charts, from this run",
    title,
    subtitle,
    type: 'bar',
    labels,
    x: { title: '', scale: 'category' },
    y: { title: 'runtime (s, log scale)', scale: 'logarithmic', format: 'seconds' },
    datasets: series.map((s) => ({
      label: s,
      data: labels.map((l) => {
        const v = value(s, l);
        return v === undefined ? null : Math.round(v * 100) / 100;
      }),
    })),
  };
}

/** Figures 6–8 in shape: log-scale totals per record count (all, E, all but E) and per thread count and record count. */
export function carvalhoCharts(results: readonly Result[]): ChartSpec[] {
  const cells = runCells(results).filter((c) => WORKLOADS.includes(c.workload));
  if (cells.length === 0) return [];
  const subtitle = [...contextLines(results), 'the sum of the mean runtimes, as the paper adds them'];
  const series = distinct(cells.map((c) => c.series));
  const records = sorted(cells.map((c) => c.records));
  const threads = sorted(cells.map((c) => c.threads));
  const byRecords = (keep: (c: Cell) => boolean) => (s: string, label: string) =>
    totalOf(cells, (c) => c.series === s && recordsLabel(c.records ?? 0) === label && keep(c))?.seconds;
  const labels = records.map(recordsLabel);
  const settings = records.flatMap((n) => threads.map((t) => `${recordsLabel(n)} · ${t} thread${t === 1 ? '' : 's'}`));
  return [
    logBars(
      'Total runtime per record count, every workload (Figure 6 in shape)',
      subtitle,
      labels,
      series,
      byRecords(() => true),
    ),
    logBars(
      'Total runtime of workload E per record count (Figure 7 in shape)',
      subtitle,
      labels,
      series,
      byRecords((c) => c.workload === 'workloade'),
    ),
    logBars(
      'Total runtime of all workloads but E per record count (Figure 8 in shape)',
      subtitle,
      labels,
      series,
      byRecords((c) => c.workload !== 'workloade'),
    ),
    logBars(
      'Total runtime per thread count and record count (Tables 3, 5, 7 in shape)',
      subtitle,
      settings,
      series,
      (s, label) =>
        totalOf(
          cells,
          (c) =>
            c.series === s &&
            `${recordsLabel(c.records ?? 0)} · ${c.threads} thread${c.threads === 1 ? '' : 's'}` === label,
        )?.seconds,
    ),
  ];
}
