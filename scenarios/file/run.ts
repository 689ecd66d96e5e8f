/**
 * A scenario file on one store, start to end:
 *
 *   seed   drop, create, load every collection in bulk batches (INSERT-BATCH), build the
 *          indexes (INDEX-BUILD), write the manifest last: a store has a manifest only when its
 *          dataset is complete
 *   run    check the manifest (this file's data, not left mid-run), let the oracle draw and
 *          answer every query's parameter sets, mark the dataset dirty, run the mix on the shared
 *          run loop (threadcount workers or a target rate; operationcount / maxexecutiontime /
 *          warmuptime), put the seeded state back (updated and deleted documents rewritten,
 *          inserted ones removed), then, outside the timed run, every query of the file once per
 *          store: its plan (explain, EXPLAIN, `_explain`, tracing, or the structures read) and
 *          its answer checked again.
 *
 * A query the store's translation refuses is left out of the mix (the others' proportions grow
 * to fill it) and recorded as UNSUPPORTED with the reason: its verdict leaves the query out of
 * the store's figures with that reason (results/verdict.ts), and the rest is measured as it is,
 * valid and comparable query by query.
 */
import type { QueryPlan } from '../../src/results/schema.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import { coordinate, loopSettings, runWorkerLoop, RunControl } from '../../src/runner/schedule.ts';
import { Measurements } from '../../src/measure/measurements.ts';
import type { Store } from '../../src/stores/store.ts';
import { Random } from '../../src/workload/random.ts';
import { WorkloadError } from '../../src/workload/properties.ts';
import { SEED_STEP } from '../../src/shard/shard-spec.ts';
import { loadInBatches } from '../shared/batches.ts';
import { takePlan } from '../shared/plans.ts';
import { ProgressBar } from '../shared/progress.ts';
import { ScenarioTimer } from '../shared/timing.ts';
import { checkAnswer } from './answers.ts';
import type { FileDialect, Manifest } from './dialect.ts';
import { FILE_DIALECTS } from './dialects.ts';
import type { Doc } from './generator.ts';
import type { RunSettings, Scenario } from './model.ts';
import { newTouched, Operations, type Touched } from './operations.ts';
import { Oracle, type PoolEntry } from './oracle.ts';
import type { CollectionRange } from './shard.ts';

export function fileDialect(store: Store, scenario: Scenario): Promise<FileDialect> {
  return FILE_DIALECTS.create(store, { scenario });
}

export interface SeedOptions {
  batchSize: number;
  concurrency: number;
  progress: boolean;
  /** One part of a sharded seed: its documents, and the meetings with the other parts. */
  part?: SeedPart;
}

/** A part of a sharded seed (shard.ts): it writes its documents only. */
export interface SeedPart {
  /** Part 0: it drops and prepares before the others write, and builds the indexes and the manifest once all have. */
  leads: boolean;
  /** The documents of each collection this part writes. */
  ranges: CollectionRange[];
  /** Every part at the barrier (part 0 has dropped and prepared by then). */
  start(): Promise<void>;
  /** Every part's documents are in. */
  written(): Promise<void>;
}

/** The load phase; returns its outcome (for the load result) and what the indexes became. */
export async function seedFile(
  dialect: FileDialect,
  scenario: Scenario,
  store: string,
  options: SeedOptions,
): Promise<PhaseOutcome> {
  const timer = new ScenarioTimer();
  timer.note(dialect.structures);
  const part = options.part;
  const leads = part === undefined || part.leads;
  if (leads) {
    await dialect.drop();
    await dialect.prepare();
  }
  await part?.start();
  const ranges =
    part?.ranges ??
    [...scenario.collections.values()].map((collection) => ({ collection, from: 0, to: collection.count }));
  const total = ranges.reduce((n, r) => n + r.to - r.from, 0);
  const progress = options.progress
    ? new ProgressBar({ label: `[${store} seed ${scenario.name}]`, total, unit: 'docs' })
    : undefined;
  try {
    for (const { collection: c, from, to } of ranges) {
      await loadInBatches<Doc>({
        total: to - from,
        batchSize: options.batchSize,
        concurrency: options.concurrency,
        build: (start, end) => Array.from({ length: end - start }, (_, i) => c.generator.generate(from + start + i)),
        write: (batch) => dialect.insertMany(c, batch),
        timer,
        ...(progress ? { progress } : {}),
      });
    }
  } finally {
    progress?.finish();
  }
  await part?.written();
  if (!leads) {
    timer.note('this part wrote its documents; part 0 builds the indexes and writes the manifest once every part has');
    return timer.outcome('load');
  }
  const built = await timer.time('INDEX-BUILD', () => dialect.buildIndexes(), 0);
  timer.note(`indexes: ${built.value}`);
  const counts = Object.fromEntries([...scenario.collections.values()].map((c) => [c.name, c.count]));
  await dialect.writeManifest({
    scenario: scenario.name,
    datasetDigest: scenario.datasetDigest,
    counts,
    seededAt: new Date().toISOString(),
    dirty: false,
  });
  return timer.outcome('load');
}

