/**
 * Charts in a paper's shapes from cells of docbench runs: a measure against the record count or
 * the thread count, one line per store, the statistic the paper used (with the min–max whiskers
 * of repetitions).
 */
import type { Result } from '../results/schema.ts';
import type { ChartSpec } from '../report/chart-spec.ts';
import { chartId } from '../report/charts-throughput.ts';
import { contextLines } from '../report/context.ts';
import { distinct, type Cell } from '../report/groups.ts';
import type { Measure, Statistic } from './docbench-tables.ts';

export interface LineChart {
  section: string;
  title: string;
  x: 'records' | 'threads';
  yTitle: string;
  yFormat?: 'number' | 'latency' | 'seconds';
  statistic: Statistic;
}

const round = (v: number) => Math.round(v * 10) / 10;

/** One line per store: the measure at each record (or thread) count its cells hold. */
export function linesChart(
  results: readonly Result[],
  cells: readonly Cell[],
  measure: Measure,
  chart: LineChart,
): ChartSpec | undefined {
  const shown = cells.filter((c) => c[chart.x] !== undefined);
  if (shown.length === 0) return undefined;
  return {
    id: chartId('study'),
    section: chart.section,
    title: chart.title,
    subtitle: [...contextLines(results), `the ${chart.statistic} of the repetitions`],
    type: 'line',
    x: {
      title: chart.x === 'records' ? 'records (log scale)' : 'client threads',
      scale: chart.x === 'records' ? 'logarithmic' : 'linear',
      format: 'number',
    },
    y: { title: chart.yTitle, scale: 'linear', format: chart.yFormat ?? 'number' },
    datasets: distinct(shown.map((c) => c.series)).map((series) => {
      const mine = shown.filter((c) => c.series === series).sort((a, b) => (a[chart.x] ?? 0) - (b[chart.x] ?? 0));
      return { label: series, data: mine.map((c) => ({ x: c[chart.x]!, y: round(measure(c)[chart.statistic]) })) };
    }),
  };
}
