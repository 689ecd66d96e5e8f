import type { Result } from '../results/schema.ts';
import { latencyPercentile, REPORTED_PERCENTILES } from './percentiles.ts';
import { verdictLine, verdictOf } from '../results/verdict.ts';
import { recordsOf, repetitionOf, threadsOf, workloadLabel } from './groups.ts';
import { serverCpuUsPerOp, serviceCpuUsPerRequest } from './charts-latency-cost.ts';

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const HEADER = [
  'phase',
  'kind',
  'workload',
  'store',
  'stand_in',
  'mode',
  'records',
  'threads',
  'repetition',
  'operation',
  'operations',
  'throughput_ops_per_sec',
  'runtime_ms',
  'avg_us',
  'p50_us',
  'p95_us',
  'p99_us',
  'p999_us',
  'max_us',
  'not_ok',
  'client_cpu_us_per_op',
  'service_cpu_us_per_req',
  'server_cpu_us_per_op',
  'server_peak_rss_bytes',
  'disk_bytes',
  'steal_percent',
  'server',
  'server_version',
  'started_at',
  'verdict',
];

/**
 * One line per result and operation row (the figures a spreadsheet needs), the run-level columns
 * repeated on each; rows without latencies (a row of only failures) keep their counts.
 */
export function renderCsv(results: readonly Result[]): string {
  const lines = [HEADER.join(',')];
  for (const r of results) {
    for (const op of r.operations) {
      const l = op.latency;
      const notOk = Object.entries(op.returns ?? {})
        .filter(([s]) => s !== 'OK')
        .reduce((n, [, c]) => n + (c ?? 0), 0);
      lines.push(
        [
          r.phase,
          r.kind,
          workloadLabel(r),
          r.store.name,
          r.store.standIn ? `${r.store.standIn.name} ${r.store.standIn.version}` : '',
          r.mode,
          recordsOf(r),
          threadsOf(r),
          repetitionOf(r),
          op.name,
          l.operations,
          r.overall.throughputOpsPerSec,
          r.overall.runtimeMs,
          l.averageUs,
          ...REPORTED_PERCENTILES.map((p) => latencyPercentile([r], op.name, p)),
          l.maxUs,
          notOk,
          r.clientCpu.usPerOp,
          serviceCpuUsPerRequest(r),
          serverCpuUsPerOp(r),
          r.serverCost?.peakRssBytes,
          r.store.diskBytes,
          r.machineCpu?.stealPercent,
          r.store.server,
          r.store.serverVersion,
          r.startedAt,
          verdictLine(verdictOf(r)),
        ]
          .map(field)
          .join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
