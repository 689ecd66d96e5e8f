/**
 * `docbench sweep`: stores × workloads × record counts × thread counts, each cell repeated in
 * interleaved rounds (the median over them with its 95% interval), resumable (run the same command with the same --out-dir), with a
 * progress bar and ETA across the whole sweep; the summary table and the HTML report at the end.
 * `--scenario <name|file>` sweeps a scenario instead of YCSB: its sizes, its workloads, each
 * cell its own docbench command (the scenario's row in the SCENARIOS table says which).
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import { LOCAL_STORE_NAMES } from '../stores/stores.ts';
import type { SweepPlanInput } from '../study/sweep-plan.ts';
import { SWEEP_DEFAULTS } from '../study/sweep-defaults.ts';
import { SCENARIO_NAMES, scenarioEntry, scenarioName } from '../../scenarios/scenarios.ts';
import { collect, list, nonNegativeInteger, positiveInteger, suffixedCount } from '../common/option-parsers.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { UsageError } from './errors.ts';

/** `10k`, `1m`, `5000`: a count with an optional k / m suffix. */
export function parseCount(text: string, flag: string): number {
  const n = suffixedCount(text);
  if (n === undefined)
    throw new UsageError(`${flag}: expected whole numbers >= 1 such as 1000, 10k or 1m, got "${text}"`);
  return n;
}

export function counts(flag: string) {
  return (value: string): number[] => {
    const parts = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) throw new UsageError(`${flag} is empty`);
    return parts.map((p) => parseCount(p, flag));
  };
}

interface SweepFlags {
  stores?: string[];
  url?: string[];
  config?: string;
  scenario?: string;
  workloads: string[];
  records: number[];
  sizes?: number[];
  threads: number[];
  repetitions: number;
  orderSeed?: number;
  workload: string[];
  property: string[];
  reload: boolean;
  outDir?: string;
  docker: boolean;
  quiet: boolean;
}

export function registerSweepCommand(program: Command): void {
  const command = program
    .command('sweep')
    .description(
      'stores × workloads × record counts × thread counts, each cell repeated in interleaved rounds (median, 95% interval); resumable; progress with ETA; HTML report',
    )
    .option(
      '--stores <list>',
      `comma-separated stores (default: the config file's, else ${LOCAL_STORE_NAMES.join(',')})`,
      list,
    );
  addTargetOptions(command, { several: true })
    .option(
      '--scenario <name|file>',
      `sweep a scenario instead of YCSB: ${SCENARIO_NAMES.filter((n) => scenarioEntry(n).isFile === undefined && scenarioEntry(n).sweep !== undefined).join(', ')}, or a scenario file (.yaml, .yml, .json)`,
    )
    .option(
      '--workloads <list>',
      "comma-separated workloads (a … h or file paths; with --scenario, the scenario's: default its own)",
      list,
      ['a', 'c'],
    )
    .option('--records <list>', 'record counts, e.g. 1k,10k,100k', counts('--records'), [1000])
    .option(
      '--sizes <list>',
      "with --scenario: its sizes (e-commerce: customers; persons: documents), e.g. 1k,10k; default the scenario's; a scenario file's size is its own",
      counts('--sizes'),
    )
    .option('--threads <list>', 'thread counts, e.g. 1,3,6', counts('--threads'), [1])
    .option(
      '--repetitions <n>',
      'rounds: every cell runs once per round, the stores (at each record count) in a fresh random order each round, each on a fresh load; the summary gives each cell its median with a 95% interval',
      positiveInteger('--repetitions'),
      1,
    )
    .option(
      '--order-seed <n>',
      "seed of the rounds' orders (default: drawn, kept in the sweep's state file for a resume, recorded in every result)",
      nonNegativeInteger('--order-seed'),
    )
    .option(
      '-P, --workload <file>',
      'extra workload file applied to every workload (e.g. record-10kb); repeatable',
      collect,
      [],
    )
    .option(
      '-p, --property <key=value>',
      `property for every cell; repeatable (defaults: ${SWEEP_DEFAULTS.join(' ')})`,
      collect,
      [],
    )
    .option(
      '--reload',
      "load afresh before every run (default: at each store's turn in a round, and before every run of an inserting workload)",
      false,
    )
    .option(
      '--out-dir <dir>',
      'where results go; an interrupted sweep resumes when run again with the same folder (default: results/sweep-<timestamp>)',
    )
    .option('--docker', 'use the real servers started by `docbench up --docker`', false)
    .option('-q, --quiet', 'no status lines on stderr (the sweep progress stays)', false)
    .action(async (opts: SweepFlags) => {
      const given = (key: string) => command.getOptionValueSource(key) === 'cli';
      // The sweep's work is loaded when it runs, not when the CLI starts (--help, --version).
      const [{ runSweep }, { defaultStores }, { loadConfig }] = await Promise.all([
        import('../study/sweep-run.ts'),
        import('../session/store-targets.ts'),
        import('../session/config-file.ts'),
      ]);
      const storesByDefault = (): string[] => defaultStores(loadConfig(opts.config), LOCAL_STORE_NAMES);
      const plan =
        opts.scenario !== undefined
          ? await scenarioPlanOf(opts.scenario, opts, given, storesByDefault)
          : ycsbPlanOf(opts, storesByDefault);
      await runSweep(plan, {
        outDir: opts.outDir ?? join('results', `sweep-${new Date().toISOString().replace(/[:.]/g, '-')}`),
        status: !opts.quiet,
        ...(opts.url !== undefined ? { url: opts.url } : {}),
        ...(opts.config !== undefined ? { config: opts.config } : {}),
        docker: opts.docker,
      });
    });
}

function ycsbPlanOf(opts: SweepFlags, storesByDefault: () => string[]): SweepPlanInput {
  if (opts.sizes !== undefined)
    throw new UsageError('--sizes: a YCSB sweep takes --records; --sizes is for --scenario');
  for (const key of opts.property) {
    if (/^(recordcount|threadcount)=/.test(key))
      throw new UsageError(`-p ${key}: a sweep sets it per cell; use --records / --threads`);
  }
  return {
    stores: opts.stores ?? storesByDefault(),
    workloads: opts.workloads,
    records: opts.records,
    threads: opts.threads,
    repetitions: opts.repetitions,
    ...(opts.orderSeed !== undefined ? { orderSeed: opts.orderSeed } : {}),
    extraFiles: opts.workload,
    overrides: opts.property,
    reload: opts.reload,
  };
}

async function scenarioPlanOf(
  scenario: string,
  opts: SweepFlags,
  given: (key: string) => boolean,
  storesByDefault: () => string[],
): Promise<SweepPlanInput> {
  if (given('records')) throw new UsageError('--records: a scenario sweep takes --sizes');
  if (opts.workload.length > 0) throw new UsageError('-P: a scenario sweep takes no YCSB workload files');
  const runsOn = scenarioEntry(scenarioName(scenario)).stores() as readonly string[];
  const { scenarioPlan } = await import('../study/scenario-sweep-plan.ts');
  const plan = scenarioPlan({
    scenario,
    stores: opts.stores ?? storesByDefault().filter((s) => runsOn.includes(s)),
    workloads: given('workloads') ? opts.workloads : undefined,
    sizes: opts.sizes,
    threads: opts.threads,
    repetitions: opts.repetitions,
    settings: opts.property,
    reload: opts.reload,
  });
  return opts.orderSeed !== undefined ? { ...plan, orderSeed: opts.orderSeed } : plan;
}
