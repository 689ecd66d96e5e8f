/**
 * The e-commerce scenario's commands (Altoros 2022's Pagination and JOIN workloads):
 *
 *   docbench seed ecommerce --store X --customers N [--orders-per-customer M]     the load phase
 *   docbench load --scenario ecommerce --store X -p customers=N                   the same, YCSB spelling
 *   docbench run --scenario ecommerce --workload pagination|join|mix --store X   one workload on one store
 *   docbench ecommerce --stores X,Y,… --customers N [--workloads pagination,join] seed + run + one table
 *   docbench ecommerce … --repetitions N [--order-seed S]                          in N interleaved rounds
 *   docbench k6 pagination|join --store X [--customers N]                        end to end
 *
 * Registration only: the scenario's generator (faker) and dialects load when a command runs
 * (commands.ts).
 */
import { Option, type Command } from 'commander';
import { nonNegativeNumber, positiveInteger, collect } from '../../src/common/option-parsers.ts';
import { UsageError } from '../../src/common/user-error.ts';
import { addTargetOptions } from '../../src/session/target-options.ts';
import { addRoundOptions } from '../shared/round-options.ts';
import { serveSettings } from '../shared/serve-settings.ts';
import type { ScenarioCommands, ScenarioK6Options, ScenarioK6Plan } from '../scenario.ts';
import type { CommonOptions, CompareOptions } from './commands.ts';
import { ECOMMERCE_DIALECTS } from './dialects.ts';
import { ECOMMERCE_DEFAULTS, WORKLOAD_NAMES } from './workload-names.ts';
import type { TargetFlags } from '../../src/session/store-targets.ts';

const load = () => import('./commands.ts');

/** The scenario's store-setting-aware options shared by `seed ecommerce` and `ecommerce`. */
function addCommonOptions(command: Command): Command {
  return command
    .option('--customers <n>', 'customers to seed (each about 4 KB)', positiveInteger('--customers'))
    .option(
      '--orders-per-customer <n>',
      'orders per customer (default 1, as Altoros 2022)',
      positiveInteger('--orders-per-customer'),
    )
    .option(
      '--no-indexes',
      'build no secondary index (MongoDB, CouchDB Mango, Couchbase GSI): the queries scan; query tables, index sets and views stay',
    )
    .option(
      '--seed <n>',
      'seed of the dataset (seeding) and of the parameter choices (running)',
      nonNegativeNumber('--seed'),
    )
    .option(
      '--threads <n>',
      'threadcount: concurrent workers (bulk writers while seeding)',
      positiveInteger('--threads'),
    )
    .option(
      '-p, --property <key=value>',
      'scenario setting (operationcount, maxexecutiontime, maxoffset, variant, …) or store setting (redis.*, mongodb.*, …); repeatable',
      collect,
      [],
    )
    .option('-q, --quiet', 'no progress bar or status lines on stderr', false);
}

function k6Plan(options: ScenarioK6Options): ScenarioK6Plan {
  const customers = options.all.customers as number | undefined;
  return {
    env: {},
    serveSettings: serveSettings('ecommerce', options.overrides),
    ...(customers !== undefined
      ? {
          seed: async (store, targets) => {
            const { seedForK6 } = await load();
            await seedForK6(store, targets, customers, options.overrides, options.quiet);
          },
        }
      : {}),
  };
}

export const commands: ScenarioCommands = {
  registerSeed(seed) {
    const command = seed
      .command('ecommerce')
      .description(
        "the e-commerce scenario's load phase: customers and their orders in bulk, then the store's indexes (same data on every store for the same seed)",
      )
      .addOption(new Option('--store <name>', `store: ${ECOMMERCE_DIALECTS.stores.join(', ')}`).makeOptionMandatory())
      .option('--out <file>', 'write the load result as JSON (atomically)');
    addCommonOptions(addTargetOptions(command, { several: false })).action(
      async (opts: CommonOptions & TargetFlags & { store: string; out?: string }) => (await load()).seedCommand(opts),
    );
  },
  register(program) {
    const command = program
      .command('ecommerce')
      .description(
        'Altoros 2022 on several stores: seed customers and orders, run pagination / join / mix (every answer checked against the oracle), one table',
      )
      .option(
        '--stores <list>',
        `comma-separated stores: ${ECOMMERCE_DIALECTS.stores.join(', ')} (default: the config file's, else all of them)`,
      )
      .option('--store <list>', 'the same as --stores (as `docbench persons` takes it)')
      .option(
        '--workloads <list>',
        `comma-separated workloads: ${WORKLOAD_NAMES.join(', ')}`,
        ECOMMERCE_DEFAULTS.workloads.join(','),
      )
      .option(
        '--skip-seed',
        'run on the dataset each store already holds (from an earlier seed); with --repetitions, every round on it (refused for workloads that write)',
        false,
      )
      .option('--out-dir <dir>', 'where result files go (default: results/ecommerce-<timestamp>)')
      .option('--docker', 'use the real servers started by `docbench up --docker`', false)
      .option(
        '--processes <n>',
        'worker processes (threads) the workers are spread over, each with its own connections, dialect and oracle; one merged result per run (default 1)',
        positiveInteger('--processes'),
      );
    addRoundOptions(command, 'its seed (afresh each round, unless --skip-seed) and every workload');
    addCommonOptions(addTargetOptions(command, { several: true })).action(
      async ({ store, ...opts }: CompareOptions & { store?: string }) => {
        if (store !== undefined && opts.stores !== undefined)
          throw new UsageError('give --store or --stores, not both');
        await (await load()).compareCommand(store !== undefined ? { ...opts, stores: store } : opts);
      },
    );
  },
  phase: async (options) => (await load()).runEcommercePhase(options),
  k6Options(command) {
    command.option(
      '--customers <n>',
      'pagination, join: seed this many customers first (docbench seed ecommerce)',
      positiveInteger('--customers'),
    );
  },
  k6Plan,
};
