/**
 * `docbench report <result files or folders…> [--html out.html] [--csv out.csv] [--md out.md] [--json out.json] [--merge out.json] [--baseline path]`
 *
 * Renders saved results: one self-contained HTML page (charts inlined, opens offline), a CSV of
 * every row, the Markdown comparison table. `--merge` first combines results of one workload run
 * from several client machines into one exact result (merged histograms, throughput summed over
 * the common window) and writes it; the renderings then show the merged result. `--json` writes
 * each cell's statistics over its repetitions; `--baseline` adds a diff against earlier results.
 */
import type { Command } from 'commander';
import type { ReportOptions } from '../report/run-report.ts';

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'render saved results: a self-contained HTML report (charts inlined), CSV, Markdown; --merge combines the results of several client machines exactly',
    )
    .argument('<paths...>', 'result files, or folders searched for them')
    .option('--html <file>', 'write the HTML report here (default report.html when no other output is named)')
    .option('--csv <file>', 'write one CSV line per result and operation row')
    .option('--md <file>', 'write the Markdown comparison table')
    .option(
      '--json <file>',
      "write each cell's statistics over its repetitions (median, 95% interval, n, CoV), the rankings and any baseline diff as JSON",
    )
    .option(
      '--baseline <path>',
      'result files or a folder to compare against: each figure NEW/BASE with its 95% interval and verdict, in the report (docbench diff prints it and sets the exit code)',
    )
    .option(
      '--merge <file>',
      'merge the results (one workload run, several client machines) into one exact result written here',
    )
    .option('--title <text>', "the HTML report's title")
    .action(async (paths: string[], opts: ReportOptions) => {
      const { runReport } = await import('../report/run-report.ts');
      const { results, written, baseline } = runReport(paths, opts);
      process.stderr.write(`report: ${results.length} result${results.length === 1 ? '' : 's'}\n`);
      if (baseline)
        process.stderr.write(
          `report: against ${opts.baseline}: ${baseline.regressions} regression${baseline.regressions === 1 ? '' : 's'} of ${Math.round(baseline.maxRegression * 100)}% or more that these runs show\n`,
        );
      for (const path of written) process.stdout.write(`${path}\n`);
    });
}