/** The store's manifest, checked: this file's dataset, complete, not left mid-run. */
export async function checkManifest(dialect: FileDialect, scenario: Scenario, store: string): Promise<Manifest> {
  const manifest = await dialect.readManifest();
  const seed = `docbench seed scenario ${scenario.file} --store ${store}`;
  if (manifest === null) throw new WorkloadError(`no ${scenario.name} dataset in ${store}: seed it first (${seed})`);
  if (manifest.datasetDigest !== scenario.datasetDigest)
    throw new WorkloadError(
      `the ${scenario.name} dataset in ${store} was seeded from other collections or another seed than ${scenario.file} describes now: seed again (${seed})`,
    );
  if (manifest.dirty)
    throw new WorkloadError(
      `the ${scenario.name} dataset in ${store} was left by an interrupted run with its writes not undone: seed again (${seed})`,
    );
  return manifest;
}

export interface FileRun {
  outcome: PhaseOutcome;
  plans: QueryPlan[];
  /** The first wrong answer (it stopped the run), or of the checks after it. */
  mismatch?: string;
  /** One line per query the store refused, with the reason. */
  refused: string[];
}

export interface RunOptions {
  settings: RunSettings;
  status: boolean;
  label: string;
  /** The oracle and its pools, when the caller has them already (several stores, one file). */
  oracle?: Oracle;
  pools?: Map<string, PoolEntry[]>;
  /** One part of a sharded run (`settings` are then its share). */
  part?: RunPart;
}

/** A part of a sharded run (shard.ts). */
export interface RunPart {
  index: number;
  /** Workers in the whole run, and the number of this part's first: its workers write what those of one process would. */
  threadcount: number;
  firstWorker: number;
  /** Every part at the barrier, workers ready. */
  start(): Promise<void>;
  /** Every part has undone its writes: part 0 then marks the dataset clean, and the answers are checked on it. */
  undone(): Promise<void>;
}

/** Every query's parameter sets and answers (computed once per file, shared by every store). */
export function poolsOf(oracle: Oracle, n: number): Map<string, PoolEntry[]> {
  return new Map([...oracle.scenario.queries.values()].map((q) => [q.name, oracle.pool(q, n)]));
}

export async function runFile(
  dialect: FileDialect,
  scenario: Scenario,
  store: string,
  options: RunOptions,
): Promise<FileRun> {
  const manifest = await checkManifest(dialect, scenario, store);
  const s = options.settings;
  const oracle = options.oracle ?? new Oracle(scenario);
  const pools = options.pools ?? poolsOf(oracle, s.parametersets);
  const measurements = new Measurements(true, true);
  const refused: string[] = [];
  for (const [op] of scenario.mix) {
    const t = dialect.translations.get(op);
    if (t !== undefined && !t.supported) {
      refused.push(`${op}: ${t.reason}`);
      measurements.countStatus(op, 'UNSUPPORTED', `${op} is not supported: ${t.reason}`);
    }
  }
  const mix = scenario.mix.filter(([op]) => dialect.translations.get(op)?.supported !== false);
  const share = mix.reduce((sum, [, p]) => sum + p, 0);
  const control = new RunControl();
  const touched = newTouched();
  const operations =
    mix.length === 0
      ? undefined
      : new Operations({
          scenario,
          dialect,
          store,
          mix: mix.map(([op, p]) => [op, p / share]),
          pools,
          measurements,
          control,
          // A part draws from a stream of its own; part 0 (and an unsharded run) from the file's.
          random: new Random(scenario.seed + (options.part?.index ?? 0) * SEED_STEP, 7),
          threadcount: options.part?.threadcount ?? s.threadcount,
          firstWorker: options.part?.firstWorker ?? 0,
          touched,
        });
  const settings = {
    threadcount: s.threadcount,
    target: s.target,
    operationcount: s.operationcount,
    maxexecutiontime: s.maxexecutiontime,
    warmuptime: s.warmuptime,
    statusIntervalSeconds: 10,
  };
  const part = options.part;
  const markDirty = () => dialect.writeManifest({ ...manifest, dirty: true });
  // A part marks it once every part has checked it (a part that came later would find it dirty).
  if (part === undefined) await markDirty();
  const notes: string[] = [];
  let run;
  try {
    run = await coordinate({
      measurements,
      settings,
      status: options.status,
      label: options.label,
      control,
      ...(part
        ? {
            beforeStart: async () => {
              await part.start();
              await markDirty();
            },
          }
        : {}),
      engine: {
        run: async (ctl, startMs) =>
          mix.length === 0
            ? []
            : [
                await runWorkerLoop({
                  measurements,
                  control: ctl,
                  ...loopSettings(settings),
                  firstWorker: 0,
                  workers: s.threadcount,
                  startMs,
                  worker: () => operations!.worker(),
                }),
              ],
      },
    });
  } finally {
    await restore(dialect, scenario, touched);
    if (part === undefined) await dialect.writeManifest({ ...manifest, dirty: false });
  }
  if (part !== undefined) {
    try {
      await part.undone();
      if (part.index === 0) await dialect.writeManifest({ ...manifest, dirty: false });
    } catch (error) {
      notes.push(
        `the parts did not all meet after undoing their writes (${error instanceof Error ? error.message : String(error)}): the dataset stays marked dirty; seed again`,
      );
    }
  }
  notes.unshift(...run.notes);
  if (refused.length > 0)
    notes.push(
      `left out of the mix on this store (UNSUPPORTED), the other operations' proportions scaled up to fill it: ${refused.join('; ')}`,
    );
  if (operations === undefined) notes.push('nothing of the mix runs on this store: no operation was timed');
  if (operations?.mismatch) notes.push(`stopped at the first answer the oracle rejected: ${operations.mismatch}`);
  const checked = await planAndCheck(dialect, scenario, pools);
  notes.push(...checked.notes);
  return {
    outcome: { phase: 'run', measurements, ...run, notes, recordsLoaded: 0, processes: 1 },
    plans: checked.plans,
    refused,
    ...((operations?.mismatch ?? checked.mismatch) !== undefined
      ? { mismatch: (operations?.mismatch ?? checked.mismatch)! }
      : {}),
  };
}

