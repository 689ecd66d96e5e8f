import type { Result } from '../results/schema.ts';
import { describeMachineCpu } from './machine-cpu.ts';
import { markdownTable } from './markdown.ts';
import { latencyPercentile } from './percentiles.ts';
import { isValid, verdictLine, verdictOf } from '../results/verdict.ts';

const COLUMNS = ['READ', 'UPDATE', 'INSERT', 'SCAN', 'READ-MODIFY-WRITE'] as const;

/**
 * One comparison table over many run results (workloads x stores): throughput, p99 per
 * operation and the count of failed operations, with stand-in servers marked. Markdown, so it
 * reads in a terminal and pastes into an issue as it is.
 */
export function renderComparisonTable(results: readonly Result[]): string {
  // Steal per run, when measured: a row's figures mean less the more the hypervisor took.
  const withSteal = results.some((r) => r.machineCpu !== undefined);
  const header = [
    'workload',
    'store',
    'ops/s',
    ...COLUMNS.map((c) => `${c === 'READ-MODIFY-WRITE' ? 'RMW' : c} p99 (us)`),
    'not OK',
    ...(withSteal ? ['CPU steal'] : []),
  ];
  const rows = results.map((r) => {
    // An invalid run's figures measure no store work: marked, never shown beside the others'.
    const valid = isValid(r);
    const cells = [
      // A run stopped early (a signal, --on-error abort, the error budget) is not a whole run.
      `${r.workload.name}${r.partial ? ' (partial)' : ''}`,
      `${r.store.name}${r.store.standIn ? ' (stand-in)' : ''}`,
      valid ? Math.round(r.overall.throughputOpsPerSec).toLocaleString('en-US') : 'INVALID',
    ];
    for (const column of COLUMNS) {
      const p99 = valid ? latencyPercentile([r], column, 99) : undefined;
      cells.push(p99 !== undefined ? p99.toLocaleString('en-US') : '');
    }
    const notOk = Object.entries(r.returns)
      .filter(([s]) => s !== 'OK')
      .map(([s, n]) => `${s}=${n}`);
    cells.push(notOk.length > 0 ? notOk.join(' ') : '0');
    if (withSteal) cells.push(r.machineCpu ? `${r.machineCpu.stealPercent}%` : '');
    return cells;
  });
  const out = [
    markdownTable(
      header,
      rows,
      header.map((_, i) => (i < 2 ? 'left' : 'right')),
    ).trimEnd(),
  ];
  const standIns = [
    ...new Map(results.filter((r) => r.store.standIn).map((r) => [r.store.name, r.store.standIn!])).entries(),
  ];
  for (const r of results.filter((x) => !isValid(x)))
    out.push(`\n${r.workload.name} on ${r.store.name} is ${verdictLine(verdictOf(r))}`);
  for (const r of results.filter((x) => x.partial))
    out.push(`\n${r.workload.name} on ${r.store.name} is PARTIAL (${r.partial!.reason}): ${r.partial!.detail}`);
  for (const [store, s] of standIns)
    out.push(`\n${store}: figures come from a STAND-IN, ${s.name}, not the real product. ${s.note}`);
  return `${out.join('\n')}\n`;
}

/** A short line naming the machine and the servers, printed under the table. */
export function renderRunContext(results: readonly Result[]): string {
  const first = results[0];
  if (!first) return '';
  const m = first.machine;
  const stores = [
    ...new Map(
      results.map((r) => [
        r.store.name,
        `${r.store.name}: ${r.store.server} ${r.store.serverVersion} via ${r.store.driver}`,
      ]),
    ).values(),
  ];
  return (
    [
      `machine: ${m.cpus} x ${m.cpuModel}, ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB, ${m.platform} ${m.release}, node ${m.node}, docbench ${m.docbench}`,
      ...stores,
      ...[describeMachineCpu(results)].filter((line) => line !== undefined),
    ].join('\n') + '\n'
  );
}
