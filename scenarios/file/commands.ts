/**
 * A scenario file's commands at work (cli.ts registers them):
 *
 *   docbench scenario <file> [--stores a,b] [--skip-seed]   seed each store, run the mix, one table
 *   docbench scenario <file> … --repetitions N              the same in N interleaved rounds (a seed each)
 *   docbench seed scenario <file> --store X                  the load phase alone
 *
 * Every answer is checked against the oracle; a wrong one stops that store's run, everything
 * measured is still written, and the command fails naming store, operation and parameters.
 */
import { join } from 'node:path';
import { UsageError } from '../../src/common/user-error.ts';
import { writeReportBeside } from '../../src/report/report-files.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import type { FlatProperties } from '../../src/results/build.ts';
import type { Result } from '../../src/results/schema.ts';
import { checkOutPath, writeFileAtomic, writeResult } from '../../src/results/write.ts';
import { interrupts } from '../../src/common/interrupts.ts';
import { loadConfig } from '../../src/session/config-file.ts';
import {
  closeQuietly,
  describeStore,
  openStore,
  requestFrom,
  type OpenStore,
} from '../../src/session/store-session.ts';
import { defaultStores, singleTarget, StoreTargets, type TargetFlags } from '../../src/session/store-targets.ts';
import { renderPlans } from '../shared/plans.ts';
import { isStoreSetting } from '../shared/serve-settings.ts';
import { scenarioResult } from '../shared/timing.ts';
import { AnswerMismatchError } from '../shared/verify.ts';
import type { FileDialect } from './dialect.ts';
import { FILE_DIALECTS } from './dialects.ts';
import { loadScenario } from './load.ts';
import { RUN_DEFAULTS, type RunSettings, type Scenario } from './model.ts';
import { Oracle } from './oracle.ts';
import { collectionRanges, runShare, seedShare } from './shard.ts';
import { ShardPart, type ShardFlags } from '../../src/shard/shard-part.ts';
import { renderFileNotes, renderFileTable } from './report.ts';
import { fileDialect, poolsOf, runFile, seedFile } from './run.ts';
import { withRepetition } from '../../src/results/repetition.ts';
import { renderRepeatedTable } from '../shared/repeated-table.ts';
import { refuseSharedWrites, roundLine, roundSuffix, roundTurns, type RoundFlags } from '../shared/rounds.ts';

export const KIND = 'scenario';

export interface CommonOptions extends TargetFlags {
  property: string[];
  threads?: number;
  target?: number;
  batchSize: number;
  quiet: boolean;
}

/** `-p`: the file's run settings (operationcount, …) or store settings; anything else is a mistake. */
export function settingsOf(
  scenario: Scenario,
  options: Pick<CommonOptions, 'property' | 'threads' | 'target'>,
): { run: RunSettings; store: string[] } {
  const run: RunSettings = { ...scenario.run };
  const store: string[] = [];
  for (const a of options.property) {
    const eq = a.indexOf('=');
    const key = a.slice(0, Math.max(0, eq)).trim();
    if (eq <= 0) throw new UsageError(`-p ${a}: expected key=value`);
    if (isStoreSetting(a)) {
      store.push(a);
      continue;
    }
    if (!Object.hasOwn(RUN_DEFAULTS, key))
      throw new UsageError(
        `-p ${key}: unknown setting; expected one of ${Object.keys(RUN_DEFAULTS).join(', ')} or a store setting (redis.*, mongodb.*, …)`,
      );
    const value = Number(a.slice(eq + 1).trim());
    if (!Number.isFinite(value) || value < 0) throw new UsageError(`-p ${a}: expected a number >= 0`);
    (run as unknown as Record<string, number>)[key] = value;
  }
  if (options.threads !== undefined) run.threadcount = options.threads;
  if (options.target !== undefined) run.target = options.target;
  if (run.operationcount === 0 && run.maxexecutiontime === 0)
    throw new UsageError('a run needs operationcount > 0 or maxexecutiontime > 0');
  return { run, store };
}

