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
  // The baseline is read before anything is written: a bad one fails the command with nothing half done.
  const baselineResults =
    options.baseline !== undefined ? loadResults([options.baseline]).map((l) => l.result) : undefined;
  let results = loaded.map((l) => l.result);
  const written: string[] = [];
  if (options.merge !== undefined) {
    const merged = mergeResults(results);
    writeResult(options.merge, merged);
    written.push(options.merge);
    results = [merged];
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
  const diff = baselineResults ? diffResults(baselineResults, results) : undefined;
  written.push(
    ...writeReports(results, outputs, {
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(diff ? { baseline: { label: options.baseline!, diff } } : {}),
    }),
  );
  return { results, written, ...(diff ? { baseline: diff } : {}) };
}
