/**
 * The e-commerce scenario's commands (Altoros 2022's Pagination and JOIN workloads):
 *
 *   docbench seed ecommerce --store X --customers N [--orders-per-customer M]     the load phase
 *   docbench load --scenario ecommerce --store X -p customers=N                   the same, YCSB spelling
 *   docbench run --scenario ecommerce --workload pagination|join|mix --store X   one workload on one store
 *   docbench ecommerce --stores X,Y,… --customers N [--workloads pagination,join] seed + run + one table
 *   docbench ecommerce … --repetitions N                                           N interleaved rounds of that
 *
 * Every answer is checked against the oracle while the run goes; a wrong answer stops that run,
 * everything measured is still written, and the command fails naming store, operation and
 * parameters.
 */
import { basename, dirname, extname, join } from 'node:path';
import { UsageError } from '../../src/common/user-error.ts';
import type { FlatProperties } from '../../src/results/build.ts';
import { withRepetition } from '../../src/results/repetition.ts';
import { invalidRunError } from '../../src/results/run-stopped.ts';
import type { Result } from '../../src/results/schema.ts';
import { checkOutPath, writeFileAtomic, writeResult } from '../../src/results/write.ts';
import { writeReportBeside } from '../../src/report/report-files.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { interrupts } from '../../src/common/interrupts.ts';
import { ProcessPool } from '../../src/runner/process-pool.ts';
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
import { refuseSharedWrites, roundLine, roundSuffix, roundTurns, type RoundFlags } from '../shared/rounds.ts';
import { ownSettings, storeSettings } from '../shared/serve-settings.ts';
import { scenarioResult } from '../shared/timing.ts';
import { AnswerMismatchError } from '../shared/verify.ts';
import type { ScenarioPhaseOptions } from '../scenario.ts';
import { ECOMMERCE_DIALECTS } from './dialects.ts';
import type { Dataset } from './model.ts';
import { renderRoundsTable, renderRunTable, renderServers } from './report.ts';
import { effectiveProportions } from './workloads.ts';
import { seedEcommerce } from './seed.ts';
import { ecommerceWorkload, resolveSettings, runEcommerce } from './session.ts';
import { flatSettings, parseSettings, type EcommerceSettings } from './settings.ts';
import { ECOMMERCE_DEFAULTS, WORKLOAD_NAMES } from './workload-names.ts';

export const SCENARIO = 'ecommerce';

/** The variant properties of a result (`variant.pagination`, `variant.join`, …), in the order the run named them. */
function variantsOf(result: Result): string[] {
  return Object.entries(result.workload.properties)
    .filter(([key, value]) => key.startsWith('variant.') && typeof value === 'string')
    .map(([, value]) => value as string);
}

function workloadList(values: readonly string[], flag: string): string[] {
  const names = values
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`${flag}: name a workload: ${WORKLOAD_NAMES.join(', ')}`);
  for (const name of names) {
    if (!(WORKLOAD_NAMES as readonly string[]).includes(name))
      throw new UsageError(
        `${flag}: unknown ecommerce workload "${name}"; expected one of ${WORKLOAD_NAMES.join(', ')}`,
      );
  }
  return names;
}

/** Flags that are settings too: appended after `-p` so the flag wins, as YCSB's -threads does. */
function assignments(
  property: readonly string[],
  flags: {
    threads?: number;
    target?: number;
    customers?: number;
    ordersPerCustomer?: number;
    seed?: number;
    indexes?: boolean;
  },
): string[] {
  const out = [...property];
  if (flags.indexes === false) out.push('indexes=false');
  if (flags.threads !== undefined) out.push(`threadcount=${flags.threads}`);
  if (flags.target !== undefined) out.push(`target=${flags.target}`);
  if (flags.customers !== undefined) out.push(`customers=${flags.customers}`);
  if (flags.ordersPerCustomer !== undefined) out.push(`orderspercustomer=${flags.ordersPerCustomer}`);
  if (flags.seed !== undefined) out.push(`seed=${flags.seed}`);
  return out;
}

/** Open a store with the store settings (`redis.*`, …) of `-p` and a pool sized for the workers. */
async function open(store: string, url: string | undefined, settings: EcommerceSettings): Promise<OpenStore> {
  return openStore(store, url, { settings: settings.storeSettings, concurrency: settings.threadcount });
}

function datasetOf(settings: EcommerceSettings, flag: string): Dataset {
  if (settings.customers === undefined)
    throw new UsageError(`${flag}: how many customers to seed? give --customers N (or -p customers=N)`);
  return {
    seed: settings.seed,
    customers: settings.customers,
    ordersPerCustomer: settings.orderspercustomer,
    customersPerZip: settings.customersperzip,
  };
}