/** What both results of a store record: the file, its dataset, each query's translation on the store. */
function propertiesOf(scenario: Scenario, dialect: FileDialect, run: RunSettings): FlatProperties {
  const p: FlatProperties = {
    scenario: KIND,
    file: scenario.file,
    name: scenario.name,
    seed: scenario.seed,
    'dataset.digest': scenario.datasetDigest,
    structures: dialect.structures,
  };
  for (const c of scenario.collections.values()) p[`collection.${c.name}`] = c.count;
  for (const [key, value] of Object.entries(run)) p[key] = value;
  for (const [op, share] of scenario.mix) p[`mix.${op}`] = share;
  for (const [name, t] of dialect.translations)
    p[`translation.${name}`] = t.supported ? t.description : `UNSUPPORTED: ${t.reason}`;
  return p;
}

function storeList(value: string, flag: string): string[] {
  const stores = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (stores.length === 0) throw new UsageError(`${flag} is empty`);
  for (const s of stores)
    if (!FILE_DIALECTS.runsOn(s))
      throw new UsageError(`${flag}: scenario files run on ${FILE_DIALECTS.stores.join(', ')}; got "${s}"`);
  return stores;
}

async function seedStore(
  opened: OpenStore,
  scenario: Scenario,
  options: CommonOptions,
  run: RunSettings,
  part?: ShardPart<RunSettings>,
): Promise<Result> {
  const dialect = await fileDialect(opened.store, scenario);
  try {
    const outcome = await seedFile(dialect, scenario, opened.store.name, {
      batchSize: options.batchSize,
      concurrency: Math.min(4, run.threadcount),
      progress: !options.quiet,
      ...(part
        ? {
            part: {
              leads: part.spec.index === 0,
              ranges: collectionRanges(scenario, part.share.keys!),
              start: part.beforeStart,
              written: () => part.together('written'),
            },
          }
        : {}),
    });
    return scenarioResult(outcome, {
      scenario: KIND,
      workloadName: `${scenario.name}-seed`,
      properties: propertiesOf(scenario, dialect, run),
      store: await describeStore(opened),
    });
  } finally {
    await dialect.close?.();
  }
}

/** The queries of a file's mix: the k6 script's rows. */
export function k6Rows(file: string): string[] {
  const scenario = loadScenario(file);
  return scenario.mix.map(([op]) => op).filter((op) => scenario.queries.has(op));
}

/** `docbench k6 <file> --seed-scenario`: seed first, as `docbench seed scenario` does. */
export async function seedForK6(
  file: string,
  store: string,
  targets: StoreTargets,
  overrides: readonly string[],
  quiet: boolean,
): Promise<void> {
  const scenario = loadScenario(file);
  const { run, store: storeSettings } = settingsOf(scenario, { property: [...overrides] });
  const opened = await openStore(
    store,
    targets.urlOf(store),
    requestFrom([...targets.settings(), ...storeSettings], 4),
  );
  try {
    if (!quiet) process.stderr.write(`k6: ${store}: seeding ${scenario.name} (docbench seed scenario)\n`);
    await seedStore(opened, scenario, { property: [], batchSize: 500, quiet }, run);
  } finally {
    await closeQuietly(opened.store);
  }
}

/**
 * The part a scenario file's phase is (undefined: not sharded). Its identity is the file's
 * dataset and run settings, so parts of another file or other settings are turned away.
 */
function partOf(
  flags: ShardFlags,
  scenario: Scenario,
  store: string,
  run: RunSettings,
  phase: 'load' | 'run',
): ShardPart<RunSettings> | undefined {
  const part = ShardPart.sharing(
    flags,
    process.env,
    {
      kind: KIND,
      phase,
      store,
      workload: scenario.name,
      properties: { digest: scenario.datasetDigest, mix: scenario.mix, run },
    },
    (spec) => (phase === 'load' ? seedShare(scenario, run, spec) : runShare(scenario, run, spec)),
  );
  // The parts of a seed must meet: part 0 drops before the others write, and builds the indexes once all have.
  if (part !== undefined && part.spec.count > 1 && part.barrier === undefined && phase === 'load')
    throw new UsageError(
      `--shard ${part.label}: a scenario file's seed split over parts needs --barrier host:port (part 0 drops the collections before the others write and builds the indexes once all have)`,
    );
  if (part !== undefined && part.spec.count > 1 && part.barrier === undefined)
    throw new UsageError(
      `--shard ${part.label}: a scenario file's run split over parts needs --barrier host:port (part 0 marks the dataset clean once every part has undone its writes)`,
    );
  return part;
}

