import type { Result } from '../results/schema.ts';
import type { ChartDataset, ChartSpec } from './chart-spec.ts';
import { captionOf } from './context.ts';
import { summarize } from '../stats/summary.ts';
import { chartId, intervalWhiskers, settingOf } from './charts-throughput.ts';
import { cellsOf, distinct, type Cell } from './groups.ts';
import { percentileCurve } from './percentile-curve.ts';
import { percentileOverRepetitions } from './percentiles.ts';

/** The answer-checking pass (`VERIFY`, a scenario's `scan:Q1-VERIFY`): docbench's own work, not the store's. */
export function isVerification(row: string): boolean {
  return row === 'VERIFY' || row.endsWith('-VERIFY');
}

/** Rows drawn as curves: what the application saw; failed calls and the verification pass are left to the tables. */
function curveRows(runs: readonly Result[]): string[] {
  return distinct(
    runs.flatMap((r) =>
      r.operations
        .filter((o) => o.histogram !== undefined && !o.name.endsWith('-FAILED') && !isVerification(o.name))
        .map((o) => o.name),
    ),
  );
}

/**
 * For each workload, the cells of its largest record count and thread count: a sweep of many
 * settings would otherwise draw hundreds of curves; the tables keep every setting.
 */
export function representativeCells(results: readonly Result[]): (cell: Cell) => boolean {
  const cells = cellsOf(results.filter((r) => r.phase === 'run'));
  const chosen = new Map<string, { records: number; threads: number }>();
  for (const c of cells) {
    const best = chosen.get(c.workload);
    const records = c.records ?? 0;
    const threads = c.threads ?? 0;
    if (!best || records > best.records || (records === best.records && threads > best.threads))
      chosen.set(c.workload, { records, threads });
  }
  return (c) => {
    const best = chosen.get(c.workload);
    return best !== undefined && (c.records ?? 0) === best.records && (c.threads ?? 0) === best.threads;
  };
}

/**
 * Latency percentile curves from the HDR histograms, one chart per workload and operation: x is
 * 1/(1−p) on a log axis (so 90%, 99%, 99.9% are evenly spaced), y the latency on a log axis.
 * `Intended-` rows (measured from the intended start under a target rate) are dashed.
 */
export function percentileCharts(results: readonly Result[], chosen: (cell: Cell) => boolean): ChartSpec[] {
  const cells = cellsOf(results.filter((r) => r.phase === 'run')).filter(chosen);
  const out: ChartSpec[] = [];
  for (const workload of distinct(cells.map((c) => c.workload))) {
    const these = cells.filter((c) => c.workload === workload);
    const rows = curveRows(these.flatMap((c) => c.runs));
    for (const row of rows.filter((r) => !r.startsWith('Intended-'))) {
      const datasets: ChartDataset[] = [];
      for (const cell of these) {
        // Intended- rows differ from the measured ones only under a target rate.
        const throttled = cell.runs.some((r) => Number(r.workload.properties.target ?? 0) > 0);
        for (const name of throttled ? [row, `Intended-${row}`] : [row]) {
          const curve = percentileCurve(cell.runs, name);
          if (!curve) continue;
          // Repeated runs: at each point, the interval of the median of each run's own percentile.
          const whiskers =
            cell.runs.length > 1
              ? intervalWhiskers(
                  curve.map((p) => percentileOverRepetitions(cell.runs, name, p.percentile)),
                  (v) => Math.max(1, Math.round(v)),
                )
              : {};
          datasets.push({
            label: `${cell.series}${name === row ? '' : ' (intended start)'}${cell.runs.length > 1 ? ` · ${cell.runs.length} runs` : ''}`,
            data: curve.map((p) => ({ x: 100 / (100 - p.percentile), y: p.latencyUs })),
            ...whiskers,
            ...(name === row ? {} : { dashed: true }),
          });
        }
      }
      if (datasets.length === 0) continue;
      const repeated = datasets.some((d) => d.ranges !== undefined);
      out.push({
        id: chartId('percentiles'),
        section: 'Latency percentiles',
        title: `${workload} ${row}: latency by percentile${settingOf(these)}${repeated ? "; curve: all runs' samples, whiskers: 95% CI of the runs' own percentiles" : ''}`,
        subtitle: captionOf(these.flatMap((c) => c.runs)),
        type: 'line',
        x: { title: 'percentile (log scale of 1/(1−p))', scale: 'logarithmic', format: 'percentile' },
        y: { title: 'latency (log)', scale: 'logarithmic', format: 'latency' },
        datasets,
      });
    }
  }
  return out;
}

interface CostMeasure {
  title: string;
  axis: string;
  format: 'number' | 'percent';
  value: (r: Result) => number | undefined;
}

export function serviceCpuUsPerRequest(r: Result): number | undefined {
  const value = r.store.extra?.['service.cpuUsPerRequest'];
  return typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : undefined;
}

export function serverCpuUsPerOp(r: Result): number | undefined {
  const cost = r.serverCost;
  if (!cost || cost.cpuMs === undefined || r.overall.operations === 0) return undefined;
  return Math.round((cost.cpuMs * 10_000) / r.overall.operations) / 10;
}

const COSTS: CostMeasure[] = [
  {
    title: 'Client CPU per operation (docbench in direct mode, k6 end to end)',
    axis: 'CPU µs per operation',
    format: 'number',
    value: (r) => r.clientCpu.usPerOp,
  },
  {
    title: 'Service CPU per request (docbench serve, end to end only)',
    axis: 'CPU µs per request',
    format: 'number',
    value: serviceCpuUsPerRequest,
  },
  {
    title: "Store server's CPU per operation (local servers, from /proc)",
    axis: 'CPU µs per operation',
    format: 'number',
    value: serverCpuUsPerOp,
  },
  {
    title: 'Machine CPU steal while measuring (share the hypervisor gave to other guests)',
    axis: 'steal %',
    format: 'percent',
    value: (r) => r.machineCpu?.stealPercent,
  },
];

/** What each side cost, per workload and store, and the machine's steal; a chart only where measured. */
export function costCharts(results: readonly Result[], chosen: (cell: Cell) => boolean): ChartSpec[] {
  const cells = cellsOf(results.filter((r) => r.phase === 'run')).filter(chosen);
  const labels = distinct(cells.map((c) => c.workload));
  const out: ChartSpec[] = [];
  for (const cost of COSTS) {
    const measured = cells.filter((c) => c.runs.some((r) => cost.value(r) !== undefined));
    if (measured.length === 0) continue;
    const datasets: ChartDataset[] = distinct(measured.map((c) => c.series)).map((series) => {
      const summaries = labels.map((label) => {
        const values =
          measured
            .find((c) => c.series === series && c.workload === label)
            ?.runs.map(cost.value)
            .filter((v) => v !== undefined) ?? [];
        return values.length > 0 ? summarize(values) : undefined;
      });
      return {
        label: series,
        data: summaries.map((s) => (s ? Math.round(s.median * 10) / 10 : null)),
        ...intervalWhiskers(summaries),
      };
    });
    out.push({
      id: chartId('cost'),
      section: 'Cost',
      title: `${cost.title}${datasets.some((d) => d.ranges !== undefined) ? ': median of repetitions, whiskers its 95% confidence interval' : ''}`,
      subtitle: captionOf(measured.flatMap((c) => c.runs)),
      type: 'bar',
      labels,
      x: { title: 'workload', scale: 'category' },
      y: { title: cost.axis, scale: 'linear', format: cost.format },
      datasets,
    });
  }
  return out;
}