/** Seed one store; the load result (INSERT-BATCH, INDEX-BUILD rows) is returned for printing. */
async function seedStore(
  opened: OpenStore,
  settings: EcommerceSettings,
  dataset: Dataset,
  progress: boolean,
): Promise<Result> {
  const { outcome } = await seedEcommerce({
    store: opened.store,
    dataset,
    batchSize: settings.batchsize,
    concurrency: settings.threadcount,
    indexes: settings.indexes,
    paginationIndex: settings.paginationindex,
    progress,
    label: `[${opened.store.name} seed ecommerce]`,
  });
  const properties: FlatProperties = {
    ...flatSettings(settings),
    customers: dataset.customers,
    orderspercustomer: dataset.ordersPerCustomer,
    customersperzip: dataset.customersPerZip ?? settings.customersperzip,
  };
  return scenarioResult(outcome, {
    scenario: SCENARIO,
    workloadName: 'seed',
    properties,
    store: await describeStore(opened),
  });
}

/** The worker processes of a store's runs (undefined for one: the workers then run on this event loop). */
async function workerPool(
  opened: OpenStore,
  store: string,
  settings: EcommerceSettings,
  processes = 1,
): Promise<ProcessPool | undefined> {
  const n = Math.min(processes, settings.threadcount);
  return n > 1
    ? ProcessPool.start({
        store,
        url: opened.url,
        settings: settings.storeSettings,
        threadcount: settings.threadcount,
        processes: n,
      })
    : undefined;
}

/** One result per variant run, with the variants, the dataset and what each variant did. */
async function runStore(
  opened: OpenStore,
  workloadName: string,
  settings: EcommerceSettings,
  status: boolean,
  onResult: (result: Result) => void,
  pool?: ProcessPool,
): Promise<string[]> {
  const workload = ecommerceWorkload(workloadName);
  const store = await describeStore(opened);
  const mismatches: string[] = [];
  await runEcommerce({
    store: opened.store,
    workload,
    settings,
    status,
    ...(pool ? { pool } : {}),
    onRun: (run, dataset) => {
      const properties: FlatProperties = {
        ...flatSettings(resolveSettings(workload, settings)),
        // The dataset as its manifest describes it; the run's own `seed` seeds the parameter choices.
        'dataset.seed': dataset.seed,
        customers: dataset.customers,
        orderspercustomer: dataset.ordersPerCustomer,
        customersperzip: dataset.customersPerZip ?? settings.customersperzip,
        // The index the data was seeded with, not the setting's default for this run.
        paginationindex: run.paginationIndex,
        ...Object.fromEntries(Object.entries(run.variants).map(([kind, name]) => [`variant.${kind}`, name])),
      };
      const result = scenarioResult(run.outcome, {
        scenario: SCENARIO,
        workloadName: workload.name,
        properties,
        store,
      });
      if (run.plans.length > 0) result.plans = run.plans;
      result.notes.push(workload.description, ...run.descriptions);
      if (run.mismatch !== undefined) {
        result.notes.push(`WRONG ANSWER, run stopped: ${run.mismatch}`);
        mismatches.push(`${opened.store.name} ${workload.name}: ${run.mismatch}`);
      }
      onResult(result);
    },
  });
  return mismatches;
}

/** `results/x.json` -> `results/x-lookup.json` when a run wrote one result per variant. */
function variantPath(out: string, result: Result, several: boolean): string {
  if (!several) return out;
  const variants = variantsOf(result);
  const ext = extname(out) || '.json';
  return join(dirname(out), `${basename(out, extname(out))}-${variants.join('-')}${ext}`);
}

/** The plan section under the table (empty when no result holds a plan). */
function plansSection(results: readonly Result[]): string {
  const plans = renderPlans(results);
  return plans === '' ? '' : `\n${plans}`;
}

function failIfWrong(mismatches: readonly string[]): void {
  if (mismatches.length > 0)
    throw new AnswerMismatchError(
      `ecommerce: ${mismatches.length} wrong ${mismatches.length === 1 ? 'answer' : 'answers'}:\n${mismatches.join('\n')}`,
    );
}

export type EcommercePhaseOptions = ScenarioPhaseOptions;

/** `docbench load|run --scenario ecommerce …`: the scenario on the YCSB-shaped commands. */
export function runEcommercePhase(options: EcommercePhaseOptions): Promise<void> {
  // Interrupted, the run stops and its partial result is printed and written all the same.
  return interrupts.holding(() => ecommercePhase(options));
}

