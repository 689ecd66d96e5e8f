import type { Result } from '../results/schema.ts';
import { cellsOf, runtimeSecondsOf, throughputOf } from '../report/groups.ts';
import { spreadText } from '../report/html-tables.ts';
import { contextLines } from '../report/context.ts';
import { markdownTable } from '../report/markdown.ts';

/**
 * A sweep's table: one line per cell (store, workload, records, threads) with the median and
 * min–max of its repetitions: throughput and runtime (the figure Carvalho et al. 2023 tabulate).
 */
export function renderSweepSummary(results: readonly Result[]): string {
  const cells = cellsOf(results.filter((r) => r.phase === 'run')).sort(
    (a, b) => a.workload.localeCompare(b.workload) || a.series.localeCompare(b.series) || (a.records ?? 0) - (b.records ?? 0) || (a.threads ?? 0) - (b.threads ?? 0),
  );
  const header = ['workload', 'store', 'records', 'threads', 'runs', 'ops/s median [min–max]', 'runtime s median [min–max]', 'not OK'];
  const rows = cells.map((c) => {
    const notOk = c.runs.reduce((n, r) => n + Object.entries(r.returns).filter(([s]) => s !== 'OK').reduce((m, [, k]) => m + (k ?? 0), 0), 0);
    return [c.workload, c.series, c.records?.toLocaleString('en-US') ?? '', String(c.threads ?? ''), String(c.runs.length), spreadText(throughputOf(c)), spreadText(runtimeSecondsOf(c), 2), String(notOk)];
  });
  return `${markdownTable(header, rows, header.map((_, i) => (i < 2 ? 'left' : 'right')))}\n${contextLines(results).join('\n')}\n`;
}
