#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORE_NAMES } from '../stores/stores.ts';
import { docbenchVersion } from '../version.ts';
import { COMPARE_DEFAULTS } from './compare-defaults.ts';
import { storeOfYcsbBinding } from '../workload/ycsb-bindings.ts';
import { isUserError, USER_ERROR_EXIT_CODE, UsageError } from './errors.ts';
import { registerReportCommand } from './report-command.ts';
import { registerScenarioCommands, scenarioCommands } from './scenario-commands.ts';
import type { ScenarioCommands } from '../../scenarios/scenario.ts';
import { registerStudyCommand } from './study-command.ts';
import { registerCapacityCommand } from './capacity-command.ts';
import { registerSweepCommand } from './sweep-command.ts';
import {
  positiveInteger,
  nonNegativeInteger,
  nonNegativeNumber,
  collect,
  list,
  processesSetting,
} from '../common/option-parsers.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { addMetricsOptions, withMetrics, type MetricsFlags } from './metrics-flags.ts';
import { interrupts } from '../runner/interrupts.ts';
import { parseOnError, type OnError } from '../runner/fault-policy.ts';

// Every command's work is imported when that command runs (`await import(…)` in its action):
// `--version`, `--help` and `status` load commander and the option tables, no driver, no
// scenario, no report renderer (test/unit/lazy-scenarios.test.ts checks it).

const ON_ERROR_HELP =
  'when an operation fails: continue (count it, keep the schedule; default) or abort (stop the run, still writing its partial result)';

/** Commands that handle SIGINT/SIGTERM themselves (the service stops gracefully on its own). */
const OWN_SIGNAL_HANDLING = new Set(['serve']);

/**
 * YCSB habits: `docbench -load …` / `docbench -t …`, and single-dash `-threads`, `-target`,
 * `-db`, `-s`. Rewritten to docbench's commands and flags before commander sees them.
 */
export function translateYcsbArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let command: string | undefined;
  let binding = false;
  for (const arg of args) {
    // YCSB's binding names (mongodb-async, couchbase3, …) name docbench's stores.
    if (binding) {
      out.push(storeOfYcsbBinding(arg) ?? arg);
      binding = false;
    } else if (arg === '-load') command = 'load';
    else if (arg === '-t') command = 'run';
    else if (arg === '-threads') out.push('--threads');
    else if (arg === '-target') out.push('--target');
    else if (arg === '-db') {
      out.push('--store');
      binding = true;
    } else if (arg === '-s')
      continue; // status lines are always on
    else out.push(arg);
  }
  return command ? [command, ...out] : out;
}

const PROCESSES_HELP =
  'worker processes (threads) the threadcount workers are spread over, each with its own connections; one merged result. auto (the default): one per core when every store is remote (--url, config, --docker), 1 when a local server shares the cores';

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
    .option('--out <file>', 'write the JSON result here (atomically)')
    .option('--on-error <mode>', ON_ERROR_HELP, parseOnError, 'continue' as OnError)
    .option('--fresh', 'load only: drop the table first so the load starts clean', false)
    .option('-q, --quiet', 'no status lines on stderr', false);
  addMetricsOptions(command).action(
    async (
      opts: MetricsFlags & {
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
          ...(metrics ? { metrics } : {}),
        }),
      );
    },
  );
}

