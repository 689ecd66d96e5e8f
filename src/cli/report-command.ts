/**
 * `docbench report <result files or folders…> [--html out.html] [--csv out.csv] [--md out.md] [--merge out.json]`
 *
 * Renders saved results: one self-contained HTML page (charts inlined, opens offline), a CSV of
 * every row, the Markdown comparison table. `--merge` first combines results of one workload run
 * from several client machines into one exact result (merged histograms, throughput summed over
 * the common window) and writes it; the renderings then show the merged result.
 */
import type { Command } from 'commander';
import { mergeResults } from '../results/merge.ts';
import type { Result } from '../results/schema.ts';
import { writeResult } from '../results/write.ts';
import { loadResults } from '../report/load-results.ts';
import { writeReports, type ReportOutputs } from '../report/report-files.ts';

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
  if (options.html === undefined && options.csv === undefined && options.md === undefined && options.merge === undefined) outputs.html = 'report.html';
  written.push(...writeReports(results, outputs, options.title !== undefined ? { title: options.title } : {}));
  return { results, written };
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('render saved results: a self-contained HTML report (charts inlined), CSV, Markdown; --merge combines the results of several client machines exactly')
    .argument('<paths...>', 'result files, or folders searched for them')
    .option('--html <file>', 'write the HTML report here (default report.html when no other output is named)')
    .option('--csv <file>', 'write one CSV line per result and operation row')
    .option('--md <file>', 'write the Markdown comparison table')
    .option('--merge <file>', 'merge the results (one workload run, several client machines) into one exact result written here')
    .option('--title <text>', "the HTML report's title")
    .action((paths: string[], opts: ReportOptions) => {
      const { results, written } = runReport(paths, opts);
      process.stderr.write(`report: ${results.length} result${results.length === 1 ? '' : 's'}\n`);
      for (const path of written) process.stdout.write(`${path}\n`);
    });
}
