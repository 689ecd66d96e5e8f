/**
 * The scenario file's table, rendered from results alone (the common schema): per store the
 * mix's throughput, per operation its count, mean, p95 and p99 (the one percentile function),
 * what did not succeed and how many answers were checked; the servers (stand-ins named) and each
 * store's translations of the queries under it, UNSUPPORTED ones with their reason.
 *
 * A query a store refuses is left out of that store's figures (its row says so), and the other
 * rows compare query by query; the ops/s of the whole mix compares only between stores that ran
 * the same mix, so when the stores' mixes differ each ops/s names its mix and a line under the
 * table says which stores ran which.
 */
import { storeShort } from '../../src/results/product.ts';
import { describeMachineCpu } from '../../src/report/machine-cpu.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { latencyPercentile } from '../../src/report/percentiles.ts';
import type { Result } from '../../src/results/schema.ts';
import { isValid, mixOf, verdictLine, verdictMark, verdictOf } from '../../src/results/verdict.ts';
import { formatCount, notStandInNote } from '../shared/format.ts';

const storeLabel = (r: Result) => storeShort(r.store);

function notOk(returns: Record<string, number> | undefined): string {
  const failed = Object.entries(returns ?? {}).filter(([status, n]) => status !== 'OK' && n > 0);
  return failed.length === 0 ? '0' : failed.map(([status, n]) => `${formatCount(n)} ${status}`).join(', ');
}

const percentile = (r: Result, row: string, p: number) => {
  const v = latencyPercentile([r], row, p);
  return v === undefined ? '-' : formatCount(v);
};

/** The mixes the stores ran, named A, B, … in the order the stores come (only when they differ). */
function mixNames(results: readonly Result[]): Map<string, string> {
  // The whole mix first, where a store ran it.
  const mixes = [...new Set(results.filter(isValid).map(mixOf))].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : 0));
  if (mixes.length < 2) return new Map();
  return new Map(mixes.map((mix, i) => [mix, String.fromCharCode(65 + i)]));
}

function throughputCell(r: Result, mixes: ReadonlyMap<string, string>): string {
  if (!isValid(r)) return 'INVALID';
  const mix = mixes.get(mixOf(r));
  return `${formatCount(r.overall.throughputOpsPerSec)}${mix === undefined ? '' : ` (mix ${mix})`}`;
}

export function renderFileTable(results: readonly Result[]): string {
  const header = ['store', 'ops/s', 'operation', 'count', 'mean (µs)', 'p95 (µs)', 'p99 (µs)', 'not OK', 'checked'];
  const mixes = mixNames(results);
  const rows: string[][] = [];
  for (const r of results) {
    const verify = r.operations.find((o) => o.name === 'VERIFY');
    const checked = verify?.returns
      ? `${formatCount(verify.returns.OK ?? 0)}${verify.returns.UNEXPECTED_STATE ? ` (${verify.returns.UNEXPECTED_STATE} WRONG)` : ''}`
      : '0';
    const excluded = new Set((verdictOf(r).excluded ?? []).map((e) => e.operation));
    let first = true;
    for (const op of r.operations) {
      if (op.name === 'VERIFY' || op.name.startsWith('Intended-')) continue;
      rows.push([
        first ? storeLabel(r) : '',
        first ? throughputCell(r, mixes) : '',
        op.name,
        formatCount(op.latency.operations),
        op.latency.operations > 0 ? formatCount(op.latency.averageUs) : '-',
        percentile(r, op.name, 95),
        percentile(r, op.name, 99),
        excluded.has(op.name) ? 'UNSUPPORTED: left out' : notOk(op.returns),
        first ? checked : '',
      ]);
      first = false;
    }
  }
  return markdownTable(header, rows, ['left', 'right', 'left', 'right', 'right', 'right', 'right', 'right', 'right']);
}

/** Which stores ran which mix, when they differ: their ops/s compare only within a mix. */
function mixLine(results: readonly Result[]): string | undefined {
  const mixes = mixNames(results);
  if (mixes.size === 0) return undefined;
  const valid = results.filter(isValid);
  const each = [...mixes].map(([mix, name]) => {
    const stores = valid.filter((r) => mixOf(r) === mix).map(storeLabel);
    return `mix ${name} (${mix === '' ? 'every operation' : `without ${mix}`}): ${stores.join(', ')}`;
  });
  return (
    `ops/s is the rate of the mix each store ran, and the stores ran different mixes (a store leaves out what it refuses): ` +
    `compare ops/s only within a mix; ${each.join('; ')}. Each operation's row compares across every store that ran it`
  );
}

/** The servers, each store's translation of every query, the mixes, and the verdicts that are not plainly valid. */
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
  const mixes = mixLine(results);
  if (mixes !== undefined) lines.push(mixes);
  for (const r of results) {
    const verdict = verdictOf(r);
    if (!isValid(r)) lines.push(`${r.workload.name} on ${storeLabel(r)} is ${verdictLine(verdict)}`);
    else if ((verdict.excluded ?? []).length > 0)
      lines.push(
        `${r.workload.name} on ${storeLabel(r)} is ${verdictMark(verdict)}: what it refused is left out of its figures (the reasons are under its translations above), the rest measured and checked`,
      );
  }
  const cpu = describeMachineCpu(results);
  if (cpu !== undefined) lines.push(cpu);
  return lines.map((l) => (l.startsWith('  ') ? `  - ${l.trim()}\n` : `- ${l}\n`)).join('');
}
