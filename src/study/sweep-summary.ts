import type { Result } from '../results/schema.ts';
import { cellsOf, runtimeSecondsOf, throughputOf } from '../report/groups.ts';
import { spreadText } from '../report/html-tables.ts';
import { contextLines } from '../report/context.ts';
import { markdownTable } from '../report/markdown.ts';
import { isValid, verdictLine, verdictOf } from '../results/verdict.ts';

/**
 * A sweep's table: one line per cell (store, workload, records, threads) with the median and
 * min–max of its repetitions: throughput and runtime (the figure Carvalho et al. 2023 tabulate).
 * `unit`: what the records column counts (a scenario's customers, documents).
 */
export function renderSweepSummary(results: readonly Result[], unit = 'records'): string {
  const cells = cellsOf(results.filter((r) => r.phase === 'run')).sort(
    (a, b) =>
      a.workload.localeCompare(b.workload) ||
      a.series.localeCompare(b.series) ||
      (a.records ?? 0) - (b.records ?? 0) ||
      (a.threads ?? 0) - (b.threads ?? 0),
  );
  const header = [
    'workload',
    'store',
    unit,
    'threads',
    'runs',
    'ops/s median [min–max]',
    'runtime s median [min–max]',
    'not OK',
  ];
  const rows = cells.map((all) => {
    const notOk = all.runs.reduce(
      (n, r) =>
        n +
        Object.entries(r.returns)
          .filter(([s]) => s !== 'OK')
          .reduce((m, [, k]) => m + (k ?? 0), 0),
      0,
    );
    // Figures of the valid runs only; a cell with none is marked, not ranked.
    const c = { ...all, runs: all.runs.filter(isValid) };
    const invalid = all.runs.length - c.runs.length;
    const runs = invalid > 0 ? `${all.runs.length} (${invalid} INVALID)` : String(all.runs.length);
    const figures =
      c.runs.length > 0 ? [spreadText(throughputOf(c)), spreadText(runtimeSecondsOf(c), 2)] : ['INVALID', ''];
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
  return `${markdownTable(
    header,
    rows,
    header.map((_, i) => (i < 2 ? 'left' : 'right')),
  )}${invalidLines}\n${contextLines(results).join('\n')}\n`;
}