/** `docbench seed scenario <file> --store X [--shard i/N --barrier host:port]`. */
export async function seedCommand(
  file: string,
  opts: CommonOptions & ShardFlags & { store: string; out?: string },
): Promise<void> {
  checkOutPath(opts.out);
  const scenario = loadScenario(file);
  const [store] = storeList(opts.store, '--store');
  const { run, store: storeSettings } = settingsOf(scenario, opts);
  const target = singleTarget(opts, store!);
  const part = partOf(opts, scenario, store!, run, 'load');
  await part?.open();
  try {
    const opened = await openStore(store!, target.url, requestFrom([...target.settings, ...storeSettings], 4));
    try {
      const seeded = await seedStore(opened, scenario, opts, run, part);
      const result = part ? part.record(seeded) : seeded;
      process.stdout.write(renderYcsbText(result));
      if (opts.out) writeResult(opts.out, result);
    } finally {
      await closeQuietly(opened.store);
    }
  } finally {
    part?.close();
  }
}

export type CompareOptions = CommonOptions &
  RoundFlags &
  ShardFlags & { stores?: string; skipSeed: boolean; outDir?: string; out?: string; docker: boolean };

/** A part of a sharded run runs one store, once, on a dataset its parts seeded: each way it cannot is one line. */
function checkPartRun(opts: CompareOptions, stores: readonly string[], file: string): void {
  const label = opts.shard !== undefined ? `--shard ${opts.shard}` : `--shards ${opts.shards}`;
  if (stores.length !== 1)
    throw new UsageError(`${label}: a part of a sharded run runs one store; got --stores ${stores.join(',')}`);
  if (opts.repetitions > 1) throw new UsageError(`${label}: a part of a sharded run is one round; drop --repetitions`);
  if (!opts.skipSeed)
    throw new UsageError(
      `${label}: the parts run on a dataset seeded first (docbench seed scenario ${file} --store ${stores[0]} with the same --shard/--shards and a --barrier); then give --skip-seed`,
    );
}

