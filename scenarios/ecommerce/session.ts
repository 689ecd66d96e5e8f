/**
 * A run of the scenario against one store, start to end: find the store's dialect, read the
 * manifest the seeding left, put the data back to exactly the seeded state (remove sign-ups an
 * earlier run inserted), build the oracle, then run the workload once per combination of the
 * store's query variants, each from the seeded state again.
 */
import type { ProcessPool } from '../../src/runner/process-pool.ts';
import type { Store } from '../../src/stores/store.ts';
import { WorkloadError } from '../../src/workload/properties.ts';
import type { EcommerceContext, EcommerceDialect, Manifest, PaginationIndex } from './dialect.ts';
import { ECOMMERCE_DIALECTS } from './dialects.ts';
import { customerCore } from './generator.ts';
import { customerId, GENERATOR_VERSION, type Dataset } from './model.ts';
import { EcommerceOracle } from './oracle.ts';
import { explainCombination } from './plans.ts';
import type { QueryKind } from './queries.ts';
import type { QueryPlan } from '../../src/results/schema.ts';
import { runWorkload, type WorkloadRunOutcome } from './run.ts';
import type { EcommerceSettings } from './settings.ts';
import { SignupLedger } from './signups.ts';
import { effectiveProportions, queryKinds, WORKLOADS, WORKLOAD_NAMES, type EcommerceWorkload } from './workloads.ts';

/** Sign-ups removed per call when restoring the seeded state. */
const REMOVE_BATCH = 500;

export function ecommerceDialect(
  store: Store,
  context: EcommerceContext = { indexes: true },
): Promise<EcommerceDialect> {
  return ECOMMERCE_DIALECTS.create(store, context);
}

/** The dataset a manifest describes (everything the generator needs). */
export function datasetOf(manifest: Manifest): Dataset {
  return {
    seed: manifest.seed,
    customers: manifest.customers,
    ordersPerCustomer: manifest.ordersPerCustomer,
    customersPerZip: manifest.customersPerZip,
  };
}

/** The settings a workload runs with: its own request distribution unless one was given (YCSB-JSON's mix: zipfian). */
export function resolveSettings(workload: EcommerceWorkload, settings: EcommerceSettings): EcommerceSettings {
  if (settings.requestdistributionGiven || workload.requestdistribution === undefined) return settings;
  return { ...settings, requestdistribution: workload.requestdistribution };
}

export function ecommerceWorkload(name: string): EcommerceWorkload {
  const workload = (WORKLOADS as Readonly<Record<string, EcommerceWorkload | undefined>>)[name];
  if (!workload)
    throw new WorkloadError(`unknown ecommerce workload "${name}"; expected one of ${WORKLOAD_NAMES.join(', ')}`);
  return workload;
}

/** The store's manifest, checked: seeded, by this generator version. */
export async function readDataset(dialect: EcommerceDialect, store: string): Promise<Manifest> {
  const manifest = await dialect.readManifest();
  if (manifest === null)
    throw new WorkloadError(
      `no ecommerce dataset in ${store}: seed one first (docbench seed ecommerce --store ${store} --customers N)`,
    );
  if (manifest.generatorVersion !== GENERATOR_VERSION) {
    throw new WorkloadError(
      `the ecommerce dataset in ${store} was seeded by generator version ${manifest.generatorVersion}, this docbench generates version ${GENERATOR_VERSION}: seed again`,
    );
  }
  return manifest;
}

/** Remove every sign-up the manifest says may exist, then record that none do. */
export async function restoreSeededState(dialect: EcommerceDialect, manifest: Manifest): Promise<Manifest> {
  for (let start = manifest.customers; start < manifest.signupsUpTo; start += REMOVE_BATCH) {
    const keys = [];
    for (let i = start; i < Math.min(manifest.signupsUpTo, start + REMOVE_BATCH); i++) {
      const core = customerCore(datasetOf(manifest), i);
      keys.push({ id: customerId(i), country: core.country, zip: core.zip });
    }
    await dialect.removeCustomers(keys);
  }
  if (manifest.signupsUpTo === manifest.customers) return manifest;
  const restored = { ...manifest, signupsUpTo: manifest.customers };
  await dialect.writeManifest(restored);
  return restored;
}

export interface VariantRun extends WorkloadRunOutcome {
  /** The variant each query kind ran as. */
  variants: Partial<Record<QueryKind, string>>;
  /** One line per variant: what ran, in the store's terms. */
  descriptions: string[];
  /** How the store ran each query kind of this combination (taken after the timed run). */
  plans: QueryPlan[];
  /** The index the dataset was seeded with for the pagination (its manifest's, whatever the run's settings say). */
  paginationIndex: PaginationIndex;
}

export interface EcommerceRun {
  dialect: EcommerceDialect;
  dataset: Dataset;
  runs: VariantRun[];
}