async function ecommercePhase(options: EcommercePhaseOptions): Promise<void> {
  if (!ECOMMERCE_DIALECTS.runsOn(options.store))
    throw new UsageError(
      `--store: the ecommerce scenario runs on ${ECOMMERCE_DIALECTS.stores.join(', ')}; got "${options.store}"`,
    );
  checkOutPath(options.out);
  const settings = parseSettings(assignments(options.property, options));
  if (options.phase === 'load') {
    if (options.workloads.length > 0)
      throw new UsageError(
        '--workload: the ecommerce load phase seeds customers and orders; give -p customers=N (workloads are for `run`)',
      );
    const dataset = datasetOf(settings, '-p customers');
    const opened = await open(options.store, options.url, settings);
    try {
      const result = await seedStore(opened, settings, dataset, options.status);
      process.stdout.write(renderYcsbText(result));
      if (options.out) writeResult(options.out, result);
      const invalid = invalidRunError(result, `${options.store} ecommerce load`);
      if (invalid) throw invalid;
    } finally {
      await opened.store.close();
    }
    return;
  }
  if (options.workloads.length === 0)
    throw new UsageError(`--workload: name the ecommerce workload to run: ${WORKLOAD_NAMES.join(', ')}`);
  const names = workloadList(options.workloads, '--workload');
  if (names.length > 1)
    throw new UsageError(
      `--workload: run takes one ecommerce workload at a time; got ${names.join(', ')} (\`docbench ecommerce --workloads …\` runs several)`,
    );
  const opened = await open(options.store, options.url, settings);
  const results: Result[] = [];
  let mismatches: string[];
  let pool: ProcessPool | undefined;
  try {
    pool = await workerPool(opened, options.store, settings, options.processes);
    const print = (result: Result) => {
      process.stdout.write(renderYcsbText(result));
      results.push(result);
    };
    mismatches = await runStore(opened, names[0]!, settings, options.status, print, pool);
  } finally {
    await pool?.close();
    await opened.store.close();
  }
  if (options.out) for (const r of results) writeResult(variantPath(options.out, r, results.length > 1), r);
  process.stdout.write(`\n${renderRunTable(results)}\n${renderServers(results)}${plansSection(results)}`);
  failIfWrong(mismatches);
  for (const r of results) {
    const invalid = invalidRunError(r, `${options.store} ${r.workload.name} run`);
    if (invalid) throw invalid;
  }
}

export interface CommonOptions {
  indexes: boolean;
  customers?: number;
  ordersPerCustomer?: number;
  seed?: number;
  threads?: number;
  property: string[];
  quiet: boolean;
}

/** `docbench seed ecommerce …`. */
export async function seedCommand(opts: CommonOptions & TargetFlags & { store: string; out?: string }): Promise<void> {
  const stores = ECOMMERCE_DIALECTS.storeList(opts.store, '--store');
  if (stores.length > 1)
    throw new UsageError(`--store: seed ecommerce loads one store at a time; got ${stores.join(', ')}`);
  const target = singleTarget(opts, stores[0]!);
  await runEcommercePhase({
    phase: 'load',
    store: stores[0]!,
    ...(target.url !== undefined ? { url: target.url } : {}),
    workloads: [],
    property: assignments([...target.settings, ...opts.property], {
      ...opts,
      customers: opts.customers ?? ECOMMERCE_DEFAULTS.customers,
      ordersPerCustomer: opts.ordersPerCustomer ?? ECOMMERCE_DEFAULTS.ordersPerCustomer,
      ...(opts.indexes ? {} : { indexes: false }),
    }),
    ...(opts.out !== undefined ? { out: opts.out } : {}),
    status: !opts.quiet,
  });
}

export type CompareOptions = CommonOptions &
  TargetFlags &
  RoundFlags & {
    stores?: string;
    workloads: string;
    skipSeed: boolean;
    outDir?: string;
    docker: boolean;
    processes?: number;
  };

