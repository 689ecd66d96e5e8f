import type { Result } from '../results/schema.ts';
import { anyRepeated, summarizeCell } from '../report/cell-statistics.ts';
import { cellsOf } from '../report/groups.ts';
import { contextLines } from '../report/context.ts';
import { markdownTable } from '../report/markdown.ts';
import { rankCells, renderRankings } from '../report/rankings.ts';
import { isValid, verdictLine, verdictOf } from '../results/verdict.ts';
import { formatSummary, ONE_RUN_NOTE } from '../stats/format.ts';
import { summarize } from '../stats/summary.ts';

/**
 * A sweep's table: one line per cell (store, workload, records, threads) with its throughput and
 * runtime (the figure Carvalho et al. 2023 tabulate) over its rounds: the median with its 95%
 * confidence interval, n and CoV, written by the one formatter every output uses (a single run:
 * the bare figure); under it, per workload and setting, each store against the fastest with its
 * verdict. `unit`: what the records column counts (a scenario's customers, documents).
 */
export function renderSweepSummary(results: readonly Result[], unit = 'records'): string {
  const cells = cellsOf(results.filter((r) => r.phase === 'run')).sort(
    (a, b) =>
      a.workload.localeCompare(b.workload) ||
      a.series.localeCompare(b.series) ||
      (a.records ?? 0) - (b.records ?? 0) ||
      (a.threads ?? 0) - (b.threads ?? 0),
  );
  const statistics = cells.map(summarizeCell);
  const repeated = anyRepeated(statistics);
  const header = [
    'workload',
    'store',
    unit,
    'threads',
    'runs',
    repeated ? 'ops/s median [95% CI] (n, CoV)' : 'ops/s',
    repeated ? 'runtime s median [95% CI]' : 'runtime s',
    'not OK',
  ];
  const rows = cells.map((all, i) => {
    const notOk = all.runs.reduce(
      (n, r) =>
        n +
        Object.entries(r.returns)
          .filter(([s]) => s !== 'OK')
          .reduce((m, [, k]) => m + (k ?? 0), 0),
      0,
    );
    // Figures of the valid runs only; a cell with none is marked, not ranked.
    const valid = all.runs.filter(isValid);
    const invalid = all.runs.length - valid.length;
    const runs = invalid > 0 ? `${all.runs.length} (${invalid} INVALID)` : String(all.runs.length);
    const runtime = summarize(valid.map((r) => r.overall.runtimeMs / 1000));
    const figures =
      valid.length > 0
        ? [formatSummary(statistics[i]!.throughput.overRepetitions), formatSummary(runtime, { digits: 2, brief: true })]
        : ['INVALID', ''];
    return [
      all.workload,
      all.series,
      all.records?.toLocaleString('en-US') ?? '',
      String(all.threads ?? ''),
      runs,
      ...figures,
      String(notOk),
    ];
  });
  const invalid = results
    .filter((r) => !isValid(r))
    .map((r) => `${r.workload.name} on ${r.store.name}: ${verdictLine(verdictOf(r))}`);
  const invalidLines = [...new Set(invalid)].map((line) => `\n${line}`).join('');
  // Verdicts where a workload ran on more than one store at a setting: one store has nothing to be ranked against.
  const rankings = rankCells(statistics);
  const ranked = rankings.some((w) => w.cells.length > 1) ? `\n\n${renderRankings(rankings).trimEnd()}` : '';
  const statisticsLines = repeated
    ? `\nA repeated cell shows the median over its rounds with its 95% confidence interval [low, high], n and the coefficient of variation (docs/statistics.md).${ranked}\n`
    : `\n${ONE_RUN_NOTE}\n`;
  return `${markdownTable(
    header,
    rows,
    header.map((_, i) => (i < 2 ? 'left' : 'right')),
  )}${invalidLines}${statisticsLines}\n${contextLines(results).join('\n')}\n`;
}
