import type { Result } from '../results/schema.ts';
import type { ChartDataset, ChartSpec } from './chart-spec.ts';
import { captionOf } from './context.ts';
import { summarize, type Summary } from '../stats/summary.ts';
import { cellsOf, distinct, repetitionOf, type Cell } from './groups.ts';

/** A (records, threads) setting: what a sweep varies besides store and workload. */
export function settingLabel(records: number | undefined, threads: number | undefined): string {
  const parts = [];
  if (records !== undefined) parts.push(`${records.toLocaleString('en-US')} records`);
  if (threads !== undefined) parts.push(`${threads} thread${threads === 1 ? '' : 's'}`);
  return parts.join(', ');
}

function runsOf(cells: readonly Cell[]): Result[] {
  return cells.flatMap((c) => c.runs);
}

/** A cell's throughput over its repetitions (the charts are given valid runs only). */
function throughputSummary(cell: Cell): Summary {
  return summarize(cell.runs.map((r) => r.overall.throughputOpsPerSec));
}

/**
 * The whiskers of points that are medians of repetitions: each one's 95% interval, null where a
 * point has none; undefined when no point has one (nothing to draw).
 */
export function intervalWhiskers(
  summaries: readonly (Summary | undefined)[],
  scale: (v: number) => number = round,
): Pick<ChartDataset, 'ranges'> {
  if (!summaries.some((s) => s?.interval !== undefined)) return {};
  return {
    ranges: summaries.map((s) =>
      s?.interval ? ([scale(s.interval.low), scale(s.interval.high)] as [number, number]) : null,
    ),
  };
}