export interface RunEcommerceOptions {
  store: Store;
  workload: EcommerceWorkload;
  settings: EcommerceSettings;
  status: boolean;
  /** Called after each variant's run (the CLI prints and writes results as they come). */
  onRun?: (run: VariantRun, dataset: Dataset) => void | Promise<void>;
  /** Run the workers in these worker processes (run.ts); default: this one. */
  pool?: ProcessPool;
}

export async function runEcommerce(options: RunEcommerceOptions): Promise<EcommerceRun> {
  const { store, workload } = options;
  const settings = resolveSettings(workload, options.settings);
  const proportions = effectiveProportions(workload, settings.proportions);
  const total = proportions.reduce((sum, [, p]) => sum + p, 0);
  if (Math.abs(total - 1) > 1e-6) {
    throw new WorkloadError(
      `operation proportions of workload ${workload.name} sum to ${+total.toFixed(6)}, expected 1 (${proportions.map(([op, p]) => `${op}=${p}`).join(', ')})`,
    );
  }
  if (settings.operationcount === 0 && settings.maxexecutiontime === 0)
    throw new WorkloadError('a run needs operationcount > 0 or maxexecutiontime > 0');
  let manifest = await readDataset(await ecommerceDialect(store), store.name);
  // The queries follow what the seed built: with or without secondary indexes.
  const paginationIndex = manifest.paginationIndex ?? 'country-id';
  const dialect = await ecommerceDialect(store, { indexes: manifest.indexes, paginationIndex });
  const dataset = datasetOf(manifest);
  if (dataset.ordersPerCustomer === 0 && proportions.some(([op]) => op === 'join' || op === 'order-read')) {
    throw new WorkloadError(
      `workload ${workload.name} reads orders, but the dataset in ${store.name} was seeded with 0 orders per customer`,
    );
  }
  const oracle = new EcommerceOracle(dataset, { listLimit: settings.maxlimit });
  const runs: VariantRun[] = [];
  for (const combination of variantCombinations(dialect, queryKinds(proportions), settings.variants)) {
    manifest = await restoreSeededState(dialect, manifest);
    const base = manifest;
    const signups = new SignupLedger(dataset, async (upTo) => dialect.writeManifest({ ...base, signupsUpTo: upTo }));
    const label = `[${store.name} ecommerce ${workload.name}${Object.values(combination)
      .map((v) => ` ${v}`)
      .join('')}]`;
    const outcome = await runWorkload({
      dialect,
      store: store.name,
      dataset,
      oracle,
      signups,
      proportions,
      variants: combination,
      settings,
      status: options.status,
      label,
      indexes: manifest.indexes,
      paginationIndex,
      ...(options.pool ? { pool: options.pool } : {}),
    });
    // Record exactly how far sign-ups reach, so the next run removes no more than it must.
    manifest = { ...base, signupsUpTo: signups.end() };
    if (manifest.signupsUpTo !== base.signupsUpTo) await dialect.writeManifest(manifest);
    const descriptions = (Object.entries(combination) as [QueryKind, string][]).map(([kind, name]) => {
      const variant = dialect.variants[kind].find((v) => v.name === name)!;
      return `${kind} variant ${variant.name}: ${variant.description}`;
    });
    const plans = await explainCombination(dialect, combination, dataset, settings);
    const run: VariantRun = { ...outcome, variants: combination, descriptions, plans, paginationIndex };
    runs.push(run);
    await options.onRun?.(run, dataset);
    if (outcome.mismatch !== undefined) break;
  }
  return { dialect, dataset, runs };
}

/**
 * Every combination of the variants of the query kinds used, narrowed to the names asked for;
 * a kind none of whose variants was named runs all of them.
 */
export function variantCombinations(
  dialect: EcommerceDialect,
  kinds: readonly QueryKind[],
  wanted: readonly string[] | undefined,
): Partial<Record<QueryKind, string>>[] {
  const known = (Object.keys(dialect.variants) as QueryKind[]).flatMap((k) => dialect.variants[k].map((v) => v.name));
  const unknown = (wanted ?? []).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    const listing = (Object.keys(dialect.variants) as QueryKind[])
      .map((k) => `${k}: ${dialect.variants[k].map((v) => v.name).join(', ')}`)
      .join('; ');
    throw new WorkloadError(`-p variant: unknown variant ${unknown.join(', ')}; this store has ${listing}`);
  }
  let combinations: Partial<Record<QueryKind, string>>[] = [{}];
  for (const kind of kinds) {
    const all = dialect.variants[kind].map((v) => v.name);
    const chosen = wanted ? all.filter((name) => wanted.includes(name)) : all;
    const names = chosen.length > 0 ? chosen : all;
    combinations = combinations.flatMap((c) => names.map((name) => ({ ...c, [kind]: name })));
  }
  return combinations;
}
