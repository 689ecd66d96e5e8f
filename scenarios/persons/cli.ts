/**
 * The persons scenario's commands:
 *
 *   docbench seed persons --store X --size N [--nested] [--indexes] [--insert-mode single|bulk]   the load phase alone
 *   docbench persons --store X [--size N[,M…]] [--nested] [--indexes] [--insert-mode single|bulk] [--out-dir dir]
 *   docbench persons --stores X,Y,… …                                   the comparison across stores
 *   docbench persons --stores X,Y,… --docker …                          the same on the real servers of docker/compose.yaml
 *   docbench persons --stores X,Y,… --repetitions N [--order-seed S]    in N interleaved rounds
 *   docbench k6 persons --store X [--size N] [--nested]                 end to end
 *
 * Registration only: the scenario's run code and dialects load when a command runs (commands.ts).
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { collect, suffixedCount } from '../../src/common/option-parsers.ts';
import { addTargetOptions } from '../../src/session/target-options.ts';
import { addRoundOptions } from '../shared/round-options.ts';
import { serveSettings } from '../shared/serve-settings.ts';
import type { ScenarioCommands, ScenarioK6Options, ScenarioK6Plan } from '../scenario.ts';
import type { CommonOptions, CompareOptions } from './commands.ts';
import { DEFAULT_SEED, INSERT_MODES, PERSONS_DEFAULTS, SIZE_PRESETS } from './defaults.ts';
import { PERSONS_DIALECTS } from './dialects.ts';

const load = () => import('./commands.ts');

const positive = (flag: string) => (value: string) => {
  const n = suffixedCount(value);
  if (n === undefined) throw new InvalidArgumentError(`${flag} expects a whole number >= 1, got "${value}"`);
  return n;
};

/** `--size 50000`, `--size 5k,50k,500k`, or `--size thesis` (the thesis's three sizes). */
const sizes = (value: string): number[] => {
  if (value.trim() === 'thesis') return [...SIZE_PRESETS];
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out = parts.map((p) => {
    const n = suffixedCount(p);
    if (n === undefined)
      throw new InvalidArgumentError(
        `--size expects document counts such as 5000, 50k or 5k,50k,500k (or "thesis"), got "${p}"`,
      );
    return n;
  });
  if (out.length === 0) throw new InvalidArgumentError('--size is empty');
  return out;
};

const seedValue = (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new InvalidArgumentError(`--seed expects a whole number >= 0, got "${value}"`);
  return n;
};

function addCommonOptions(command: Command): Command {
  return command
    .option('--nested', 'nested documents: pet, fax and jedi power as arrays of 1–5 values', false)
    .option('--indexes', 'build secondary indexes for the queries (Henricsson 2011 used none)', false)
    .option('--seed <n>', 'seed of the generated dataset', seedValue, DEFAULT_SEED)
    .addOption(
      new Option(
        '--insert-mode <mode>',
        "single: one insert per document with the store's single-document write, the thesis's insert time; bulk: the store's bulk API in batches",
      )
        .choices(INSERT_MODES)
        .default(PERSONS_DEFAULTS.insertMode),
    )
    .option(
      '--batch-size <n>',
      'documents per bulk write (--insert-mode bulk)',
      positive('--batch-size'),
      PERSONS_DEFAULTS.batchSize,
    )
    .option(
      '--threads <n>',
      `writes in flight at once (default: ${PERSONS_DEFAULTS.singleConcurrency} document in single mode, ${PERSONS_DEFAULTS.concurrency} bulk writes in bulk mode)`,
      positive('--threads'),
    )
    .option(
      '-p, --property <key=value>',
      `store setting (${PERSONS_DIALECTS.stores.map((s) => `${s}.*`).join(', ')}); repeatable`,
      collect,
      [],
    )
    .option('-q, --quiet', 'no progress bar on stderr', false);
}

function k6Plan(options: ScenarioK6Options): ScenarioK6Plan {
  const size = options.all.size as number | undefined;
  const nested = options.all.nested === true;
  // The service must know the seeded size: the dialects need it as a bound.
  const settings = serveSettings('persons', options.overrides);
  if (size !== undefined) settings.push(`persons.size=${size}`);
  return {
    env: nested ? { NESTED: 'true' } : {},
    serveSettings: settings,
    ...(size !== undefined
      ? {
          seed: async (store, targets) =>
            (await load()).seedForK6(store, targets, size, nested, options.overrides, options.quiet),
        }
      : {}),
  };
}

export const commands: ScenarioCommands = {
  registerSeed(seed) {
    const command = seed
      .command('persons')
      .description(
        "the persons scenario's load phase: drop, create and bulk-load the dataset (same data on every store for the same seed)",
      )
      .addOption(new Option('--store <name>', `store: ${PERSONS_DIALECTS.stores.join(', ')}`).makeOptionMandatory())
      .option(
        '--size <n>',
        `documents (thesis sizes: ${SIZE_PRESETS.join(', ')})`,
        positive('--size'),
        PERSONS_DEFAULTS.size,
      )
      .option('--out <file>', 'write the load result as JSON (atomically)');
    addCommonOptions(addTargetOptions(command, { several: false })).action(
      async (opts: CommonOptions & { store: string; size: number; out?: string }) => (await load()).seedCommand(opts),
    );
  },
  register(program) {
    const command = program
      .command('persons')
      .description(
        'Henricsson 2011 (MongoDB vs CouchDB thesis) on every store: insert time, size on disk, Q1–Q5 (each answer verified against the oracle)',
      )
      .option(
        '--store <list>',
        `store, or comma-separated stores: ${PERSONS_DIALECTS.stores.join(', ')} (default: the config file's stores)`,
      )
      .option('--stores <list>', 'the same as --store (the comparison spelling)')
      .option('--size <list>', `documents, or a comma-separated list; "thesis" = ${SIZE_PRESETS.join(',')}`, sizes, [
        PERSONS_DEFAULTS.size,
      ])
      .option(
        '--repeat <n>',
        'runs of each query within a run (the mean is shown)',
        positive('--repeat'),
        PERSONS_DEFAULTS.repeat,
      )
      .option('--out-dir <dir>', 'where result files go (default: results/persons-<timestamp>)')
      .option('--docker', 'use the real servers started by `docbench up --docker`', false);
    addRoundOptions(command, 'the whole scenario (its own seed, size on disk, Q1–Q5 --repeat times)');
    addCommonOptions(addTargetOptions(command, { several: true })).action(async (opts: CompareOptions) =>
      (await load()).compareCommand(opts),
    );
  },
  k6Options(command) {
    command
      .option('--size <n>', 'persons: seed this many documents first (docbench seed persons)', positive('--size'))
      .option('--nested', 'persons: the nested documents', false);
  },
  k6Plan,
};
