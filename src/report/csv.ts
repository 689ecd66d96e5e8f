import type { Result } from '../results/schema.ts';
import { compatibleProduct, compatibleWords } from '../results/product.ts';
import { latencyPercentile, REPORTED_PERCENTILES } from './percentiles.ts';
import { verdictLine, verdictOf } from '../results/verdict.ts';
import { cellKey, recordsOf, repetitionOf, threadsOf, workloadLabel } from './groups.ts';
import { anyRepeated, latencyFigure, summarizeCells, type CellStatistics } from './cell-statistics.ts';
import type { Summary } from '../stats/summary.ts';
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
  // A product on the store's protocol that is not the store's product (FerretDB behind mongodb).
  'compatible_product',
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

/** The percentiles' column names: p50, p95, p99, p999. */
const PERCENTILE_COLUMNS = REPORTED_PERCENTILES.map((p) => `p${String(p).replace('.', '')}`);

/**
 * Added when a cell was repeated: the cell's figures over its repetitions (cell-statistics.ts),
 * repeated on each line of its runs: n, the median with its 95% interval and the CoV of
 * throughput, and the median with its interval of each repetition's own percentile of the row.
 */
const CELL_HEADER = [
  'cell_runs',
  'cell_throughput_median',
  'cell_throughput_ci_low',
  'cell_throughput_ci_high',
  'cell_throughput_cov_percent',
  ...PERCENTILE_COLUMNS.flatMap((p) => [`cell_${p}_median_us`, `cell_${p}_ci_low_us`, `cell_${p}_ci_high_us`]),
];

const round3 = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 1000) / 1000);

function summaryFields(s: Summary | undefined): (number | undefined)[] {
  if (!s || s.n === 0) return [undefined, undefined, undefined];
  return [round3(s.median), round3(s.interval?.low), round3(s.interval?.high)];
}

function cellFields(cell: CellStatistics | undefined, row: string): (number | undefined)[] {
  if (!cell) return CELL_HEADER.map(() => undefined);
  const t = cell.throughput.overRepetitions;
  const cov = t.cov === undefined ? undefined : Math.round(t.cov * 1000) / 10;
  return [
    t.n,
    ...summaryFields(t),
    cov,
    ...REPORTED_PERCENTILES.flatMap((p) =>
      summaryFields(cell.latency.find((f) => f.figure === latencyFigure(row, p))?.overRepetitions),
    ),
  ];
}

/**
 * One line per result and operation row (the figures a spreadsheet needs), the run-level columns
 * repeated on each; rows without latencies (a row of only failures) keep their counts. When a
 * cell was repeated, its statistics over the repetitions follow (CELL_HEADER); results of single
 * runs keep the columns they always had.
 */
export function renderCsv(results: readonly Result[]): string {
  const cells = summarizeCells(results);
  const repeated = anyRepeated(cells);
  const byKey = new Map(cells.map((c) => [c.key, c]));
  const lines = [[...HEADER, ...(repeated ? CELL_HEADER : [])].join(',')];
  for (const r of results) {
    const cell = repeated ? byKey.get(cellKey(r)) : undefined;
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
          r.store.compatible ? `${compatibleProduct(r.store.compatible)} (${compatibleWords(r.store.compatible)})` : '',
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
          ...(repeated ? cellFields(cell, op.name) : []),
        ]
          .map(field)
          .join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
