/**
 * `docbench study <preset> [--scale tiny|small|full] [--variant name] [--stores …] [--plan]`: one
 * command reproduces a published study's design on the local stores (or --url / --docker ones),
 * prints first how the run differs from the paper, then the paper's figures (labelled as the
 * paper's, from its hardware) beside docbench's, and writes the report. `--plan` prints what it
 * would run (and what a local stand-in cannot), the deviations and each scale's cost, and runs
 * nothing; `--details` adds every design item, the published figures and the paper's arithmetic.
 */
import { Option, type Command } from 'commander';
import { join } from 'node:path';
import { SCALES, type Scale } from '../study/scales.ts';
import { STUDY_TITLES } from '../study/study-titles.ts';
import { list, positiveInteger } from '../common/option-parsers.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { UsageError } from './errors.ts';

export function registerStudyCommand(program: Command): void {
  const command = program
    .command('study')
    .description(
      `reproduce a published study's design, or say exactly how a run differs from it: ${Object.keys(STUDY_TITLES).join(', ')}`,
    )
    .argument(
      '<study>',
      Object.entries(STUDY_TITLES)
        .map(([name, title]) => `${name}: ${title}`)
        .join('; '),
    )
    .addOption(
      new Option(
        '--scale <scale>',
        "tiny (a smoke run), small (the paper's shape on fewer records, minutes), full (the paper's sizes exactly, refused when this machine cannot hold them)",
      )
        .choices(SCALES)
        .default('small'),
    )
    .option('--variant <name>', "a named variant of the preset (see --plan), e.g. altoros2022's ordered-pagination")
    .option(
      '--plan',
      "print the runs and the commands that run them, what a local stand-in cannot run, how the run differs from the paper and each scale's cost; run nothing",
      false,
    )
    .option(
      '--details',
      "with --plan: every design item beside the paper's words, its published figures and its arithmetic",
      false,
    )
    .option('--stores <list>', "comma-separated stores (default: the paper's that docbench has)", list)
    .option(
      '--nodes <n>',
      'run the stores whose local target can run a cluster (redis, cassandra) on a local cluster of n nodes (docbench up <store> --nodes n); the deviations say when that is fewer than the paper',
      positiveInteger('--nodes'),
    )
    .option(
      '--repetitions <n>',
      "runs of each cell, in interleaved rounds (every cell once per round, the stores in a fresh random order each round), instead of the preset's (e.g. Carvalho's 3); a deviation when it differs",
      positiveInteger('--repetitions'),
    );
  addTargetOptions(command, { several: true })
    .option('--out-dir <dir>', 'where results go (default: results/study-<study>-<scale>-<timestamp>)')
    .option('--docker', 'use the real servers started by `docbench up --docker`', false)
    .option('-q, --quiet', 'no status lines on stderr', false)
    .action(
      async (
        name: string,
        opts: {
          scale: Scale;
          variant?: string;
          plan: boolean;
          details: boolean;
          stores?: string[];
          nodes?: number;
          repetitions?: number;
          url?: string[];
          config?: string;
          outDir?: string;
          docker: boolean;
          quiet: boolean;
        },
      ) => {
        if (opts.details && !opts.plan) throw new UsageError('--details goes with --plan (a run prints every detail)');
        const { planStudy, runStudy, studyPreset } = await import('../study/run-study.ts');
        const preset = studyPreset(name);
        const options = {
          scale: opts.scale,
          ...(opts.stores !== undefined ? { stores: opts.stores } : {}),
          ...(opts.variant !== undefined ? { variant: opts.variant } : {}),
          ...(opts.nodes !== undefined ? { nodes: opts.nodes } : {}),
          ...(opts.repetitions !== undefined ? { repetitions: opts.repetitions } : {}),
          outDir:
            opts.outDir ??
            join(
              'results',
              `study-${preset.name}-${opts.scale}${opts.variant ? `-${opts.variant}` : ''}-${new Date().toISOString().replace(/[:.]/g, '-')}`,
            ),
          status: !opts.quiet,
          ...(opts.url !== undefined ? { url: opts.url } : {}),
          ...(opts.config !== undefined ? { config: opts.config } : {}),
          docker: opts.docker,
        };
        if (opts.plan) {
          process.stdout.write(`${await planStudy(preset, options, opts.details)}\n`);
          return;
        }
        await runStudy(preset, options);
      },
    );
}
