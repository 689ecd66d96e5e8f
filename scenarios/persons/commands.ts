/**
 * The persons scenario's commands at work (cli.ts registers them): `docbench seed persons`,
 * `docbench persons`, and the seeding `docbench k6 persons --size N` asks for.
 *
 * `persons` seeds each store, measures size and Q1–Q5 (every answer checked against the
 * oracle), prints a table per store and a comparison, and writes every result as JSON (common
 * schema) plus the comparison under the output folder. With `--repetitions N` it does so in N
 * rounds, every store once per round in a fresh random order; each run seeds its own data (the
 * insert is one of its figures), so no round runs on what another left. A wrong answer fails the
 * command after everything is written, with one line per problem.
 */
import { join } from 'node:path';
import { UsageError } from '../../src/common/user-error.ts';
import { writeReportBeside } from '../../src/report/report-files.ts';
import { checkOutPath, writeFileAtomic, writeResult } from '../../src/results/write.ts';
import { loadConfig } from '../../src/session/config-file.ts';
import { openStore, requestFrom, type StoreRequest } from '../../src/session/store-session.ts';
import { defaultStores, singleTarget, StoreTargets, type TargetFlags } from '../../src/session/store-targets.ts';
import { isStoreSetting, ownSettings, storeSettings } from '../shared/serve-settings.ts';
import { AnswerMismatchError } from '../shared/verify.ts';
import { PERSONS_DEFAULTS, type InsertMode } from './defaults.ts';
import { PERSONS_DIALECTS } from './dialects.ts';
import type { Shape } from './model.ts';
import { renderComparison, renderStoreTable } from './report.ts';
import { parsePersonsSettings, personsCollection } from './routes.ts';
import { runPersons, seedPersons, type PersonsSettings, type StoreRun } from './run.ts';
import { withRepetition, type RoundPlace } from '../../src/results/repetition.ts';
import { roundLine, roundSuffix, roundTurns, type RoundFlags } from '../shared/rounds.ts';

/** `-p` here takes store settings only (`redis.driver=…`). */
function storeProperties(assignments: readonly string[], concurrency: number): StoreRequest {
  for (const a of assignments) {
    if (!isStoreSetting(a))
      throw new UsageError(
        `-p ${a}: the persons scenario takes store settings only (${PERSONS_DIALECTS.stores.map((s) => `${s}.*`).join(', ')})`,
      );
  }
  return requestFrom(assignments, concurrency);
}