/** `docbench scenario <file> …`: seed every store, run the mix, one table. */
export function compareCommand(file: string, opts: CompareOptions): Promise<void> {
  return interrupts.holding(async () => {
    const scenario = loadScenario(file);
    const config = loadConfig(opts.config);
    const stores = storeList(
      opts.stores ??
        defaultStores(config, FILE_DIALECTS.stores)
          .filter((s) => FILE_DIALECTS.runsOn(s))
          .join(','),
      '--stores',
    );
    if (opts.shard !== undefined || opts.shards !== undefined) checkPartRun(opts, stores, file);
    if (opts.out !== undefined && (stores.length > 1 || opts.repetitions > 1 || !opts.skipSeed))
      throw new UsageError(
        `--out ${opts.out}: one run's result: give one store, one round and --skip-seed (the seed's result: docbench seed scenario ${file} --out)`,
      );
    checkOutPath(opts.out);
    const targets = StoreTargets.resolve(opts, stores, config).checkDocker();
    const { run: whole, store: storeSettings } = settingsOf(scenario, opts);
    const part = partOf(opts, scenario, stores[0]!, whole, 'run');
    // A part runs its share of the settings; its result records the whole's (report --merge puts them back).
    const run = part?.properties ?? whole;
    const outDir = opts.outDir ?? join('results', `${scenario.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    // The oracle's answers, once for every store: the same parameter sets everywhere.
    const oracle = new Oracle(scenario);
    const pools = poolsOf(oracle, run.parametersets);
    // Rounds on the one seeded dataset (--skip-seed) only when the mix writes nothing, whatever the run puts back.
    const writing = scenario.mix.find(([op]) => scenario.writes.has(op))?.[0];
    refuseSharedWrites(opts, writing === undefined ? undefined : `the mix's ${writing}`);
    const results: Result[] = [];
    const mismatches: string[] = [];
    // Each round seeds every store afresh (unless --skip-seed) and runs the mix on it.
    await part?.open();
    try {
      for (const { store, place, opensRound } of roundTurns(stores, opts)) {
        if (interrupts.signal !== undefined) break;
        if (opensRound && !opts.quiet) process.stderr.write(roundLine('scenario', place));
        const opened = await openStore(
          store,
          targets.urlOf(store),
          requestFrom([...targets.settings(), ...storeSettings], run.threadcount),
        );
        try {
          if (!opts.skipSeed) {
            const load = withRepetition(await seedStore(opened, scenario, opts, run), place, store);
            writeResult(join(outDir, `${store}-${scenario.name}-seed${roundSuffix(place)}.json`), load);
            results.push(load);
          }
          const dialect = await fileDialect(opened.store, scenario);
          try {
            const outcome = await runFile(dialect, scenario, store, {
              settings: run,
              status: !opts.quiet,
              label: `[${store} ${scenario.name}]`,
              oracle,
              pools,
              ...(part
                ? {
                    part: {
                      index: part.spec.index,
                      threadcount: whole.threadcount,
                      firstWorker: part.share.workers!.first,
                      start: part.beforeStart,
                      undone: () => part.together('undone'),
                    },
                  }
                : {}),
            });
            const scenarioMeasured = scenarioResult(outcome.outcome, {
              scenario: KIND,
              workloadName: scenario.name,
              properties: propertiesOf(scenario, dialect, run),
              store: await describeStore(opened),
            });
            const measured = part ? part.record(scenarioMeasured) : scenarioMeasured;
            if (outcome.plans.length > 0) measured.plans = outcome.plans;
            const result = withRepetition(measured, place, store);
            if (outcome.mismatch !== undefined) mismatches.push(`${store}: ${outcome.mismatch}`);
            if (opts.out !== undefined) writeResult(opts.out, result);
            else writeResult(join(outDir, `${store}-${scenario.name}${roundSuffix(place)}-run.json`), result);
            process.stdout.write(renderYcsbText(result));
            results.push(result);
          } finally {
            await dialect.close?.();
          }
        } finally {
          await closeQuietly(opened.store);
        }
      }
    } finally {
      part?.close();
    }
    const runs = results.filter((r) => r.phase === 'run');
    // Several rounds: one row group per store over its rounds; the notes and plans once per store (every round's are the same).
    const once = opts.repetitions > 1 ? runs.filter((r) => r.repetition?.round === 1) : runs;
    const figures =
      opts.repetitions > 1
        ? renderRepeatedTable(runs, { shows: (op) => op !== 'VERIFY' && !op.startsWith('Intended-') })
        : renderFileTable(runs);
    const table = `${figures}\n${renderFileNotes(once)}${renderPlans(once) === '' ? '' : `\n${renderPlans(once)}`}`;
    process.stdout.write(`\n${table}`);
    // --out names the one result's file (a part's, or stdout in a pod): no results folder beside it.
    if (opts.out === undefined) {
      writeFileAtomic(join(outDir, 'comparison.md'), `# Scenario ${scenario.name} (${scenario.file})\n\n${table}`);
      process.stderr.write(`results written to ${outDir}\n`);
      writeReportBeside(outDir, results, { title: `Scenario ${scenario.name}` });
    }
    if (mismatches.length > 0)
      throw new AnswerMismatchError(
        `${scenario.name}: ${mismatches.length} wrong ${mismatches.length === 1 ? 'answer' : 'answers'}:\n${mismatches.join('\n')}`,
      );
  });
}
