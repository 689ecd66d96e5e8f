/**
 * The persons scenario end to end on one store: seed the dataset (the load phase, timed), take
 * its size on disk (and again after compaction where the store has it), build indexes and views
 * where asked (timed apart from the queries), then run Q1–Q5 `repeat` times in every query
 * variant the store has, each answer fully drained and checked against the oracle.
 *
 * A wrong answer does not stop the other queries (the result file should show every problem),
 * but the run reports it as a failure naming store, variant, query, expected and got; the CLI
 * turns any failure into a failed command. A query the store cannot run is UNSUPPORTED, never a
 * success. Everything measured ends up in two results in the common schema (load and run),
 * from which tables and JSON files are rendered.
 *
 * Row names in the run result: `INDEX-BUILD`, `COMPACT`, `<variant>:BUILD`, `<variant>:Q1` …,
 * and `<variant>:Q1-VERIFY` for the checks.
 */
import type { OpenStore } from '../../src/session/store-session.ts';
import { describeStore } from '../../src/session/store-session.ts';
import type { FlatProperties } from '../../src/results/build.ts';
import type { Result, StoreInfo } from '../../src/results/schema.ts';
import { UnsupportedError } from '../../src/stores/store.ts';
import { loadInBatches } from '../shared/batches.ts';
import { ProgressBar } from '../shared/progress.ts';
import { ScenarioTimer, scenarioResult } from '../shared/timing.ts';
import { checkAnswer } from '../shared/verify.ts';
import { formatMs } from '../shared/format.ts';
import { canBuildIndexes, canBuildVariant, canCompact, type DiskSize, type PersonsDialect } from './dialect.ts';
import { PERSONS_DIALECTS } from './dialects.ts';
import { generateRecords } from './generator.ts';
import { explainQueries } from './plans.ts';
import { collectionName, type PersonRecord } from './model.ts';
import {
  checkBodies,
  expectedAnswers,
  expectedIds,
  vacuousQueries,
  type DatasetSpec,
  type Expectations,
} from './oracle.ts';
import { QUERIES } from './queries.ts';

export const SCENARIO = 'persons';

import type { InsertMode } from './defaults.ts';

export interface PersonsSettings extends DatasetSpec {
  indexes: boolean;
  /** Absent: bulk (a seed for other tools, e.g. the service's); the persons commands default to single. */
  insertMode?: InsertMode;
  /** Documents per bulk write (bulk mode only). */
  batchSize: number;
  concurrency: number;
  repeat: number;
}

export function insertModeOf(settings: PersonsSettings): InsertMode {
  return settings.insertMode ?? 'bulk';
}

export interface RunOptions {
  /** Progress bar on stderr while seeding. */
  progress: boolean;
  /** Collection / table / database name instead of the shape's own (`persons`, `persons_nested`), e.g. to keep a test's data apart. */
  collection?: string;
}

/** One store's run: its two results and every problem found. */
export interface StoreRun {
  store: string;
  settings: PersonsSettings;
  load: Result;
  /** Absent for a seed-only run. */
  run?: Result;
  /** Wrong answers and failed queries, one line each. */
  failures: string[];
}

const verifyRow = (variant: string, query: string) => `${variant}:${query}-VERIFY`;
export const queryRow = (variant: string, query: string) => `${variant}:${query}`;
export const buildRow = (variant: string) => `${variant}:BUILD`;

export function openDialect(
  open: OpenStore,
  settings: PersonsSettings,
  collection = collectionName(settings.shape),
): Promise<PersonsDialect> {
  return PERSONS_DIALECTS.create(open.store, {
    shape: settings.shape,
    indexes: settings.indexes,
    size: settings.size,
    collection,
  });
}

/** What goes into both results' `workload.properties`: every setting, and what the oracle expects. */
function properties(settings: PersonsSettings, dialect: PersonsDialect, expectations?: Expectations): FlatProperties {
  const p: FlatProperties = {
    scenario: SCENARIO,
    seed: settings.seed,
    size: settings.size,
    shape: settings.shape,
    indexes: settings.indexes,
    insertmode: insertModeOf(settings),
    ...(insertModeOf(settings) === 'bulk' ? { batchsize: settings.batchSize } : {}),
    concurrency: settings.concurrency,
    repeat: settings.repeat,
    variants: dialect.variants.map((v) => v.name).join(','),
  };
  for (const v of dialect.variants) {
    p[`variant.${v.name}`] = v.description;
    if (v.usesIndexes === false) p[`variant.${v.name}.usesIndexes`] = false;
  }
  for (const q of QUERIES) p[`query.${q.id}`] = q.description;
  if (expectations) {
    for (const [id, e] of expectations) {
      p[`oracle.${id}.count`] = e.count;
      p[`oracle.${id}.checksum`] = e.checksum;
    }
  }
  return p;
}

