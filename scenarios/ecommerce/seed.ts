/**
 * Seeding (the scenario's load phase): drop what a previous seed left, create the collections,
 * write customers 0 … N-1 with their orders in bulk batches, build the secondary indexes, and
 * write the manifest last, so a store holds a manifest only when its dataset is complete.
 * The same seed and sizes give the same documents on every store.
 */
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import type { Store } from '../../src/stores/store.ts';
import { UnsupportedError } from '../../src/stores/store.ts';
import { loadInBatches } from '../shared/batches.ts';
import { ProgressBar } from '../shared/progress.ts';
import { ScenarioTimer } from '../shared/timing.ts';
import { canBuildIndexes, type Manifest, type PaginationIndex, type SeedBatch } from './dialect.ts';
import { generateCustomer, generateOrder } from './generator.ts';
import { DEFAULT_CUSTOMERS_PER_ZIP, zipPool } from './geography.ts';
import { GENERATOR_VERSION, type Dataset } from './model.ts';
import { ecommerceDialect } from './session.ts';

export interface SeedOptions {
  store: Store;
  dataset: Dataset;
  /** Customers per bulk write (their orders go in the same write). */
  batchSize: number;
  /** Concurrent bulk writers. */
  concurrency: number;
  /** Build the secondary indexes (default true); the dialect keeps what is its data model either way. */
  indexes?: boolean;
  /** The pagination's index (dialect.ts); default `country-id`. */
  paginationIndex?: PaginationIndex;
  /** Show a progress bar on stderr. */
  progress: boolean;
  label: string;
}

export interface SeedOutcome {
  outcome: PhaseOutcome;
  manifest: Manifest;
}

export async function seedEcommerce(options: SeedOptions): Promise<SeedOutcome> {
  const { dataset } = options;
  const indexes = options.indexes ?? true;
  const paginationIndex = options.paginationIndex ?? 'country-id';
  const dialect = await ecommerceDialect(options.store, { indexes, paginationIndex });
  const timer = new ScenarioTimer();
  for (const line of dialect.layout) timer.note(line);
  await dialect.drop();
  await dialect.prepare();
  const progress = options.progress
    ? new ProgressBar({ label: options.label, total: dataset.customers, unit: 'customers' })
    : undefined;
  await loadInBatches<SeedBatch>({
    total: dataset.customers,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    build: (start, end) => {
      const customers = [];
      const orders = [];
      for (let i = start; i < end; i++) {
        customers.push(generateCustomer(dataset, i));
        for (let j = 0; j < dataset.ordersPerCustomer; j++) orders.push(generateOrder(dataset, i, j));
      }
      return [{ customers, orders }];
    },
    write: async ([batch]) => dialect.insertMany(batch!),
    timer,
    ...(progress ? { progress } : {}),
  });
  progress?.finish();
  timer.note(
    `seeded ${dataset.customers} customers and ${dataset.customers * dataset.ordersPerCustomer} orders (seed ${dataset.seed}); INSERT-BATCH rows count bulk writes of up to ${options.batchSize} customers with their orders, OVERALL counts customers`,
  );
  const customersPerZip = dataset.customersPerZip ?? DEFAULT_CUSTOMERS_PER_ZIP;
  timer.note(
    `zip pool: ${zipPool(dataset.customers, customersPerZip).size} postal codes, about ${customersPerZip} customers each (uniform within a country), so a JOIN's fan-out does not grow with the dataset`,
  );
  if (canBuildIndexes(dialect)) {
    try {
      // Not a client-level operation: timed as its own row, not counted in OVERALL.
      const built = await timer.time('INDEX-BUILD', () => dialect.buildIndexes(), 0);
      for (const line of built.value) timer.note(line);
    } catch (error) {
      if (!(error instanceof UnsupportedError)) throw error;
      timer.note(`indexes not built: ${error.message}`);
    }
  }
  const manifest: Manifest = {
    scenario: 'ecommerce',
    generatorVersion: GENERATOR_VERSION,
    seed: dataset.seed,
    customers: dataset.customers,
    ordersPerCustomer: dataset.ordersPerCustomer,
    customersPerZip,
    indexes,
    paginationIndex,
    signupsUpTo: dataset.customers,
    seededAt: new Date().toISOString(),
  };
  await dialect.writeManifest(manifest);
  return { outcome: timer.outcome('load'), manifest };
}
