/**
 * The e-commerce table, rendered from results alone (the common schema), so what is printed is
 * what the JSON files hold: per run (store × workload × variant) the throughput, and per
 * operation its count, mean (the studies report means), p95 and p99, failures and oracle checks.
 * A figure from a local stand-in says so in the store column.
 */
import { storeShort } from '../../src/results/product.ts';
import type { Result } from '../../src/results/schema.ts';
import { describeMachineCpu } from '../../src/report/machine-cpu.ts';
import { formatCount, notStandInNote } from '../shared/format.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { latencyPercentile } from '../../src/report/percentiles.ts';
import { isValid, verdictLine, verdictOf } from '../../src/results/verdict.ts';
import { renderRepeatedTable } from '../shared/repeated-table.ts';
import { OPERATIONS, operationRow, READBACK_ROW } from './queries.ts';

const MAIN_ROWS = [...OPERATIONS.map(operationRow), READBACK_ROW];

function storeName(result: Result): string {
  return storeShort(result.store);
}

/** The variant(s) a result ran, e.g. `lookup`, or `find + lookup` for a mix of two query kinds. */
export function variantOf(result: Result): string {
  const parts = Object.entries(result.workload.properties)
    .filter(([key, value]) => key.startsWith('variant.') && typeof value === 'string')
    .map(([, value]) => value as string);
  return parts.join(' + ') || '-';
}

/** Failed calls by status, e.g. `300 UNSUPPORTED` or `3 ERROR, 1 NOT_FOUND`; `0` when none. */
export function describeNotOk(returns: Record<string, number> | undefined): string {
  const failed = Object.entries(returns ?? {}).filter(([status, n]) => status !== 'OK' && n > 0);
  return failed.length === 0 ? '0' : failed.map(([status, n]) => `${formatCount(n)} ${status}`).join(', ');
}

/** Whether any main operation of the run succeeded (else its throughput counts only failures). */
function anySucceeded(result: Result): boolean {
  return result.operations.some((o) => MAIN_ROWS.includes(o.name) && (o.returns?.OK ?? 0) > 0);
}

function percentileText(result: Result, row: string, percentile: number): string {
  const value = latencyPercentile([result], row, percentile);
  return value === undefined ? '-' : formatCount(value);
}

/** One line per (result, operation): throughput of the run, latency of the operation. */
export function renderRunTable(results: readonly Result[]): string {
  const header = [
    'store',
    'workload',
    'variant',
    'ops/s',
    'operation',
    'count',
    'mean (µs)',
    'p95 (µs)',
    'p99 (µs)',
    'not OK',
    'checked',
  ];
  const rows: string[][] = [];
  for (const result of results) {
    const verify = result.operations.find((o) => o.name === 'VERIFY');
    const checked = verify?.returns
      ? `${formatCount(verify.returns.OK ?? 0)}${verify.returns.UNEXPECTED_STATE ? ` (${verify.returns.UNEXPECTED_STATE} WRONG)` : ''}`
      : '0';
    let first = true;
    for (const op of result.operations) {
      if (!MAIN_ROWS.includes(op.name)) continue;
      rows.push([
        storeName(result),
        result.workload.name,
        variantOf(result),
        first
          ? !isValid(result)
            ? 'INVALID'
            : anySucceeded(result)
              ? formatCount(result.overall.throughputOpsPerSec)
              : '-'
          : '',
        op.name,
        formatCount(op.latency.operations),
        op.latency.operations > 0 ? formatCount(op.latency.averageUs) : '-',
        percentileText(result, op.name, 95),
        percentileText(result, op.name, 99),
        describeNotOk(op.returns),
        first ? checked : '',
      ]);
      first = false;
    }
  }
  return markdownTable(header, rows, [
    'left',
    'left',
    'left',
    'right',
    'left',
    'right',
    'right',
    'right',
    'right',
    'right',
    'right',
  ]);
}

/**
 * The runs of several rounds, one row group per cell (store × workload × variant) over its
 * rounds: throughput and latency as medians with their 95% intervals, and the verdicts.
 */
export function renderRoundsTable(results: readonly Result[]): string {
  return renderRepeatedTable(results, {
    shows: (row) => MAIN_ROWS.includes(row),
    labels: [
      { header: 'workload', of: (r) => r.workload.name },
      { header: 'variant', of: variantOf },
    ],
  });
}

/** Lines under the table: the server behind each store, and whether it is the real product. */
export function renderServers(results: readonly Result[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const r of results) {
    const s = r.store;
    const line = `${s.name}: ${s.server} ${s.serverVersion} via ${s.driver}${s.standIn ? `. STAND-IN: ${s.standIn.name}, not the real product (${s.standIn.note})` : notStandInNote(s)}`;
    if (!seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  for (const r of results.filter((x) => !isValid(x)))
    lines.push(`${r.workload.name} on ${storeName(r)} is ${verdictLine(verdictOf(r))}`);
  const cpu = describeMachineCpu(results);
  if (cpu !== undefined) lines.push(cpu);
  return lines.map((l) => `- ${l}\n`).join('');
}
