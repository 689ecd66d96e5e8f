/**
 * The persons scenario's commands:
 *
 *   docbench seed persons --store X --size N [--nested] [--indexes] [--insert-mode single|bulk]   the load phase alone
 *   docbench persons --store X [--size N[,M…]] [--nested] [--indexes] [--insert-mode single|bulk] [--out-dir dir]
 *   docbench persons --stores X,Y,… …                                   the comparison across stores
 *   docbench persons --stores X,Y,… --docker …                          the same on the real servers of docker/compose.yaml
 *
 * `persons` seeds each store, measures size and Q1–Q5 (every answer checked against the
 * oracle), prints a table per store and a comparison, and writes every result as JSON (common
 * schema) plus the comparison under the output folder. A wrong answer fails the command after
 * everything is written, with one line per problem.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { join } from 'node:path';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { writeReportBeside } from '../report/report-files.ts';
import { PERSONS_DIALECTS } from '../../scenarios/persons/dialects.ts';
import { DEFAULT_SEED } from '../../scenarios/persons/generator.ts';
import type { Shape } from '../../scenarios/persons/model.ts';
import { renderComparison, renderStoreTable } from '../../scenarios/persons/report.ts';
import { INSERT_MODES, PERSONS_DEFAULTS, runPersons, seedPersons, SIZE_PRESETS, type InsertMode, type PersonsSettings, type StoreRun } from '../../scenarios/persons/run.ts';
import { AnswerMismatchError } from '../../scenarios/shared/verify.ts';
import { UsageError } from './errors.ts';
import { openStore, requestFrom } from '../session/store-session.ts';
import { defaultStores, singleTarget, StoreTargets, type TargetFlags } from '../session/store-targets.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { loadConfig } from '../session/config-file.ts';
import { checkOutPath } from '../results/write.ts';

const STORE_PREFIXES = ['redis.', 'cassandra.', 'mongodb.', 'couchdb.', 'couchbase.'];

/** A whole number >= 1, with an optional k / m suffix (5k = 5,000). */
function count(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim().replace(/_/g, ''));
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1000 : m[2]?.toLowerCase() === 'm' ? 1_000_000 : 1);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

const positive = (flag: string) => (value: string) => {
  const n = count(value);
  if (n === undefined) throw new InvalidArgumentError(`${flag} expects a whole number >= 1, got "${value}"`);
  return n;
};

/** `--size 50000`, `--size 5k,50k,500k`, or `--size thesis` (the thesis's three sizes). */
const sizes = (value: string): number[] => {
  if (value.trim() === 'thesis') return [...SIZE_PRESETS];
  const parts = value.split(',').map((s) => s.trim()).filter(Boolean);
  const out = parts.map((p) => {
    const n = count(p);
    if (n === undefined) throw new InvalidArgumentError(`--size expects document counts such as 5000, 50k or 5k,50k,500k (or "thesis"), got "${p}"`);
    return n;
  });
  if (out.length === 0) throw new InvalidArgumentError('--size is empty');
  return out;
};

const seedValue = (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError(`--seed expects a whole number >= 0, got "${value}"`);
  return n;
};

const collect = (value: string, previous: string[]) => [...previous, value];

function storeList(value: string, flag = '--store'): string[] {
  const stores = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (stores.length === 0) throw new UsageError(`${flag} is empty`);
  for (const s of stores) {
    if (!PERSONS_DIALECTS.runsOn(s)) throw new UsageError(`${flag}: the persons scenario runs on ${PERSONS_DIALECTS.stores.join(', ')}; got "${s}"`);
  }
  const twice = stores.find((s, i) => stores.indexOf(s) !== i);
  if (twice !== undefined) throw new UsageError(`${flag}: "${twice}" is listed twice`);
  return stores;
}

/** `-p` here takes store settings only (`redis.driver=…`); returned as the properties openStore expects. */
function storeProperties(assignments: readonly string[], concurrency: number) {
  for (const a of assignments) {
    const key = a.slice(0, Math.max(0, a.indexOf('=')));
    if (!STORE_PREFIXES.some((p) => key.startsWith(p))) {
      throw new UsageError(`-p ${a}: the persons scenario takes store settings only (${STORE_PREFIXES.map((p) => `${p}*`).join(', ')})`);
    }
  }
  return requestFrom(assignments, concurrency);
}

interface CommonOptions extends TargetFlags {
  nested: boolean;
  indexes: boolean;
  seed: number;
  insertMode: InsertMode;
  batchSize: number;
  /** Absent: the insert mode's default (1 document, or 4 bulk writes, in flight). */
  threads?: number;
  property: string[];
  quiet: boolean;
}

function addCommonOptions(command: Command): Command {
  return command
    .option('--nested', 'nested documents: pet, fax and jedi power as arrays of 1–5 values', false)
    .option('--indexes', "build secondary indexes for the queries (Henricsson 2011 used none)", false)
    .option('--seed <n>', 'seed of the generated dataset', seedValue, DEFAULT_SEED)
    .addOption(
      new Option('--insert-mode <mode>', "single: one insert per document with the store's single-document write, the thesis's insert time; bulk: the store's bulk API in batches")
        .choices(INSERT_MODES)
        .default(PERSONS_DEFAULTS.insertMode),
    )
    .option('--batch-size <n>', 'documents per bulk write (--insert-mode bulk)', positive('--batch-size'), PERSONS_DEFAULTS.batchSize)
    .option('--threads <n>', `writes in flight at once (default: ${PERSONS_DEFAULTS.singleConcurrency} document in single mode, ${PERSONS_DEFAULTS.concurrency} bulk writes in bulk mode)`, positive('--threads'))
    .option('-p, --property <key=value>', 'store setting (redis.*, cassandra.*, mongodb.*, couchdb.*, couchbase.*); repeatable', collect, [])
    .option('-q, --quiet', 'no progress bar on stderr', false);
}

