import type { Result } from '../results/schema.ts';
import { storeShort } from '../results/product.ts';
import { markdownTable } from './markdown.ts';
import { latencyPercentile } from './percentiles.ts';
import { isValid, verdictLine, verdictOf } from '../results/verdict.ts';

/**
 * Direct and end-to-end results side by side: throughput, p99 per operation, and what each
 * side's CPU cost (docbench's process in direct mode, k6 in end-to-end mode; plus the service's
 * CPU per request), so a reader sees whether the store, the service or the load generator was
 * the limit.
 */
export function renderModeComparison(results: readonly Result[]): string {
  const rows: string[] = [];
  for (const r of results)
    for (const op of r.operations)
      if (op.returns && op.name !== 'VERIFY' && !rows.includes(op.name)) rows.push(op.name);
  const header = [
    'store',
    'workload',
    'mode',
    'ops/s',
    ...rows.map((row) => `${row === 'READ-MODIFY-WRITE' ? 'RMW' : row} p99 (us)`),
    'client CPU (us/op)',
    'service CPU (us/req)',
    'not OK',
  ];
  const body = results.map((r) => {
    const valid = isValid(r);
    const cells = [
      storeShort(r.store),
      r.workload.name,
      r.mode === 'http' ? 'end to end' : 'direct',
      valid ? Math.round(r.overall.throughputOpsPerSec).toLocaleString('en-US') : 'INVALID',
    ];
    for (const row of rows) {
      const p99 = valid ? latencyPercentile([r], row, 99) : undefined;
      cells.push(p99 !== undefined ? p99.toLocaleString('en-US') : '');
    }
    cells.push(String(r.clientCpu.usPerOp));
    const service = r.store.extra?.['service.cpuUsPerRequest'];
    cells.push(service === undefined ? '' : String(service));
    const notOk = Object.entries(r.returns)
      .filter(([s]) => s !== 'OK')
      .map(([s, n]) => `${s}=${n}`);
    cells.push(notOk.length > 0 ? notOk.join(' ') : '0');
    return cells;
  });
  const notes = [
    '',
    'client CPU: docbench itself per operation in direct mode (runner + driver); the k6 process per operation in end-to-end mode.',
    'service CPU: docbench serve per HTTP request (Fastify + driver), end-to-end mode only.',
  ];
  for (const r of results.filter((x) => !isValid(x)))
    notes.push(
      `${r.store.name} ${r.workload.name} (${r.mode === 'http' ? 'end to end' : 'direct'}) is ${verdictLine(verdictOf(r))}`,
    );
  const table = markdownTable(
    header,
    body,
    header.map((_, i) => (i < 3 ? 'left' : 'right')),
  );
  return `${table}${notes.join('\n')}\n`;
}

export function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
