/** `docbench report`'s work: load saved results, merge them when asked, write the renderings. */
import { mergeResults } from '../results/merge.ts';
import type { Result } from '../results/schema.ts';
import { writeResult } from '../results/write.ts';
import { diffResults, type DiffReport } from './diff.ts';
import { loadResults } from './load-results.ts';
import { writeReports, type ReportOutputs } from './report-files.ts';

export interface ReportOptions extends ReportOutputs {
  merge?: string;
  title?: string;
  /** Result files or a folder to diff the results against (diff.ts), shown in the report. */
  baseline?: string;
}

export function runReport(
  paths: readonly string[],
  options: ReportOptions,
): { results: Result[]; written: string[]; baseline?: DiffReport } {
  const loaded = loadResults(paths);
  let results = loaded.map((l) => l.result);
  const merged = options.merge !== undefined ? mergeResults(results) : undefined;
  if (merged) results = [merged];
  // The baseline diff is made before anything is written: a bad baseline fails the command with nothing half done.
  const diff =
    options.baseline !== undefined
      ? diffResults(
          loadResults([options.baseline]).map((l) => l.result),
          results,
        )
      : undefined;
  const written: string[] = [];
  if (merged) {
    writeResult(options.merge!, merged);
    written.push(options.merge!);
  }
  const outputs: ReportOutputs = { ...options };
  // With nothing asked for, the HTML page is what `report` is for.
  if (
    options.html === undefined &&
    options.csv === undefined &&
    options.md === undefined &&
    options.json === undefined &&
    options.merge === undefined
  )
    outputs.html = 'report.html';
  written.push(
    ...writeReports(results, outputs, {
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(diff ? { baseline: { label: options.baseline!, diff } } : {}),
    }),
  );
  return { results, written, ...(diff ? { baseline: diff } : {}) };
}