/** The store as the result records it, with the dataset's size in place of the store-wide figures. */
async function storeInfo(
  open: OpenStore,
  size: DiskSize,
  compacted: DiskSize | undefined,
  compaction: string,
  settings: PersonsSettings,
): Promise<StoreInfo> {
  // The store-wide figure describeStore brings (a whole database or bucket) is replaced by the
  // dataset's own, or removed when the store cannot say: a result never shows a size it did not measure.
  const { diskBytes: _storeWide, ...info } = await describeStore(open);
  return {
    ...info,
    ...(size.bytes !== undefined ? { diskBytes: size.bytes } : {}),
    recordCount: settings.size,
    extra: {
      ...info.extra,
      'persons.disk.method': size.method,
      ...(compacted?.bytes !== undefined ? { 'persons.disk.compactedBytes': compacted.bytes } : {}),
      ...(compacted ? { 'persons.disk.compactedMethod': compacted.method } : {}),
      'persons.compaction': compaction,
    },
  };
}

function workloadName(settings: PersonsSettings): string {
  return `${SCENARIO}-${settings.shape}-${settings.size}${settings.indexes ? '-indexed' : ''}`;
}

function label(open: OpenStore, settings: PersonsSettings): string {
  return `[${open.store.name} persons ${settings.size} ${settings.shape}]`;
}

/** The load phase: drop what was there, create the collection, write every document (one at a time, or in batches). */
async function seed(
  dialect: PersonsDialect,
  open: OpenStore,
  settings: PersonsSettings,
  options: RunOptions,
): Promise<ScenarioTimer> {
  await dialect.drop();
  await dialect.prepare();
  const timer = new ScenarioTimer();
  const progress = options.progress
    ? new ProgressBar({ label: label(open, settings), total: settings.size, unit: 'docs' })
    : undefined;
  try {
    const single = insertModeOf(settings) === 'single';
    await loadInBatches({
      total: settings.size,
      batchSize: single ? 1 : settings.batchSize,
      concurrency: settings.concurrency,
      build: (start, end) => generateRecords(settings.seed, settings.shape, start, end),
      write: single ? (batch) => dialect.insertOne(batch[0]!) : (batch) => dialect.insertMany(batch),
      operation: single ? 'INSERT' : 'INSERT-BATCH',
      timer,
      ...(progress ? { progress } : {}),
    });
  } finally {
    progress?.finish();
  }
  if (insertModeOf(settings) === 'single')
    timer.note(
      `load: one insert per document (the store's single-document write, as the thesis timed it), ${settings.concurrency} in flight; INSERT rows count documents`,
    );
  else
    timer.note(
      `load: bulk writes of ${settings.batchSize} documents, ${settings.concurrency} in flight (--insert-mode bulk: not what the thesis timed); INSERT-BATCH rows count writes, OVERALL counts documents`,
    );
  return timer;
}

/** Size after load, and after compaction where the store has one. */
async function measureSize(
  dialect: PersonsDialect,
  timer: ScenarioTimer,
): Promise<{ size: DiskSize; compacted?: DiskSize; compaction: string }> {
  const size = await dialect.sizeOnDisk();
  if (!canCompact(dialect)) return { size, compaction: dialect.noCompaction ?? 'none' };
  try {
    const compacted = (await timer.time('COMPACT', () => dialect.compact())).value;
    return { size, compacted, compaction: 'timed as COMPACT' };
  } catch (error) {
    if (!(error instanceof UnsupportedError)) throw error;
    return { size, compaction: `UNSUPPORTED: ${error.message}` };
  }
}

/**
 * Build the secondary indexes, timed as INDEX-BUILD. A store (or stand-in) that cannot is noted
 * as UNSUPPORTED and the run goes on: its queries then say for themselves what they can do.
 */
async function buildIndexes(dialect: PersonsDialect, timer: ScenarioTimer): Promise<void> {
  if (!canBuildIndexes(dialect)) return;
  try {
    const built = await timer.time('INDEX-BUILD', () => dialect.buildIndexes());
    timer.note(`indexes (built in ${formatMs(built.ms)} ms): ${built.value}`);
  } catch (error) {
    if (!(error instanceof UnsupportedError)) throw error;
    timer.note(`indexes: UNSUPPORTED: ${error.message}`);
  }
}

/** `docbench seed persons`: the load phase alone, leaving the data (and indexes, if asked) in place. */
export async function seedPersons(open: OpenStore, settings: PersonsSettings, options: RunOptions): Promise<StoreRun> {
  const dialect = await openDialect(open, settings, options.collection);
  try {
    const timer = await seed(dialect, open, settings, options);
    const loadOutcome = timer.outcome('load');
    const size = await dialect.sizeOnDisk();
    // Indexes after the size, as in `persons`: the size is the data's, without secondary indexes.
    const after = new ScenarioTimer();
    after.note(`size on disk: ${size.method}`);
    if (settings.indexes) await buildIndexes(dialect, after);
    const store = await storeInfo(open, size, undefined, 'not run by seed', settings);
    const load = scenarioResult(loadOutcome, {
      scenario: SCENARIO,
      workloadName: workloadName(settings),
      properties: properties(settings, dialect),
      store,
    });
    load.notes.push(...after.outcome('run').notes);
    return { store: open.store.name, settings, load, failures: [] };
  } finally {
    await dialect.close?.();
  }
}

