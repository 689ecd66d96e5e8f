/**
 * `docbench compare`: its options and registration; the comparison itself is src/compare/.
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import type { OnError } from '../common/fault-policy.ts';
import { parseOnError } from '../common/fault-policy.ts';
import {
  collect,
  list,
  nonNegativeInteger,
  nonNegativeNumber,
  positiveInteger,
  percentage,
  processesSetting,
  repetitionsSetting,
} from '../common/option-parsers.ts';
import { COMPARE_DEFAULTS } from '../compare/defaults.ts';
import type { Repetitions } from '../compare/rounds.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { ON_ERROR_HELP, PROCESSES_HELP } from './shared-options.ts';

export function registerCompareCommand(program: Command): void {
  const compare = program
    .command('compare')
    .description(
      'the main job: workloads A–H on several stores, in interleaved rounds; each cell with its interval, each difference with its verdict',
    )
    .option(
      '--stores <list>',
      `comma-separated stores (default: the config file's, else ${COMPARE_DEFAULTS.stores.join(',')})`,
      list,
    );
  addTargetOptions(compare, { several: true })
    .option('--workloads <list>', 'comma-separated workloads (a … h or file paths)', list, COMPARE_DEFAULTS.workloads)
    .option(
      '-P, --workload <file>',
      'extra workload file applied to every workload (e.g. record-10kb); repeatable',
      collect,
      [],
    )
    .option(
      '-p, --property <key=value>',
      `property override; repeatable (defaults: ${COMPARE_DEFAULTS.overrides.join(' ')})`,
      collect,
      [],
    )
    .option('--threads <n>', 'threadcount', positiveInteger('--threads'))
    .option('--target <ops>', 'target operations per second', nonNegativeNumber('--target'))
    .option('--processes <n|auto>', PROCESSES_HELP, processesSetting('--processes'))
    .option(
      '--repetitions <n|auto>',
      `rounds: every store runs every workload once per round, the stores in a fresh random order each round; auto: rounds until every cell's throughput is known within ±${Math.round(COMPARE_DEFAULTS.precision * 100)}%, at most ${COMPARE_DEFAULTS.maxRounds} (default ${COMPARE_DEFAULTS.repetitions})`,
      repetitionsSetting('--repetitions'),
    )
    .option(
      '--order-seed <n>',
      "seed of the rounds' store orders (default: drawn; every result records it)",
      nonNegativeInteger('--order-seed'),
    )
    .option(
      '--min-effect <percent>',
      `the smallest difference in percent called faster or slower, and only when its 95% interval excludes a ratio of 1 (default ${COMPARE_DEFAULTS.minEffectPercent})`,
      percentage('--min-effect'),
    )
    .option('--out-dir <dir>', 'where result files go (default: results/<timestamp>)')
    .option('--on-error <mode>', ON_ERROR_HELP, parseOnError, 'continue' as OnError)
    .option('--docker', 'use the real servers started by `docbench up --docker`', false)
    .option('-q, --quiet', 'no status lines on stderr', false)
    .action(
      async (opts: {
        stores?: string[];
        url?: string[];
        config?: string;
        workloads: string[];
        workload: string[];
        property: string[];
        threads?: number;
        target?: number;
        processes?: ProcessesSetting;
        repetitions?: Repetitions;
        orderSeed?: number;
        minEffect?: number;
        outDir?: string;
        onError: OnError;
        docker: boolean;
        quiet: boolean;
      }) => {
        const { runComparison } = await import('../compare/run-compare.ts');
        await runComparison({
          ...(opts.stores !== undefined ? { stores: opts.stores } : {}),
          ...(opts.url !== undefined ? { url: opts.url } : {}),
          ...(opts.config !== undefined ? { config: opts.config } : {}),
          workloads: opts.workloads,
          extraFiles: opts.workload,
          overrides: opts.property,
          ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
          ...(opts.target !== undefined ? { target: opts.target } : {}),
          ...(opts.processes !== undefined ? { processes: opts.processes } : {}),
          ...(opts.repetitions !== undefined ? { repetitions: opts.repetitions } : {}),
          ...(opts.orderSeed !== undefined ? { orderSeed: opts.orderSeed } : {}),
          ...(opts.minEffect !== undefined ? { minEffect: opts.minEffect } : {}),
          outDir: opts.outDir ?? join('results', new Date().toISOString().replace(/[:.]/g, '-')),
          status: !opts.quiet,
          docker: opts.docker,
          onError: opts.onError,
        });
      },
    );
}
