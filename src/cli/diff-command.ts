/**
 * `docbench diff BASE NEW [--max-regression 10%] [--min-effect 5%] [--json]`
 *
 * Compares two sets of results (result files or folders) cell by cell: each figure's ratio
 * NEW/BASE with its 95% confidence interval and a verdict (report/diff.ts, docs/statistics.md).
 * Exit 0 when nothing regressed by --max-regression or more with significance, 1 when something
 * did, 2 on bad input: what a CI job runs against yesterday's result.
 */
import { Option, type Command } from 'commander';
import { ExitStatus } from './exit-status.ts';
import { percentage } from '../common/option-parsers.ts';
import type { DiffFigures } from '../report/diff.ts';

// The choices of --figures (a type import only: the diff itself loads when the command runs).
const DIFF_FIGURES = ['all', 'throughput', 'latency'] as const satisfies readonly DiffFigures[];

interface DiffFlags {
  figures: DiffFigures;
  maxRegression: number;
  minEffect: number;
  json: boolean;
}

export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description(
      'compare results cell by cell: each figure NEW/BASE with its 95% interval and a verdict; exit 1 when something regressed by --max-regression or more (a CI check against a baseline), 2 on bad input',
    )
    .argument('<base>', 'the baseline: a result file, or a folder searched for them')
    .argument('<new>', 'the results to check: a result file, or a folder searched for them')
    .addOption(
      new Option(
        '--max-regression <percent>',
        'fail (exit 1) when a figure is shown worse by this much: throughput lower, a latency higher',
      )
        .argParser(percentage('--max-regression'))
        .default(0.1, '10%'),
    )
    .addOption(
      new Option(
        '--min-effect <percent>',
        'call a difference faster or slower only from this size on, even when the interval excludes 1',
      )
        .argParser(percentage('--min-effect'))
        .default(0.05, '5%'),
    )
    .addOption(
      new Option(
        '--figures <which>',
        'the figures compared: all (throughput, p50 and p99 of each operation), throughput, or latency',
      )
        .choices(DIFF_FIGURES)
        .default('all'),
    )
    .option('--json', 'print JSON for a pipeline instead of the table', false)
    .action(async (base: string, next: string, opts: DiffFlags) => {
      const { runDiff } = await import('../report/diff-run.ts');
      const { output, exitCode } = runDiff(base, next, opts);
      process.stdout.write(output);
      if (exitCode !== 0) throw new ExitStatus(exitCode);
    });
}