function bars(
  series: readonly string[],
  labels: readonly string[],
  cells: readonly Cell[],
  value: (cell: Cell) => Summary | undefined,
  labelOf: (cell: Cell) => string,
): ChartDataset[] {
  return series.map((s) => {
    const summaries = labels.map((label) => {
      const cell = cells.find((c) => c.series === s && labelOf(c) === label);
      return cell ? value(cell) : undefined;
    });
    return {
      label: s,
      data: summaries.map((sp) => (sp ? round(sp.median) : null)),
      ...intervalWhiskers(summaries),
    };
  });
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Stores often differ by orders of magnitude: a linear axis would flatten the slower ones to nothing. */
function spansDecades(datasets: readonly ChartDataset[]): boolean {
  const values = datasets
    .flatMap((d) => d.data as unknown[])
    .filter((v): v is number => typeof v === 'number' && v > 0);
  return values.length > 1 && Math.max(...values) / Math.min(...values) > 30;
}

let counter = 0;
export function chartId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/**
 * Throughput per store per workload, one chart per phase and (records, threads) setting; the
 * median of repeated runs with the 95% confidence interval of that median.
 */
export function throughputCharts(results: readonly Result[]): ChartSpec[] {
  const out: ChartSpec[] = [];
  for (const phase of ['run', 'load'] as const) {
    const cells = cellsOf(results.filter((r) => r.phase === phase));
    const settings = distinct(cells.map((c) => settingLabel(c.records, c.threads)));
    for (const setting of settings) {
      const these = cells.filter((c) => settingLabel(c.records, c.threads) === setting);
      const labels = distinct(these.map((c) => c.workload));
      const series = distinct(these.map((c) => c.series));
      const repeated = these.some((c) => c.runs.length > 1);
      const datasets = bars(series, labels, these, throughputSummary, (c) => c.workload);
      const scale = spansDecades(datasets) ? 'logarithmic' : 'linear';
      out.push({
        id: chartId('throughput'),
        section: phase === 'run' ? 'Throughput' : 'Load',
        title: `${phase === 'run' ? 'Throughput' : 'Load throughput'} per store and workload${setting ? ` (${setting})` : ''}${repeated ? ': median of repetitions, whiskers its 95% confidence interval' : ''}`,
        subtitle: captionOf(runsOf(these)),
        type: 'bar',
        labels,
        x: { title: phase === 'run' ? 'workload' : 'dataset', scale: 'category' },
        y: {
          title: `${phase === 'run' ? 'operations per second' : 'records per second'}${scale === 'logarithmic' ? ' (log)' : ''}`,
          scale,
          format: 'number',
        },
        datasets,
      });
    }
  }
  return out;
}

/**
 * Scaling lines in the shape of Carvalho et al. 2023 Figures 6–8: throughput against thread count
 * (one chart per workload and record count) and against record count (per workload and thread
 * count), drawn only where a set of results varies that dimension.
 */
export function scalingCharts(results: readonly Result[]): ChartSpec[] {
  const cells = cellsOf(results.filter((r) => r.phase === 'run'));
  const out: ChartSpec[] = [];
  const dimensions = [
    {
      name: 'threads',
      of: (c: Cell) => c.threads,
      fixed: (c: Cell) => settingLabel(c.records, undefined),
      axis: 'client threads',
      scale: 'linear' as const,
    },
    {
      name: 'records',
      of: (c: Cell) => c.records,
      fixed: (c: Cell) => settingLabel(undefined, c.threads),
      axis: 'records (log)',
      scale: 'logarithmic' as const,
    },
  ];
  for (const d of dimensions) {
    for (const workload of distinct(cells.map((c) => c.workload))) {
      for (const fixed of distinct(cells.filter((c) => c.workload === workload).map(d.fixed))) {
        const these = cells.filter((c) => c.workload === workload && d.fixed(c) === fixed && d.of(c) !== undefined);
        if (distinct(these.map(d.of)).length < 2) continue;
        const datasets: ChartDataset[] = distinct(these.map((c) => c.series)).map((s) => {
          const points = these.filter((c) => c.series === s).sort((a, b) => d.of(a)! - d.of(b)!);
          const summaries = points.map(throughputSummary);
          return {
            label: s,
            data: points.map((c, i) => ({ x: d.of(c)!, y: round(summaries[i]!.median) })),
            ...intervalWhiskers(summaries),
          };
        });
        const repeated = these.some((c) => c.runs.length > 1);
        out.push({
          id: chartId(`scaling-${d.name}`),
          section: 'Scaling',
          title: `${workload}: throughput vs ${d.name === 'threads' ? 'client threads' : 'record count'}${fixed ? ` (${fixed})` : ''}${repeated ? ': median of repetitions, whiskers its 95% confidence interval' : ''}`,
          subtitle: captionOf(runsOf(these)),
          type: 'line',
          x: { title: d.axis, scale: d.scale, format: 'number' },
          y: { title: 'operations per second', scale: 'linear', format: 'number' },
          datasets,
        });
      }
    }
  }
  return out;
}

/** The status time series of each run: ops/s second by second (first repetition of each cell). */
export function timeSeriesCharts(results: readonly Result[], chosen: (cell: Cell) => boolean): ChartSpec[] {
  const cells = cellsOf(results.filter((r) => r.phase === 'run' && r.timeSeries.length > 0)).filter(chosen);
  const out: ChartSpec[] = [];
  for (const workload of distinct(cells.map((c) => c.workload))) {
    const these = cells.filter((c) => c.workload === workload);
    const first = these.map((c) => [...c.runs].sort((a, b) => (repetitionOf(a) ?? 0) - (repetitionOf(b) ?? 0))[0]!);
    out.push({
      id: chartId('timeseries'),
      section: 'Throughput over time',
      title: `${workload}: throughput second by second${settingOf(these)}`,
      subtitle: captionOf(first),
      type: 'line',
      x: { title: 'seconds since start', scale: 'linear', format: 'seconds' },
      y: { title: 'operations per second', scale: 'linear', format: 'number' },
      datasets: these.map((c, i) => ({
        label: c.series,
        data: first[i]!.timeSeries.map((p) => ({ x: p.t, y: round(p.opsPerSec) })),
      })),
    });
  }
  return out;
}

export function settingOf(cells: readonly Cell[]): string {
  const settings = distinct(cells.map((c) => settingLabel(c.records, c.threads))).filter(Boolean);
  return settings.length === 1 ? ` (${settings[0]})` : '';
}