/** Undo the run's writes: every touched seeded document as it was seeded, every inserted one gone. */
async function restore(dialect: FileDialect, scenario: Scenario, touched: Touched): Promise<void> {
  for (const [name, indexes] of touched.seeded) {
    const c = scenario.collections.get(name)!;
    for (const index of indexes) {
      const original = c.generator.generate(index);
      const current = await dialect.read(c, String(original._id));
      if (current === null) await dialect.insert(c, original);
      else
        await dialect.update(
          c,
          current,
          original,
          [...new Set([...Object.keys(current), ...Object.keys(original)])].filter((k) => k !== '_id'),
        );
    }
  }
  for (const [name, indexes] of touched.inserted) {
    const c = scenario.collections.get(name)!;
    for (const index of indexes) await dialect.delete(c, c.generator.generate(index));
  }
}

/** Every query once: its plan, and its answer for the first parameter set checked (outside the timed run). */
async function planAndCheck(
  dialect: FileDialect,
  scenario: Scenario,
  pools: ReadonlyMap<string, PoolEntry[]>,
): Promise<{ plans: QueryPlan[]; notes: string[]; mismatch?: string }> {
  const plans: QueryPlan[] = [];
  const notes: string[] = [];
  let mismatch: string | undefined;
  for (const query of scenario.queries.values()) {
    const translation = dialect.translations.get(query.name)!;
    const entry = pools.get(query.name)![0]!;
    if (!translation.supported) {
      plans.push({
        query: query.name,
        variant: 'default',
        parameters: JSON.stringify(entry.params),
        access: 'unknown',
        used: [],
        warnings: [`UNSUPPORTED: ${translation.reason}`],
        indexExpected: false,
        flagged: false,
        source: 'UNSUPPORTED',
        raw: '',
      });
      continue;
    }
    // A find's answer needs its rows and those it skips; a count or group, every entry in range.
    const explain = async () => {
      const plan = await dialect.explain(query, entry.params);
      return query.kind === 'find' && plan.returned !== undefined
        ? { ...plan, rowsNeeded: query.skip + plan.returned }
        : plan;
    };
    plans.push(await takePlan(query.name, 'default', explain, entry.params));
    try {
      const problem = checkAnswer(query, entry.expected, await dialect.query(query, entry.params));
      if (problem !== undefined) mismatch ??= `${query.name} ${JSON.stringify(entry.params)}: ${problem}`;
      notes.push(
        `${query.name}: ${translation.description}; answer ${problem === undefined ? 'checked against the oracle' : `WRONG: ${problem}`}`,
      );
    } catch (error) {
      notes.push(
        `${query.name}: ${translation.description}; failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return { plans, notes, ...(mismatch !== undefined ? { mismatch } : {}) };
}
