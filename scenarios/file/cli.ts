/**
 * A scenario file's commands:
 *
 *   docbench scenario <file> [--stores a,b,…] [--skip-seed] [-p key=value]   seed, run the mix, one table
 *   docbench scenario <file> … --repetitions N [--order-seed S]               in N interleaved rounds
 *   docbench scenario --schema                                                 the file format as JSON Schema
 *   docbench seed scenario <file> --store X                                    the load phase alone
 *   docbench serve --store X --scenario <file>; docbench k6 <file> --store X   end to end
 *
 * Registration only: the file's generator (faker), the oracle and the dialects load when a
 * command runs (commands.ts).
 */
import { Option } from 'commander';
import { collect, nonNegativeNumber, positiveInteger } from '../../src/common/option-parsers.ts';
import { UsageError } from '../../src/common/user-error.ts';
import { addTargetOptions } from '../../src/session/target-options.ts';
import type { ScenarioCommands, ScenarioK6Options, ScenarioK6Plan } from '../scenario.ts';
import { addRoundOptions } from '../shared/round-options.ts';
import { addShardOptions } from '../../src/shard/shard-options.ts';
import { storeSettings } from '../shared/serve-settings.ts';
import type { CommonOptions, CompareOptions } from './commands.ts';
import type { ShardFlags } from '../../src/shard/shard-part.ts';
import { FILE_DIALECTS } from './dialects.ts';

const load = () => import('./commands.ts');

function addCommonOptions<T extends import('commander').Command>(command: T): T {
  return command
    .option(
      '-p, --property <key=value>',
      'run setting (operationcount, threadcount, target, maxexecutiontime, warmuptime, readbacksample, parametersets) or store setting (redis.*, mongodb.*, …); repeatable',
      collect,
      [],
    )
    .option('--threads <n>', 'threadcount: concurrent workers', positiveInteger('--threads'))
    .option('--target <ops>', 'target operations per second (0 = unthrottled)', nonNegativeNumber('--target'))
    .option('--batch-size <n>', 'documents per bulk write while seeding', positiveInteger('--batch-size'), 500)
    .option('-q, --quiet', 'no progress bar or status lines on stderr', false) as T;
}

async function k6Plan(options: ScenarioK6Options): Promise<ScenarioK6Plan> {
  const file = options.file!;
  const { k6Rows, seedForK6 } = await load();
  return {
    // The mix's queries: the script's rows, known before k6's init stage.
    env: { ROWS: k6Rows(file).join(',') },
    // The service takes store settings; the file's run settings are the file's (and the k6 flags').
    serveSettings: storeSettings(options.overrides),
    ...(options.all.seedScenario === true
      ? { seed: (store, targets) => seedForK6(file, store, targets, options.overrides, options.quiet) }
      : {}),
  };
}

export const commands: ScenarioCommands = {
  registerSeed(seed) {
    const command = seed
      .command('scenario')
      .description(
        "a scenario file's load phase: every collection generated and loaded in bulk, then its indexes and the structures its queries need",
      )
      .argument('<file>', 'the scenario file (YAML or JSON)')
      .addOption(new Option('--store <name>', `store: ${FILE_DIALECTS.stores.join(', ')}`).makeOptionMandatory())
      .option('--out <file>', 'write the load result as JSON (atomically)');
    addShardOptions(addCommonOptions(addTargetOptions(command, { several: false }))).action(
      async (file: string, opts: CommonOptions & ShardFlags & { store: string; out?: string }) =>
        (await load()).seedCommand(file, opts),
    );
  },
  register(program) {
    const command = program
      .command('scenario')
      .description(
        "your own scenario from a YAML or JSON file on several stores: seed, run its mix (every answer checked against the oracle), one table with every query's plan",
      )
      .argument('[file]', 'the scenario file (YAML or JSON); see README "Your own scenario"')
      .option('--schema', 'print the file format as JSON Schema (for editors) and exit', false)
      .option(
        '--stores <list>',
        `comma-separated stores: ${FILE_DIALECTS.stores.join(', ')} (default: the config file's, else all of them)`,
      )
      .option(
        '--skip-seed',
        'run on the dataset each store already holds (from an earlier seed); with --repetitions, every round on it (refused when the mix writes)',
        false,
      )
      .option('--out-dir <dir>', 'where result files go (default: results/<name>-<timestamp>)')
      .option(
        '--out <file>',
        "one store's run alone (with --skip-seed): write its JSON result here instead of a results folder; - writes it on stdout as one line",
      )
      .option('--docker', 'use the real servers started by `docbench up --docker`', false);
    addRoundOptions(command, 'its seed (afresh each round, unless --skip-seed) and the mix');
    addShardOptions(addCommonOptions(addTargetOptions(command, { several: true }))).action(
      async (file: string | undefined, opts: CompareOptions & { schema: boolean }) => {
        if (opts.schema) {
          const { scenarioJsonSchema } = await import('./schema.ts');
          process.stdout.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
          return;
        }
        if (file === undefined)
          throw new UsageError('docbench scenario: name the scenario file (or --schema for its format)');
        await (await load()).compareCommand(file, opts);
      },
    );
  },
  k6Options(command) {
    command.option('--seed-scenario', 'a scenario file: seed the store first (docbench seed scenario)', false);
  },
  k6Plan,
};
