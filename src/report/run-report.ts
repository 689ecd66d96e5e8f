/** `docbench report`'s work: load saved results, merge them when asked, write the renderings. */
import { mergeResults } from '../results/merge.ts';
import type { Result } from '../results/schema.ts';
import { writeResult } from '../results/write.ts';
import { loadResults } from './load-results.ts';
import { writeReports, type ReportOutputs } from './report-files.ts';

export interface ReportOptions extends ReportOutputs {
  merge?: string;
  title?: string;
}

export function runReport(paths: readonly string[], options: ReportOptions): { results: Result[]; written: string[] } {
  const loaded = loadResults(paths);
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
    options.merge === undefined
  )
    outputs.html = 'report.html';
  written.push(...writeReports(results, outputs, options.title !== undefined ? { title: options.title } : {}));
  return { results, written };
}