/** `docbench persons`: seed, size, indexes, views, Q1–Q5 checked against the oracle. */
export async function runPersons(open: OpenStore, settings: PersonsSettings, options: RunOptions): Promise<StoreRun> {
  const expectations = expectedAnswers(settings);
  const dialect = await openDialect(open, settings, options.collection);
  try {
    const loadOutcome = (await seed(dialect, open, settings, options)).outcome('load');
    const timer = new ScenarioTimer();
    const { size, compacted, compaction } = await measureSize(dialect, timer);
    timer.note(`size on disk: ${size.method}`);
    if (compacted) timer.note(`after compaction: ${compacted.method}`);
    else timer.note(`compaction: ${compaction}`);
    if (settings.indexes) await buildIndexes(dialect, timer);
    const vacuous = vacuousQueries(expectations);
    if (vacuous.length > 0)
      timer.note(
        `${vacuous.join(', ')} match no document at this size: a store answering nothing would pass them; use a larger size`,
      );
    const failures = await runQueries(dialect, open.store.name, settings, expectations, timer);
    const outcome = timer.outcome('run');
    // After the timed runs: how the store ran each query (explain, tracing, …).
    const plans = await explainQueries(dialect);
    const store = await storeInfo(open, size, compacted, compaction, settings);
    const context = {
      scenario: SCENARIO,
      workloadName: workloadName(settings),
      properties: properties(settings, dialect, expectations),
      store,
    };
    const run = scenarioResult(outcome, context);
    if (plans.length > 0) run.plans = plans;
    return { store: open.store.name, settings, load: scenarioResult(loadOutcome, context), run, failures };
  } finally {
    await dialect.close?.();
  }
}

/**
 * Every variant's Q1–Q5, `repeat` times each, every answer checked against the oracle; returns
 * one line per wrong or failed answer (empty when all is right). Exported for the tests, which
 * hand it a dialect that answers wrongly on purpose.
 */
export async function runQueries(
  dialect: PersonsDialect,
  store: string,
  settings: PersonsSettings,
  expectations: Expectations,
  timer: ScenarioTimer,
): Promise<string[]> {
  const failures: string[] = [];
  for (const variant of dialect.variants) {
    timer.note(`${variant.name}: ${variant.description}`);
    if (variant.build && canBuildVariant(dialect)) {
      try {
        const built = await timer.time(buildRow(variant.name), () => dialect.buildVariant(variant.name));
        timer.note(`${variant.name} build: ${built.value}`);
      } catch (error) {
        if (!(error instanceof UnsupportedError)) throw error;
        // Without its build the variant cannot run at all: each query is UNSUPPORTED, never "not run".
        timer.note(`${variant.name}: UNSUPPORTED: ${error.message}`);
        for (const query of QUERIES)
          timer.measurements.countStatus(queryRow(variant.name, query.id), 'UNSUPPORTED', error.message);
        continue;
      }
    }
    for (const query of QUERIES) {
      const expected = expectations.get(query.id)!;
      const subject = { store, query: query.id, variant: variant.name };
      for (let r = 0; r < settings.repeat; r++) {
        let records: PersonRecord[];
        try {
          records = (await timer.time(queryRow(variant.name, query.id), () => dialect.query(variant.name, query)))
            .value;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (error instanceof UnsupportedError) timer.note(`${variant.name}:${query.id}: UNSUPPORTED: ${message}`);
          else failures.push(`${store} [${variant.name}] ${query.id} failed: ${message}`);
          break; // the same call would fail the same way again
        }
        const checkStart = performance.now();
        // The ids first (a wrong set is explained by the ids missing and unexpected), then the bodies.
        const ids = records.map((r) => r.id);
        const check = checkAnswer(subject, expected, ids, () => expectedIds(settings, query));
        const bodies = check.ok ? checkBodies(settings, expected, records) : undefined;
        const problem =
          check.problem ??
          (bodies === undefined
            ? undefined
            : `${store} [${variant.name}] ${query.id}: the right ${ids.length} ids, but ${bodies}`);
        timer.check(verifyRow(variant.name, query.id), problem === undefined, performance.now() - checkStart, problem);
        if (problem !== undefined) {
          failures.push(problem);
          break;
        }
      }
    }
  }
  return failures;
}

/** Read back from a run result: did every run of a query succeed and check out? */
export function queryStatus(
  run: Result,
  variant: string,
  query: string,
): 'verified' | 'UNSUPPORTED' | 'ERROR' | 'WRONG' | 'not run' {
  const row = run.operations.find((o) => o.name === queryRow(variant, query));
  const check = run.operations.find((o) => o.name === verifyRow(variant, query));
  if (check?.returns?.UNEXPECTED_STATE) return 'WRONG';
  // A store that failed (its own error, refused, timed out) is an ERROR, not a query not run.
  if (row?.returns?.ERROR || row?.returns?.TIMEOUT || row?.returns?.SERVICE_UNAVAILABLE) return 'ERROR';
  if (row?.returns?.UNSUPPORTED) return 'UNSUPPORTED';
  if (row?.returns?.OK && check?.returns?.OK === row.returns.OK) return 'verified';
  return 'not run';
}