function concurrencyOf(options: CommonOptions): number {
  return options.threads ?? (options.insertMode === 'single' ? PERSONS_DEFAULTS.singleConcurrency : PERSONS_DEFAULTS.concurrency);
}

function settingsFor(options: CommonOptions, size: number, repeat: number): PersonsSettings {
  const shape: Shape = options.nested ? 'nested' : 'flat';
  return { seed: options.seed, size, shape, indexes: options.indexes, insertMode: options.insertMode, batchSize: options.batchSize, concurrency: concurrencyOf(options), repeat };
}

function resultFile(dir: string, run: StoreRun, phase: 'load' | 'run'): string {
  const s = run.settings;
  return join(dir, `${run.store}-persons-${s.shape}-${s.size}${s.indexes ? '-indexed' : ''}-${phase}.json`);
}

/** `docbench seed persons …` on the scenario commands' `seed` command. */
export function registerPersonsSeed(seed: Command): void {
  const command = seed
    .command('persons')
    .description("the persons scenario's load phase: drop, create and bulk-load the dataset (same data on every store for the same seed)")
    .addOption(new Option('--store <name>', `store: ${PERSONS_DIALECTS.stores.join(', ')}`).makeOptionMandatory())
    .option('--size <n>', `documents (thesis sizes: ${SIZE_PRESETS.join(', ')})`, positive('--size'), PERSONS_DEFAULTS.size)
    .option('--out <file>', 'write the load result as JSON (atomically)');
  addCommonOptions(addTargetOptions(command, { several: false })).action(async (opts: CommonOptions & { store: string; size: number; out?: string }) => {
    const listed = storeList(opts.store);
    if (listed.length > 1) throw new UsageError(`--store: seed persons loads one store at a time; got ${listed.join(', ')}`);
    const store = listed[0]!;
    checkOutPath(opts.out);
    const settings = settingsFor(opts, opts.size, PERSONS_DEFAULTS.repeat);
    const target = singleTarget(opts, store);
    const open = await openStore(store, target.url, storeProperties([...target.settings, ...opts.property], concurrencyOf(opts)));
    let run: StoreRun;
    try {
      run = await seedPersons(open, settings, { progress: !opts.quiet });
    } finally {
      await open.store.close();
    }
    process.stdout.write(renderStoreTable(run));
    if (opts.out) writeResult(opts.out, run.load);
  });
}

/** `docbench persons …`. */
export function registerPersonsCommand(program: Command): void {
  const command = program
    .command('persons')
    .description('Henricsson 2011 (MongoDB vs CouchDB thesis) on every store: insert time, size on disk, Q1–Q5 (each answer verified against the oracle)')
    .option('--store <list>', `store, or comma-separated stores: ${PERSONS_DIALECTS.stores.join(', ')} (default: the config file's stores)`)
    .option('--stores <list>', 'the same as --store (the comparison spelling)')
    .option('--size <list>', `documents, or a comma-separated list; "thesis" = ${SIZE_PRESETS.join(',')}`, sizes, [PERSONS_DEFAULTS.size])
    .option('--repeat <n>', 'runs of each query (the mean is shown)', positive('--repeat'), PERSONS_DEFAULTS.repeat)
    .option('--out-dir <dir>', 'where result files go (default: results/persons-<timestamp>)')
    .option('--docker', 'use the real servers started by `docbench up --docker`', false);
  addCommonOptions(addTargetOptions(command, { several: true })).action(async (opts: CommonOptions & { store?: string; stores?: string; size: number[]; repeat: number; outDir?: string; docker: boolean }) => {
    if (opts.store !== undefined && opts.stores !== undefined) throw new UsageError('give --store or --stores, not both');
    const config = loadConfig(opts.config);
    const configured = defaultStores(config, []).filter((s) => PERSONS_DIALECTS.runsOn(s));
    if (opts.store === undefined && opts.stores === undefined && configured.length === 0) {
      throw new UsageError(`--store (or --stores) is required: one or more of ${PERSONS_DIALECTS.stores.join(', ')}`);
    }
    const stores = opts.store !== undefined ? storeList(opts.store) : opts.stores !== undefined ? storeList(opts.stores, '--stores') : configured;
    const targets = StoreTargets.resolve(opts, stores, config);
    const outDir = opts.outDir ?? join('results', `persons-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const properties = storeProperties([...targets.settings(), ...opts.property], concurrencyOf(opts));
    const runs: StoreRun[] = [];
    for (const store of stores) {
      const open = await openStore(store, targets.urlOf(store), properties);
      try {
        for (const size of opts.size) {
          const run = await runPersons(open, settingsFor(opts, size, opts.repeat), { progress: !opts.quiet });
          writeResult(resultFile(outDir, run, 'load'), run.load);
          writeResult(resultFile(outDir, run, 'run'), run.run!);
          process.stdout.write(`\n${renderStoreTable(run)}`);
          runs.push(run);
        }
      } finally {
        await open.store.close();
      }
    }
    const comparison = renderComparison(runs);
    process.stdout.write(`\n${comparison}`);
    writeFileAtomic(join(outDir, 'comparison.md'), comparison);
    process.stderr.write(`results written to ${outDir}\n`);
    writeReportBeside(outDir, runs.flatMap((r) => [r.run!, r.load]), { title: 'Persons scenario (Henricsson 2011)' });
    const failures = runs.flatMap((r) => r.failures);
    if (failures.length > 0) throw new AnswerMismatchError(`persons: ${failures.length} wrong or failed ${failures.length === 1 ? 'answer' : 'answers'}:\n${failures.join('\n')}`);
  });
}
