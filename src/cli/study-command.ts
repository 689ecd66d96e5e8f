/**
 * `docbench study <preset> [--scale tiny|small|full] [--stores …]`: one command reproduces a
 * published study's design on the local stores (or --url / --docker ones), prints the paper's
 * figures (labelled as the paper's, from its hardware) beside docbench's, and writes the report.
 */
import { Option, type Command } from 'commander';
import { join } from 'node:path';
import { SCALES, STUDIES, type Scale } from '../study/presets.ts';
import { runStudy, studyPreset } from '../study/run-study.ts';
import { list } from './option-parsers.ts';
import { addTargetOptions } from './store-targets.ts';

export function registerStudyCommand(program: Command): void {
  const command = program
    .command('study')
    .description(`reproduce a published study's design, scaled to the machine: ${STUDIES.map((s) => s.name).join(', ')}`)
    .argument('<study>', STUDIES.map((s) => `${s.name}: ${s.title}`).join('; '))
    .addOption(new Option('--scale <scale>', 'tiny (a smoke run), small (the design on fewer records, minutes), full (the paper\'s sizes)').choices(SCALES).default('small'))
    .option('--stores <list>', "comma-separated stores (default: the paper's)", list);
  addTargetOptions(command, { several: true })
    .option('--out-dir <dir>', 'where results go (default: results/study-<study>-<scale>-<timestamp>)')
    .option('--docker', 'use the real servers started by `docbench up --docker`', false)
    .option('-q, --quiet', 'no status lines on stderr', false)
    .action(async (name: string, opts: { scale: Scale; stores?: string[]; url?: string[]; config?: string; outDir?: string; docker: boolean; quiet: boolean }) => {
      const preset = studyPreset(name);
      await runStudy(preset, {
        scale: opts.scale,
        ...(opts.stores !== undefined ? { stores: opts.stores } : {}),
        outDir: opts.outDir ?? join('results', `study-${preset.name}-${opts.scale}-${new Date().toISOString().replace(/[:.]/g, '-')}`),
        status: !opts.quiet,
        ...(opts.url !== undefined ? { url: opts.url } : {}),
        ...(opts.config !== undefined ? { config: opts.config } : {}),
        docker: opts.docker,
      });
    });
}
