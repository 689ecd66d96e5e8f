import type { Result } from '../results/schema.ts';
import { DEFAULT_MIN_EFFECT } from '../stats/ratio.ts';
import { formatSummary, ONE_RUN_NOTE } from '../stats/format.ts';
import { anyRepeated, latencyFigure, summarizeCell } from './cell-statistics.ts';
import { cellsOf } from './groups.ts';
import { describeMachineCpu } from './machine-cpu.ts';
import { markdownTable } from './markdown.ts';
import { rankCells, renderRankings } from './rankings.ts';
import { compatibleLines, storeShort } from '../results/product.ts';
import { isValid, verdictLine, verdictOf } from '../results/verdict.ts';

const COLUMNS = ['READ', 'UPDATE', 'INSERT', 'SCAN', 'READ-MODIFY-WRITE'] as const;

export interface ComparisonTableOptions {
  /** The practical threshold of a verdict, a fraction (default 0.05). */
  minEffect?: number;
}

/**
 * One comparison table over many run results (workloads x stores): throughput, p99 per
 * operation and the count of failed operations, with stand-in servers marked. One row per cell:
 * a cell run once shows its figures as they are; a repeated cell shows the median over its
 * repetitions with the 95% interval, n and the coefficient of variation (each repetition's p99
 * from its own histogram), and under the table each workload's stores are ranked against the
 * fastest with a verdict (rankings.ts). Markdown, so it reads in a terminal and pastes into an
 * issue as it is.
 */
export function renderComparisonTable(results: readonly Result[], options: ComparisonTableOptions = {}): string {
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const cells = cellsOf(results);
  const statistics = cells.map(summarizeCell);
  const repeated = anyRepeated(statistics);
  // Steal per run, when measured: a row's figures mean less the more the hypervisor took.
  const withSteal = results.some((r) => r.machineCpu !== undefined);
  const header = [
    'workload',
    'store',
    repeated ? 'ops/s median [95% CI] (n, CoV)' : 'ops/s',
    // The same p99 headers either way: a repeated cell's figure is its median with the interval beside it, as the note under the table says.
    ...COLUMNS.map((c) => `${c === 'READ-MODIFY-WRITE' ? 'RMW' : c} p99 (us)`),
    'not OK',
    ...(withSteal ? ['CPU steal'] : []),
  ];
  const rows = cells.map((cell, i) => {
    const first = cell.runs[0]!;
    const stats = statistics[i]!;
    // An invalid run's figures measure no store work: left out of the cell's figures, never shown beside the others'.
    const valid = stats.throughput.overRepetitions.n > 0;
    const row = [
      // A run stopped early (a signal, --on-error abort, the error budget) is not a whole run.
      `${first.workload.name}${stats.partial > 0 ? ' (partial)' : ''}`,
      storeShort(first.store),
      valid ? formatSummary(stats.throughput.overRepetitions) : 'INVALID',
    ];
    for (const column of COLUMNS) {
      const p99 = stats.latency.find((f) => f.figure === latencyFigure(column, 99));
      row.push(p99 ? formatSummary(p99.overRepetitions, { brief: true }) : '');
    }
    const notOk = new Map<string, number>();
    for (const r of cell.runs)
      for (const [s, n] of Object.entries(r.returns)) if (s !== 'OK') notOk.set(s, (notOk.get(s) ?? 0) + (n ?? 0));
    row.push(notOk.size > 0 ? [...notOk].map(([s, n]) => `${s}=${n}`).join(' ') : '0');
    if (withSteal) row.push(stealText(cell.runs));
    return row;
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
  for (const line of compatibleLines(results.map((r) => r.store))) out.push(`\n${line}`);
  if (repeated) {
    out.push(
      `\nA repeated cell shows the median over its repetitions with its 95% confidence interval [low, high], n and the coefficient of variation; its p99 is the median of each repetition's own p99 (from that run's histogram), with its interval (the p99 of all repetitions' samples together is in the HTML report's runs table). docs/statistics.md says how.`,
    );
    out.push(`\n${renderRankings(rankCells(statistics, { minEffect }), minEffect).trimEnd()}`);
  } else out.push(`\n${ONE_RUN_NOTE}`);
  return `${out.join('\n')}\n`;
}

/** A cell's CPU steal: one run's, or the range over its repetitions. */
function stealText(runs: readonly Result[]): string {
  const steal = runs.map((r) => r.machineCpu?.stealPercent).filter((v): v is number => v !== undefined);
  if (steal.length === 0) return '';
  const low = Math.min(...steal);
  const high = Math.max(...steal);
  return low === high ? `${low}%` : `${low}–${high}%`;
}

/** A short line naming the machine and the servers, printed under the table. */
export function renderRunContext(results: readonly Result[]): string {
  const first = results[0];
  if (!first) return '';
  const m = first.machine;
  const stores = [
    ...new Map(
      results.map((r) => [
        storeShort(r.store),
        `${storeShort(r.store)}: ${r.store.server} ${r.store.serverVersion} via ${r.store.driver}`,
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
