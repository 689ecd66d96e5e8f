/**
 * The scenario file's table, rendered from results alone (the common schema): per store the
 * mix's throughput, per operation its count, mean, p95 and p99 (the one percentile function),
 * what did not succeed and how many answers were checked; the servers (stand-ins named) and each
 * store's translations of the queries under it, UNSUPPORTED ones with their reason.
 */
import { describeMachineCpu } from '../../src/report/machine-cpu.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { latencyPercentile } from '../../src/report/percentiles.ts';
import type { Result } from '../../src/results/schema.ts';
import { isValid, verdictLine, verdictOf } from '../../src/results/verdict.ts';
import { formatCount, notStandInNote } from '../shared/format.ts';

const storeLabel = (r: Result) => `${r.store.name}${r.store.standIn ? ' (stand-in)' : ''}`;

function notOk(returns: Record<string, number> | undefined): string {
  const failed = Object.entries(returns ?? {}).filter(([status, n]) => status !== 'OK' && n > 0);
  return failed.length === 0 ? '0' : failed.map(([status, n]) => `${formatCount(n)} ${status}`).join(', ');
}

const percentile = (r: Result, row: string, p: number) => {
  const v = latencyPercentile([r], row, p);
  return v === undefined ? '-' : formatCount(v);
};

export function renderFileTable(results: readonly Result[]): string {
  const header = ['store', 'ops/s', 'operation', 'count', 'mean (µs)', 'p95 (µs)', 'p99 (µs)', 'not OK', 'checked'];
  const rows: string[][] = [];
  for (const r of results) {
    const verify = r.operations.find((o) => o.name === 'VERIFY');
    const checked = verify?.returns
      ? `${formatCount(verify.returns.OK ?? 0)}${verify.returns.UNEXPECTED_STATE ? ` (${verify.returns.UNEXPECTED_STATE} WRONG)` : ''}`
      : '0';
    let first = true;
    for (const op of r.operations) {
      if (op.name === 'VERIFY' || op.name.startsWith('Intended-')) continue;
      rows.push([
        first ? storeLabel(r) : '',
        first ? (isValid(r) ? formatCount(r.overall.throughputOpsPerSec) : 'INVALID') : '',
        op.name,
        formatCount(op.latency.operations),
        op.latency.operations > 0 ? formatCount(op.latency.averageUs) : '-',
        percentile(r, op.name, 95),
        percentile(r, op.name, 99),
        notOk(op.returns),
        first ? checked : '',
      ]);
      first = false;
    }
  }
  return markdownTable(header, rows, ['left', 'right', 'left', 'right', 'right', 'right', 'right', 'right', 'right']);
}

/** The servers, each store's translation of every query, and the verdicts that are not valid. */
export function renderFileNotes(results: readonly Result[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const s = r.store;
    lines.push(
      `${s.name}: ${s.server} ${s.serverVersion} via ${s.driver}${s.standIn ? `. STAND-IN: ${s.standIn.name}, not the real product` : notStandInNote(s)}`,
    );
    for (const [key, value] of Object.entries(r.workload.properties)) {
      if (key.startsWith('translation.')) lines.push(`  ${key.slice('translation.'.length)}: ${String(value)}`);
    }
  }
  for (const r of results.filter((x) => !isValid(x)))
    lines.push(`${r.workload.name} on ${storeLabel(r)} is ${verdictLine(verdictOf(r))}`);
  const cpu = describeMachineCpu(results);
  if (cpu !== undefined) lines.push(cpu);
  return lines.map((l) => (l.startsWith('  ') ? `  - ${l.trim()}\n` : `- ${l}\n`)).join('');
}