export async function buildProgram(): Promise<Command> {
  const scenarios = await scenarioCommands();
  const program = new Command('docbench')
    .description(
      'Application-level benchmark for document and NoSQL stores: YCSB-exact workloads, honest latency, verified answers.',
    )
    .version(docbenchVersion())
    .showSuggestionAfterError(true)
    .exitOverride();
  program.configureOutput({
    outputError: (text, write) => write(text.startsWith('error:') ? `docbench: ${text}` : text),
  });

  addPhaseCommand(program, 'load', 'YCSB load phase: insert recordcount records', scenarios);
  addPhaseCommand(
    program,
    'run',
    'YCSB run (transaction) phase: operationcount operations or maxexecutiontime seconds',
    scenarios,
  );

  const compare = program
    .command('compare')
    .description('the main job: workloads A–H on several stores, fresh load before each, one comparison table')
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
        outDir?: string;
        onError: OnError;
        docker: boolean;
        quiet: boolean;
      }) => {
        const { runComparison } = await import('./compare-command.ts');
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
          outDir: opts.outDir ?? join('results', new Date().toISOString().replace(/[:.]/g, '-')),
          status: !opts.quiet,
          docker: opts.docker,
          onError: opts.onError,
        });
      },
    );

  program
    .command('up')
    .description('install on demand and start local servers on 127.0.0.1 (default: all)')
    .argument('[stores...]', 'stores to start')
    .option('--docker', 'start the real servers under Docker (docker/compose.yaml) instead', false)
    .option(
      '--nodes <n>',
      'a local cluster of n nodes (redis: n masters; cassandra: n nodes on 127.0.0.1 … 127.0.0.n, replication factor min(3, n)); stand-ins run one node',
      positiveInteger('--nodes'),
    )
    .option(
      '--replicas <r>',
      'redis with --nodes: replicas of each master (default 0)',
      nonNegativeInteger('--replicas'),
    )
    .action(async (stores: string[], opts: { docker: boolean; nodes?: number; replicas?: number }) => {
      if (opts.docker && (opts.nodes !== undefined || opts.replicas !== undefined))
        throw new UsageError(
          '--nodes and --replicas start local clusters; docker/compose.yaml runs one node of each store',
        );
      const { up, upDocker } = await import('./targets-command.ts');
      await (opts.docker
        ? upDocker(stores)
        : up(stores, {
            ...(opts.nodes !== undefined ? { nodes: opts.nodes } : {}),
            ...(opts.replicas !== undefined ? { replicas: opts.replicas } : {}),
          }));
    });
  program
    .command('down')
    .description('stop the local servers docbench started (default: all)')
    .argument('[stores...]', 'stores to stop')
    .option('--docker', 'stop the Docker containers of docker/compose.yaml instead', false)
    .action(async (stores: string[], opts: { docker: boolean }) => {
      const { down, downDocker } = await import('./targets-command.ts');
      await (opts.docker ? downDocker(stores) : down(stores));
    });
  program
    .command('status')
    .description('show the local servers, their URLs and what each one is')
    .option('--json', 'one JSON array (store, running, pid, url, product, …), for scripts', false)
    .action(async (opts: { json: boolean }) => (await import('./targets-command.ts')).status(opts));
  registerScenarioCommands(program, scenarios);
  registerReportCommand(program);
  registerSweepCommand(program);
  registerStudyCommand(program);
  registerCapacityCommand(program);
  return program;
}

/**
 * Run one command; resolves with the exit code: 0, 2 for a user error, 130/143 after SIGINT or
 * SIGTERM (the interrupted run's partial result is printed and written first; see
 * runner/interrupts.ts).
 */
export async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram();
  const args = translateYcsbArgs(argv);
  const handleSignals = !OWN_SIGNAL_HANDLING.has(args[0] ?? '');
  if (handleSignals) interrupts.install();
  try {
    await program.parseAsync(args, { from: 'user' });
    return interrupts.exitCode ?? 0;
  } catch (error) {
    const interrupted = interrupts.exitCode;
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage mistakes were already printed by commander.
      return error.exitCode === 0 ? 0 : USER_ERROR_EXIT_CODE;
    }
    if (isUserError(error)) {
      process.stderr.write(`docbench: ${error.message}\n`);
      return interrupted ?? USER_ERROR_EXIT_CODE;
    }
    if (interrupted !== undefined) {
      // What broke while stopping (a driver closed under a call) is no bug worth a stack trace.
      process.stderr.write(
        `docbench: interrupted by ${interrupts.signal}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`,
      );
      return interrupted;
    }
    throw error;
  } finally {
    if (handleSignals) interrupts.uninstall();
  }
}

// Run when executed directly (`tsx src/cli/main.ts`); bin/docbench.js imports main() instead.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Exit explicitly: a driver that keeps a socket or timer alive must not hang the CLI.
  // (stdout/stderr writes to files and pipes are synchronous on Linux, so nothing is lost.)
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
