/**
 * The per-operation time series of runs (Result.operationSeries): each latency row's p99 every
 * status interval (its p50 and max a click away in the legend), and each operation's calls and
 * failures per second. The figures are the series' own, each from its interval's histogram with
 * the one percentile function.
 */
import type { Result } from '../results/schema.ts';
import type { ChartDataset, ChartSpec } from './chart-spec.ts';
import { isVerification } from './charts-latency-cost.ts';
import { chartId } from './charts-throughput.ts';
import { captionOf } from './context.ts';
import { seriesLabel } from './groups.ts';

type Series = NonNullable<Result['operationSeries']>;
type Row = Series['rows'][number];

/** A run and how its lines are named in a chart (the store; or a capacity step). */
export interface LabelledRun {
  label: string;
  result: Result;
}

const drawn = (row: Row) => !row.name.endsWith('-FAILED') && !isVerification(row.name);

/** Points of a row's figure, left out where the interval had no call (or was warm-up). */
function points(series: Series, row: Row, value: (i: number) => number): { x: number; y: number }[] {
  return series.t.flatMap((t, i) => (row.count[i]! > 0 && !series.warmup[i] ? [{ x: t, y: value(i) }] : []));
}

/** The first interval in which any row recorded a call (the series' length when none did). */
function firstRecorded(series: Series): number {
  const first = series.t.findIndex((_, i) =>
    series.rows.some((row) => row.count[i]! > 0 || (row.failed?.[i] ?? 0) > 0),
  );
  return first < 0 ? series.t.length : first;
}

/** Seconds interval i lasted. */
function lengthOf(series: Series, i: number): number {
  return series.t[i]! - (i === 0 ? 0 : series.t[i - 1]!);
}

/** The two charts of a set of runs: latency rows over time, and operations and failures per second. */
export function operationSeriesCharts(runs: readonly LabelledRun[], title: string, section: string): ChartSpec[] {
  const withSeries = runs.filter((r) => r.result.operationSeries !== undefined);
  if (withSeries.length === 0) return [];
  const latency: ChartDataset[] = [];
  const rates: ChartDataset[] = [];
  for (const { label, result } of withSeries) {
    const series = result.operationSeries!;
    // Intended- rows differ from the measured ones only under a target rate.
    const throttled = Number(result.workload.properties.target ?? 0) > 0;
    for (const row of series.rows.filter(drawn)) {
      const intended = row.name.startsWith('Intended-');
      if (intended && !throttled) continue;
      const name = `${label} ${row.name}`;
      const style = { group: name, ...(intended ? { dashed: true } : {}) };
      latency.push({ label: `${name} p99`, data: points(series, row, (i) => row.p99Us[i]!), ...style });
      latency.push({ label: `${name} p50`, data: points(series, row, (i) => row.p50Us[i]!), hidden: true, ...style });
      latency.push({ label: `${name} max`, data: points(series, row, (i) => row.maxUs[i]!), hidden: true, ...style });
      if (intended) continue;
      // From the first interval that recorded anything: the intervals before it were warm-up.
      const shown = (i: number) => i >= firstRecorded(series) && !series.warmup[i];
      rates.push({
        label: `${name} ops/s`,
        group: name,
        data: series.t.flatMap((t, i) =>
          shown(i) ? [{ x: t, y: Math.round((row.count[i]! / lengthOf(series, i)) * 10) / 10 }] : [],
        ),
      });
      if ((row.failed ?? []).some((n) => n > 0))
        rates.push({
          label: `${name} failed/s`,
          group: name,
          data: series.t.flatMap((t, i) =>
            shown(i) ? [{ x: t, y: Math.round(((row.failed?.[i] ?? 0) / lengthOf(series, i)) * 10) / 10 }] : [],
          ),
          dashed: true,
        });
    }
  }
  const interval = withSeries[0]!.result.operationSeries!.intervalSeconds;
  const every = `every ${interval} s (status.interval)`;
  const caption = captionOf(withSeries.map((r) => r.result));
  return [
    {
      id: chartId('opseries-latency'),
      section,
      title: `${title}: p99 of each operation ${every}; p50 and max in the legend`,
      subtitle: caption,
      type: 'line',
      x: { title: 'seconds since start', scale: 'linear', format: 'seconds' },
      y: { title: 'latency (log)', scale: 'logarithmic', format: 'latency' },
      datasets: latency,
    },
    {
      id: chartId('opseries-rate'),
      section,
      title: `${title}: operations and failures per second of each operation, ${every}`,
      subtitle: caption,
      type: 'line',
      x: { title: 'seconds since start', scale: 'linear', format: 'seconds' },
      y: { title: 'per second', scale: 'linear', format: 'number' },
      datasets: rates,
    },
  ];
}

/** For results compared side by side: the series of each store's run, one pair of charts per workload. */
export function runsOperationSeriesCharts(byWorkload: ReadonlyMap<string, readonly Result[]>): ChartSpec[] {
  return [...byWorkload].flatMap(([workload, runs]) =>
    operationSeriesCharts(
      runs.map((result) => ({ label: seriesLabel(result), result })),
      workload,
      'Each operation over time',
    ),
  );
}