/** `docbench ecommerce …`: seed every store, run every workload, one table. */
export function compareCommand(opts: CompareOptions): Promise<void> {
  return interrupts.holding(async () => {
    const config = loadConfig(opts.config);
    const configured = defaultStores(config, ECOMMERCE_DIALECTS.stores).filter((s) => ECOMMERCE_DIALECTS.runsOn(s));
    const stores = ECOMMERCE_DIALECTS.storeList(opts.stores ?? configured.join(','), '--stores');
    const targets = StoreTargets.resolve(opts, stores, config).checkDocker();
    const workloads = workloadList([opts.workloads], '--workloads');
    const reseed = !opts.skipSeed;
    // A comparison is bounded in time unless told otherwise (-p operationcount=N -p maxexecutiontime=0).
    const settings = parseSettings([
      `maxexecutiontime=${ECOMMERCE_DEFAULTS.maxexecutiontime}`,
      'operationcount=0',
      ...assignments([...targets.settings(), ...opts.property], {
        ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
        customers: opts.customers ?? ECOMMERCE_DEFAULTS.customers,
        ordersPerCustomer: opts.ordersPerCustomer ?? ECOMMERCE_DEFAULTS.ordersPerCustomer,
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        ...(opts.indexes ? {} : { indexes: false }),
      }),
    ]);
    // Rounds on one seeded dataset (--skip-seed) only for workloads that leave it as they found it.
    const writing = workloads.find((w) =>
      effectiveProportions(ecommerceWorkload(w), settings.proportions).some(
        ([op]) => op === 'customer-insert' || op === 'customer-update',
      ),
    );
    refuseSharedWrites(
      opts,
      writing === undefined ? undefined : `the ${writing} workload (customer inserts and updates)`,
    );
    const outDir = opts.outDir ?? join('results', `ecommerce-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const results: Result[] = [];
    const mismatches: string[] = [];
    // Each round seeds every store afresh (unless --skip-seed) and runs every workload on it.
    for (const { store, place, opensRound } of roundTurns(stores, opts)) {
      // Interrupted: the runs done are kept, and the table is printed for them.
      if (interrupts.signal !== undefined) break;
      if (opensRound && !opts.quiet) process.stderr.write(roundLine('ecommerce', place));
      // Each round draws other parameters (the dataset's seed stays): the same seed would replay the same queries.
      const runSettings = place.round === 1 ? settings : { ...settings, seed: settings.seed + place.round - 1 };
      const opened = await open(store, targets.urlOf(store), settings);
      let pool: ProcessPool | undefined;
      try {
        pool = await workerPool(opened, store, settings, opts.processes);
        if (reseed) {
          const load = withRepetition(
            await seedStore(opened, settings, datasetOf(settings, '--customers'), !opts.quiet),
            place,
            store,
          );
          writeResult(join(outDir, `${store}-ecommerce-seed${roundSuffix(place)}.json`), load);
          results.push(load);
          const insert = load.operations.find((o) => o.name === 'INSERT-BATCH');
          process.stderr.write(
            `${store}: seeded ${settings.customers} customers in ${(load.overall.runtimeMs / 1000).toFixed(1)} s${insert ? ` (${insert.latency.operations} bulk writes)` : ''}\n`,
          );
        }
        for (const workload of workloads) {
          if (interrupts.signal !== undefined) break;
          mismatches.push(
            ...(await runStore(
              opened,
              workload,
              runSettings,
              !opts.quiet,
              (measured) => {
                const result = withRepetition(measured, place, store);
                const variants = variantsOf(result);
                writeResult(
                  join(
                    outDir,
                    `${store}-ecommerce-${workload}${variants.map((v) => `-${v}`).join('')}${roundSuffix(place)}.json`,
                  ),
                  result,
                );
                results.push(result);
              },
              pool,
            )),
          );
        }
      } finally {
        await pool?.close();
        await closeQuietly(opened.store);
      }
    }
    const runs = results.filter((r) => r.phase === 'run');
    const table = `${opts.repetitions > 1 ? renderRoundsTable(runs) : renderRunTable(runs)}\n${renderServers(runs)}${plansSection(runs)}`;
    process.stdout.write(`\n${table}`);
    writeFileAtomic(
      join(outDir, 'comparison.md'),
      `# E-commerce scenario (Altoros 2022): ${settings.customers} customers × ${settings.orderspercustomer} orders, about ${settings.customersperzip} customers a zip\n\n${table}`,
    );
    process.stderr.write(`results written to ${outDir}\n`);
    writeReportBeside(outDir, results, { title: 'E-commerce scenario (Altoros 2022)' });
    failIfWrong(mismatches);
  });
}

/** `docbench k6 pagination|join --customers N`: seed first, as `docbench seed ecommerce` does. */
export async function seedForK6(
  store: string,
  targets: StoreTargets,
  customers: number,
  overrides: readonly string[],
  quiet: boolean,
): Promise<void> {
  const s = parseSettings(ownSettings(SCENARIO, overrides));
  const open = await openStore(
    store,
    targets.urlOf(store),
    requestFrom([...targets.settings(), ...storeSettings(overrides)], 4),
  );
  try {
    if (!quiet) process.stderr.write(`k6: ${store}: seeding ${customers} customers (docbench seed ecommerce)\n`);
    await seedEcommerce({
      store: open.store,
      dataset: { seed: s.seed, customers, ordersPerCustomer: s.orderspercustomer },
      batchSize: s.batchsize,
      concurrency: 4,
      progress: !quiet,
      label: `[${store} ecommerce seed]`,
    });
  } finally {
    await open.store.close();
  }
}