export interface CommonOptions extends TargetFlags {
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

function concurrencyOf(options: CommonOptions): number {
  return (
    options.threads ??
    (options.insertMode === 'single' ? PERSONS_DEFAULTS.singleConcurrency : PERSONS_DEFAULTS.concurrency)
  );
}

function settingsFor(options: CommonOptions, size: number, repeat: number): PersonsSettings {
  const shape: Shape = options.nested ? 'nested' : 'flat';
  return {
    seed: options.seed,
    size,
    shape,
    indexes: options.indexes,
    insertMode: options.insertMode,
    batchSize: options.batchSize,
    concurrency: concurrencyOf(options),
    repeat,
  };
}

function resultFile(dir: string, run: StoreRun, phase: 'load' | 'run', place: RoundPlace): string {
  const s = run.settings;
  return join(
    dir,
    `${run.store}-persons-${s.shape}-${s.size}${s.indexes ? '-indexed' : ''}${roundSuffix(place)}-${phase}.json`,
  );
}

/** `docbench seed persons …`. */
export async function seedCommand(opts: CommonOptions & { store: string; size: number; out?: string }): Promise<void> {
  const listed = PERSONS_DIALECTS.storeList(opts.store, '--store');
  if (listed.length > 1)
    throw new UsageError(`--store: seed persons loads one store at a time; got ${listed.join(', ')}`);
  const store = listed[0]!;
  checkOutPath(opts.out);
  const settings = settingsFor(opts, opts.size, PERSONS_DEFAULTS.repeat);
  const target = singleTarget(opts, store);
  const open = await openStore(
    store,
    target.url,
    storeProperties([...target.settings, ...opts.property], concurrencyOf(opts)),
  );
  let run: StoreRun;
  try {
    run = await seedPersons(open, settings, { progress: !opts.quiet });
  } finally {
    await open.store.close();
  }
  process.stdout.write(renderStoreTable(run));
  if (opts.out) writeResult(opts.out, run.load);
}

export type CompareOptions = CommonOptions &
  RoundFlags & {
    store?: string;
    stores?: string;
    size: number[];
    repeat: number;
    outDir?: string;
    docker: boolean;
  };

/** `docbench persons …`. */
export async function compareCommand(opts: CompareOptions): Promise<void> {
  if (opts.store !== undefined && opts.stores !== undefined) throw new UsageError('give --store or --stores, not both');
  const config = loadConfig(opts.config);
  const configured = defaultStores(config, []).filter((s) => PERSONS_DIALECTS.runsOn(s));
  if (opts.store === undefined && opts.stores === undefined && configured.length === 0) {
    throw new UsageError(`--store (or --stores) is required: one or more of ${PERSONS_DIALECTS.stores.join(', ')}`);
  }
  const stores =
    opts.store !== undefined
      ? PERSONS_DIALECTS.storeList(opts.store, '--store')
      : opts.stores !== undefined
        ? PERSONS_DIALECTS.storeList(opts.stores, '--stores')
        : configured;
  const targets = StoreTargets.resolve(opts, stores, config).checkDocker();
  const outDir = opts.outDir ?? join('results', `persons-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const properties = storeProperties([...targets.settings(), ...opts.property], concurrencyOf(opts));
  const runs: StoreRun[] = [];
  for (const { store, place, opensRound } of roundTurns(stores, opts)) {
    if (opensRound && !opts.quiet) process.stderr.write(roundLine('persons', place));
    const open = await openStore(store, targets.urlOf(store), properties);
    try {
      for (const size of opts.size) {
        const measured = await runPersons(open, settingsFor(opts, size, opts.repeat), { progress: !opts.quiet });
        const run = {
          ...measured,
          load: withRepetition(measured.load, place, store),
          run: withRepetition(measured.run!, place, store),
        };
        writeResult(resultFile(outDir, run, 'load', place), run.load);
        writeResult(resultFile(outDir, run, 'run', place), run.run);
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
  writeReportBeside(
    outDir,
    runs.flatMap((r) => [r.run!, r.load]),
    { title: 'Persons scenario (Henricsson 2011)' },
  );
  const failures = runs.flatMap((r) => r.failures);
  if (failures.length > 0)
    throw new AnswerMismatchError(
      `persons: ${failures.length} wrong or failed ${failures.length === 1 ? 'answer' : 'answers'}:\n${failures.join('\n')}`,
    );
}

/** `docbench k6 persons --size N [--nested]`: seed first, as `docbench seed persons` does (bulk). */
export async function seedForK6(
  store: string,
  targets: StoreTargets,
  size: number,
  nested: boolean,
  overrides: readonly string[],
  quiet: boolean,
): Promise<void> {
  const s = parsePersonsSettings(ownSettings('persons', overrides));
  const open = await openStore(
    store,
    targets.urlOf(store),
    requestFrom([...targets.settings(), ...storeSettings(overrides)], 4),
  );
  try {
    const shape = nested ? ('nested' as const) : ('flat' as const);
    if (!quiet) process.stderr.write(`k6: ${store}: seeding ${size} ${shape} persons (docbench seed persons)\n`);
    const settings = {
      seed: s.seed,
      size,
      shape,
      indexes: s.indexes,
      batchSize: PERSONS_DEFAULTS.batchSize,
      concurrency: PERSONS_DEFAULTS.concurrency,
      repeat: 1,
    };
    await seedPersons(open, settings, { progress: !quiet, collection: personsCollection(s, shape) });
  } finally {
    await open.store.close();
  }
}
