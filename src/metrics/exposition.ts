/**
 * The live metrics as Prometheus's text format (0.0.4) or OpenMetrics 1.0.0 (when a scraper asks
 * for it): counters of store calls and of failures by store, workload, phase, operation and
 * status; each latency row as a summary whose quantiles are the one percentile function's over the
 * run so far (at the end of a run, the result file's figures) and as histogram buckets (which add
 * up across client processes and machines in Prometheus); the client's CPU; whether the run is
 * going and, once it is over, its verdict; a capacity step's rate. Written by hand rather than
 * with a client library: a library's summary computes its own quantiles, and its histogram only
 * takes observations, where these figures are measured already.
 */
import { countAtOrBelow, valueAtPercentile, type Histogram } from '../measure/histogram.ts';
import { isFailure, STATUSES } from '../measure/status.ts';
import type { LiveMetrics, RunLabels, RunState } from './live-metrics.ts';

export type ExpositionFormat = 'prometheus' | 'openmetrics';

export const CONTENT_TYPES: Record<ExpositionFormat, string> = {
  prometheus: 'text/plain; version=0.0.4; charset=utf-8',
  openmetrics: 'application/openmetrics-text; version=1.0.0; charset=utf-8',
};

/** Quantiles of each latency summary. */
export const QUANTILES = [0.5, 0.95, 0.99, 0.999];
/** Histogram bucket bounds, seconds: 100 µs to 10 s in 1-2.5-5 steps. */
export const BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

type Labels = Record<string, string>;

function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? '' : `{${entries.map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}`;
}

function num(value: number): string {
  if (value === Infinity) return '+Inf';
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
}

/** One family: its HELP and TYPE once, then its samples. */
class Family {
  readonly samples: string[] = [];
  constructor(
    readonly name: string,
    readonly type: 'counter' | 'gauge' | 'summary' | 'histogram',
    readonly help: string,
  ) {}

  add(suffix: string, labels: Labels, value: number): void {
    this.samples.push(`${this.name}${suffix}${labelText(labels)} ${num(value)}`);
  }

  render(format: ExpositionFormat): string {
    if (this.samples.length === 0) return '';
    // OpenMetrics names a counter's family without `_total`; its samples keep it.
    const family = format === 'openmetrics' && this.type === 'counter' ? this.name.replace(/_total$/, '') : this.name;
    return `# HELP ${family} ${this.help}\n# TYPE ${family} ${this.type}\n${this.samples.join('\n')}\n`;
  }
}

function runLabels(l: RunLabels): Labels {
  return { store: l.store, workload: l.workload, phase: l.phase };
}

/** `Intended-READ-FAILED` -> operation READ, measure intended, outcome failed. */
function rowLabels(row: string): Labels {
  const intended = row.startsWith('Intended-');
  const failed = row.endsWith('-FAILED');
  const operation = row.replace(/^Intended-/, '').replace(/-FAILED$/, '');
  return { operation, measure: intended ? 'intended' : 'service', outcome: failed ? 'failed' : 'ok' };
}

function latency(summary: Family, buckets: Family, labels: Labels, h: Histogram): void {
  if (h.totalCount === 0) return;
  const sumSeconds = (h.mean * h.totalCount) / 1e6;
  for (const q of QUANTILES) summary.add('', { ...labels, quantile: String(q) }, valueAtPercentile(h, q * 100) / 1e6);
  summary.add('_sum', labels, sumSeconds);
  summary.add('_count', labels, h.totalCount);
  for (const le of BUCKETS)
    buckets.add('_bucket', { ...labels, le: String(le) }, countAtOrBelow(h, Math.round(le * 1e6)));
  buckets.add('_bucket', { ...labels, le: '+Inf' }, h.totalCount);
  buckets.add('_sum', labels, sumSeconds);
  buckets.add('_count', labels, h.totalCount);
}

function addRun(f: ReturnType<typeof families>, state: RunState): void {
  const labels = runLabels(state.labels);
  for (const [operation, counts] of state.calls) {
    for (const status of STATUSES) {
      const n = counts.get(status);
      if (n === undefined) continue;
      f.operations.add('', { ...labels, operation, status }, n);
      if (isFailure(status)) f.failures.add('', { ...labels, operation, status }, n);
    }
  }
  for (const [row, histogram] of state.rows) latency(f.summary, f.buckets, { ...labels, ...rowLabels(row) }, histogram);
  f.running.add('', labels, state.running ? 1 : 0);
  if (state.verdict !== undefined) f.verdict.add('', { ...labels, verdict: state.verdict }, 1);
  if (state.targetOpsPerSec !== undefined) f.target.add('', labels, state.targetOpsPerSec);
  if (state.highestHeldOpsPerSec !== undefined) f.held.add('', labels, state.highestHeldOpsPerSec);
}

function families() {
  return {
    operations: new Family(
      'docbench_operations_total',
      'counter',
      'Store calls recorded (after warm-up), by operation and YCSB status (Return=).',
    ),
    failures: new Family(
      'docbench_operation_failures_total',
      'counter',
      'Store calls that failed (ERROR, TIMEOUT, SERVICE_UNAVAILABLE): not throughput.',
    ),
    summary: new Family(
      'docbench_latency_hdr_seconds',
      'summary',
      'Latency of each row since the run (or capacity step) started; quantiles as every docbench output computes them (HdrHistogram getValueAtPercentile). measure=intended is timed from when the operation was due.',
    ),
    buckets: new Family(
      'docbench_latency_seconds',
      'histogram',
      'The same latency rows as cumulative buckets (each count read off the HDR histogram), to add across client processes and machines.',
    ),
    cpu: new Family(
      'docbench_client_cpu_seconds_total',
      'counter',
      'CPU time of the docbench client process (all its threads), by mode.',
    ),
    running: new Family('docbench_run_running', 'gauge', '1 while the run measures, 0 once it is over.'),
    verdict: new Family(
      'docbench_run_verdict',
      'gauge',
      "1 for the finished run's verdict: valid, or invalid (its figures measure no store work).",
    ),
    target: new Family(
      'docbench_capacity_target_ops_per_second',
      'gauge',
      'The rate the running capacity step offers (open model).',
    ),
    held: new Family(
      'docbench_capacity_highest_held_ops_per_second',
      'gauge',
      'The highest rate that held its budget so far in a capacity search.',
    ),
  };
}

/** The exposition of everything `metrics` holds now. */
export function renderMetrics(
  metrics: LiveMetrics,
  format: ExpositionFormat,
  cpu: NodeJS.CpuUsage = process.cpuUsage(),
): string {
  const f = families();
  for (const state of metrics.runs.values()) addRun(f, state);
  f.cpu.add('', { mode: 'user' }, cpu.user / 1e6);
  f.cpu.add('', { mode: 'system' }, cpu.system / 1e6);
  const text = Object.values(f)
    .map((family) => family.render(format))
    .join('');
  return format === 'openmetrics' ? `${text}# EOF\n` : text;
}
