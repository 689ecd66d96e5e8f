/**
 * `docbench k6 <script>`: registration only (its options, each scenario's own among them); the
 * run itself is k6-run.ts, loaded when the command runs.
 */
import { Option, type Command } from 'commander';
import { scenarioEntry, type ScenarioName } from '../../scenarios/scenarios.ts';
import type { ScenarioCommands } from '../../scenarios/scenario.ts';
import { STORE_NAMES } from '../stores/stores.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { positiveInteger, nonNegativeNumber, collect, list } from '../common/option-parsers.ts';
import type { K6CommandOptions } from './k6-run.ts';

export function registerK6Command(program: Command, commands: ReadonlyMap<string, ScenarioCommands>): void {
  const command = program
    .command('k6')
    .description(
      'end-to-end runs: load or seed the store, start docbench serve, drive it with a k6 script, write the results (mode http)',
    )
    .argument(
      '<script>',
      `k6 script: a path, a shipped one by name (ycsb-a … ycsb-h, ycsb, ${[...commands.keys()].flatMap((n) => Object.keys(scenarioEntry(n as ScenarioName).k6Scripts ?? {})).join(', ')}), or a scenario file`,
    )
    .addOption(
      new Option('--store <list>', `store, or comma-separated stores: ${STORE_NAMES.join(', ')}`)
        .argParser(list)
        .makeOptionMandatory(),
    );
  addTargetOptions(command, { several: true })
    .option(
      '--scenario <name>',
      `what a script of your own drives: ycsb, ${[...commands.keys()].filter((n) => scenarioEntry(n as ScenarioName).isFile === undefined).join(', ')}, or a scenario file (shipped scripts are known by name)`,
    )
    .option('-P, --workload <file>', 'YCSB workload file (default for ycsb-<x>: workload<x>); repeatable', collect, [])
    .option('-p, --property <key=value>', 'workload, scenario or store property; repeatable', collect, [])
    .option('--threads <n>', 'threadcount: k6 VUs', positiveInteger('--threads'))
    .option(
      '--target <ops>',
      'target operations per second: the open model (constant-arrival-rate)',
      nonNegativeNumber('--target'),
    )
    .option('--operations <n>', 'operations to run (YCSB operationcount)', positiveInteger('--operations'))
    .option(
      '--duration <seconds>',
      'seconds to run (YCSB maxexecutiontime; with operationcount, whichever ends first)',
      positiveInteger('--duration'),
    )
    .option('--workers <n>', 'service processes (node cluster)', positiveInteger('--workers'), 1)
    .option('--no-load', 'YCSB: skip the load phase (the table already holds this workload)')
    .option(
      '--direct',
      'YCSB: also run the workload directly (docbench run) on each store, and print both side by side',
      false,
    )
    .option('-e, --k6-env <NAME=value>', 'extra k6 setting (see k6/README.md, e.g. P99_MS=50); repeatable', collect, [])
    .option('--out <file>', 'write the JSON result here (one store, without --direct)')
    .option(
      '--out-dir <dir>',
      'write every result and the comparison here (default with several stores or --direct: results/<timestamp>)',
    )
    .option('-q, --quiet', 'no progress on stderr', false);
  // Each scenario's own options (`--customers`, `--size`, …), remembered by scenario.
  const scenarioOptions = new Map<string, string[]>();
  for (const [name, scenario] of commands) {
    const before = command.options.length;
    scenario.k6Options?.(command);
    scenarioOptions.set(
      name,
      command.options.slice(before).map((o) => o.attributeName()),
    );
  }
  command.action(
    async (
      script: string,
      opts: Omit<K6CommandOptions, 'script' | 'stores' | 'workloadFiles' | 'overrides' | 'all'> & {
        store: string[];
        workload: string[];
        property: string[];
      },
    ) => {
      const { store, workload, property, ...rest } = opts;
      // k6's runner, the service and the report load once the command runs.
      const { runK6Command } = await import('./k6-run.ts');
      await runK6Command(
        { ...rest, script, stores: store, workloadFiles: workload, overrides: property, all: opts, scenarioOptions },
        commands,
      );
    },
  );
}
