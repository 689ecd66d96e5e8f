/**
 * `docbench load` and `docbench run`: YCSB's two phases (or a scenario's, with `--scenario`),
 * their options and registration; the work is src/cli/ycsb-command.ts and the client layer.
 */
import { Option, type Command } from 'commander';
import type { ScenarioCommands } from '../../scenarios/scenario.ts';
import { parseOnError, type OnError } from '../common/fault-policy.ts';
import { collect, nonNegativeNumber, positiveInteger, processesSetting } from '../common/option-parsers.ts';
import { UsageError } from '../common/user-error.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { STORE_NAMES } from '../stores/stores.ts';
import { addMetricsOptions, withMetrics, type MetricsFlags } from './metrics-flags.ts';
import type { ShardFlags } from '../shard/shard-part.ts';
import { addShardOptions } from '../shard/shard-options.ts';
import { ON_ERROR_HELP, PROCESSES_HELP } from './shared-options.ts';

export function registerPhaseCommands(program: Command, scenarios: ReadonlyMap<string, ScenarioCommands>): void {
  addPhaseCommand(program, 'load', 'YCSB load phase: insert recordcount records', scenarios);
  addPhaseCommand(
    program,
    'run',
    'YCSB run (transaction) phase: operationcount operations or maxexecutiontime seconds',
    scenarios,
  );
}

function addPhaseCommand(
  program: Command,
  phase: 'load' | 'run',
  description: string,
  scenarios: ReadonlyMap<string, ScenarioCommands>,
): void {
  const phased = [...scenarios].filter(([, c]) => c.phase !== undefined).map(([name]) => name);
  const command = program
    .command(phase)
    .description(description)
    .addOption(new Option('--store <name>', `store: ${STORE_NAMES.join(', ')}`).makeOptionMandatory());
  addTargetOptions(command, { several: false })
    .addOption(
      new Option(
        '--scenario <name>',
        `ycsb (workload files) or a scenario with YCSB-shaped phases (${phased.join(', ')}; -P names its workload)`,
      )
        .choices(['ycsb', ...phased])
        .default('ycsb'),
    )
    .option(
      '-P, --workload <file>',
      'workload file (path or a shipped name: workloada … workloadh, record-10kb, record-1kb); with another --scenario its workload; repeatable',
      collect,
      [],
    )
    .option('-p, --property <key=value>', 'set a workload or store property; repeatable', collect, [])
    .option('--threads <n>', 'threadcount: concurrent workers', positiveInteger('--threads'))
    .option('--target <ops>', 'target operations per second (0 = unthrottled)', nonNegativeNumber('--target'))
    .option('--processes <n|auto>', PROCESSES_HELP, processesSetting('--processes'))
    .option(
      '--out <file>',
      'write the JSON result here (atomically); - writes it on stdout as one line, everything else on stderr',
    )
    .option('--on-error <mode>', ON_ERROR_HELP, parseOnError, 'continue' as OnError)
    .option('--fresh', 'load only: drop the table first so the load starts clean', false)
    .option('-q, --quiet', 'no status lines on stderr', false);
  addShardOptions(addMetricsOptions(command)).action(
    async (
      opts: MetricsFlags &
        ShardFlags & {
          store: string;
          scenario: string;
          url?: string[];
          config?: string;
          workload: string[];
          property: string[];
          threads?: number;
          target?: number;
          processes?: ProcessesSetting;
          out?: string;
          onError: OnError;
          fresh: boolean;
          quiet: boolean;
        },
    ) => {
      const { singleTarget } = await import('../session/store-targets.ts');
      const target = singleTarget(opts, opts.store);
      const scenario = scenarios.get(opts.scenario);
      if (opts.metricsPort !== undefined && scenario?.phase !== undefined)
        throw new UsageError(
          `--metrics-port: live metrics are served for YCSB workloads (load, run, capacity); not yet for --scenario ${opts.scenario}`,
        );
      if (scenario?.phase !== undefined) {
        if (opts.shard !== undefined || opts.shards !== undefined)
          throw new UsageError(
            `--shard: a sharded run is for YCSB workloads and scenario files (docbench scenario); not yet for --scenario ${opts.scenario}`,
          );
        await scenario.phase({
          phase,
          store: opts.store,
          ...(target.url !== undefined ? { url: target.url } : {}),
          workloads: opts.workload,
          property: [...target.settings, ...opts.property],
          ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
          ...(opts.target !== undefined ? { target: opts.target } : {}),
          // A scenario's phase runs in one process unless given a number (auto is for YCSB workloads).
          ...(typeof opts.processes === 'number' ? { processes: opts.processes } : {}),
          ...(opts.out !== undefined ? { out: opts.out } : {}),
          status: !opts.quiet,
        });
        return;
      }
      const { runYcsbPhase } = await import('./ycsb-command.ts');
      await withMetrics(opts, (metrics) =>
        runYcsbPhase({
          phase,
          store: opts.store,
          ...(target.url !== undefined ? { url: target.url } : {}),
          storeSettings: target.settings,
          workloadFiles: opts.workload,
          overrides: opts.property,
          ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
          ...(opts.target !== undefined ? { target: opts.target } : {}),
          ...(opts.processes !== undefined ? { processes: opts.processes } : {}),
          ...(opts.out !== undefined ? { out: opts.out } : {}),
          fresh: opts.fresh,
          status: !opts.quiet,
          print: true,
          onError: opts.onError,
          shard: opts,
          ...(metrics ? { metrics } : {}),
        }),
      );
    },
  );
}
