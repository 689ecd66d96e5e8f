/**
 * A scenario's runs repeated in rounds, as one table: per cell (store, workload and its variants,
 * size, threads) the throughput over its rounds as a median with its 95% interval, n and CoV,
 * and per operation its count over every round, and the median over rounds of each round's mean,
 * p95 and p99 (each from that round's own histogram) with their intervals, all written by the
 * one formatter (src/stats/format.ts); under it, per workload, every store against the fastest
 * with its verdict. What a scenario's own table shows run by run, this shows cell by cell; each
 * round's figures stay in its result file and the HTML report.
 */
import { storeShort } from '../../src/results/product.ts';
import { summarizeCells } from '../../src/report/cell-statistics.ts';
import { cellsOf } from '../../src/report/groups.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { percentileOverRepetitions } from '../../src/report/percentiles.ts';
import { rankCells, renderRankings } from '../../src/report/rankings.ts';
import type { Result } from '../../src/results/schema.ts';
import { isValid } from '../../src/results/verdict.ts';
import { formatSummary } from '../../src/stats/format.ts';
import { summarize } from '../../src/stats/summary.ts';
import { formatCount } from './format.ts';

export interface RepeatedTableOptions {
  /** The operation rows a cell shows, in its runs' order. */
  shows: (row: string) => boolean;
  /** Columns that name a cell beside its store (workload, variant), from its first run. */
  labels?: readonly { header: string; of: (result: Result) => string }[];
}

function storeLabel(r: Result): string {
  return storeShort(r.store);
}

/** Calls that did not succeed, by status, over every round: `3 ERROR, 1 NOT_FOUND`; `0` when none. */
function notOk(runs: readonly Result[], row: string): string {
  const counts = new Map<string, number>();
  for (const r of runs)
    for (const [status, n] of Object.entries(r.operations.find((o) => o.name === row)?.returns ?? {}))
      if (status !== 'OK' && n > 0) counts.set(status, (counts.get(status) ?? 0) + n);
  return counts.size === 0 ? '0' : [...counts].map(([status, n]) => `${formatCount(n)} ${status}`).join(', ');
}

/** Answers checked over every round, and how many were wrong. */
function checked(runs: readonly Result[]): string {
  let ok = 0;
  let wrong = 0;
  for (const r of runs) {
    const verify = r.operations.find((o) => o.name === 'VERIFY')?.returns;
    ok += verify?.OK ?? 0;
    wrong += verify?.UNEXPECTED_STATE ?? 0;
  }
  return `${formatCount(ok)}${wrong > 0 ? ` (${wrong} WRONG)` : ''}`;
}

export function renderRepeatedTable(results: readonly Result[], options: RepeatedTableOptions): string {
  const labels = options.labels ?? [];
  const header = [
    'store',
    ...labels.map((l) => l.header),
    'runs',
    'ops/s median [95% CI] (n, CoV)',
    'operation',
    'count',
    'mean (µs) [95% CI]',
    'p95 (µs) [95% CI]',
    'p99 (µs) [95% CI]',
    'not OK',
    'checked',
  ];
  const cells = cellsOf(results);
  const statistics = summarizeCells(results);
  const rows: string[][] = [];
  for (const [i, cell] of cells.entries()) {
    const first = cell.runs[0]!;
    // The throughput is the valid runs' only (an invalid run's does not measure the mix it names);
    // each operation's figures are every round's that ran it, as the scenario's run-by-run table shows them.
    const invalid = cell.runs.filter((r) => !isValid(r)).length;
    const throughput = statistics[i]!.throughput.overRepetitions;
    const names = [
      ...new Set(cell.runs.flatMap((r) => r.operations.map((o) => o.name).filter((name) => options.shows(name)))),
    ];
    for (const [j, name] of names.entries()) {
      const means = summarize(
        cell.runs
          .map((r) => r.operations.find((o) => o.name === name)?.latency)
          .filter((l) => l !== undefined && l.operations > 0)
          .map((l) => l!.averageUs),
      );
      rows.push([
        j === 0 ? storeLabel(first) : '',
        ...labels.map((l) => (j === 0 ? l.of(first) : '')),
        j === 0 ? `${cell.runs.length}${invalid > 0 ? ` (${invalid} INVALID)` : ''}` : '',
        j === 0 ? (throughput.n > 0 ? formatSummary(throughput) : 'INVALID') : '',
        name,
        formatCount(
          cell.runs.reduce((n, r) => n + (r.operations.find((o) => o.name === name)?.latency.operations ?? 0), 0),
        ),
        formatSummary(means, { brief: true }) || '-',
        formatSummary(percentileOverRepetitions(cell.runs, name, 95), { brief: true }) || '-',
        formatSummary(percentileOverRepetitions(cell.runs, name, 99), { brief: true }) || '-',
        notOk(cell.runs, name),
        j === 0 ? checked(cell.runs) : '',
      ]);
    }
  }
  const table = markdownTable(
    header,
    rows,
    header.map((h, i) => (i <= labels.length || h === 'operation' ? 'left' : 'right')),
  );
  const lines = [
    table.trimEnd(),
    '',
    "A repeated cell shows the median over its rounds with its 95% confidence interval [low, high], n and the coefficient of variation: its throughput over the rounds whose verdict is valid, a latency figure over every round that ran the operation (the median of each round's own mean, p95 and p99, each from that round's histogram); count, not OK and checked add up every round (docs/statistics.md).",
  ];
  // Verdicts where a workload ran on more than one store: one store has nothing to be ranked against.
  const rankings = rankCells(statistics.filter((c) => c.phase === 'run'));
  if (rankings.some((w) => w.cells.length > 1)) lines.push('', renderRankings(rankings).trimEnd());
  return `${lines.join('\n')}\n`;
}
