/**
 * The e-commerce scenario (YCSB-JSON's Pagination and JOIN workloads) as the routes a web
 * developer would write for a shop's back office:
 *
 *   GET /customers?country=&offset=&limit=[&variant=]   200 {country, offset, limit, variant, ids}
 *   GET /reports/sales?zip=&month=[&variant=]            200 {zip, month, variant, rows}
 *
 * Each query runs through the scenario's own dialect for the store (scenarios/ecommerce/stores/),
 * the same code the scenario's direct runs measure; `variant` picks one of the store's ways of
 * running it (default: its first). The service only validates, calls and answers.
 *
 * For load generators, one internal route draws the workload's parameters with the scenario's
 * own ParameterChooser and answers the oracle's expected result for each, so a k6 script runs
 * the same parameter distribution as a direct run and checks every answer, without importing
 * the generator (its filler values come from faker, which k6 cannot load):
 *
 *   GET /_docbench/ecommerce                                        the seeded dataset, variants, settings
 *   GET /_docbench/ecommerce/parameters?kind=pagination|join&stream=&count=
 *
 * Scenario settings come as `-p ecommerce.<key>=…` (maxoffset, minlimit, maxlimit, seed, …:
 * scenarios/ecommerce/settings.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NAMES, type EcommerceDialect, type Manifest } from './dialect.ts';
import { COUNTRIES } from './geography.ts';
import type { Dataset } from './model.ts';
import { EcommerceOracle } from './oracle.ts';
import { ParameterChooser, type QueryKind } from './queries.ts';
import { datasetOf, ecommerceDialect, readDataset } from './session.ts';
import type { EcommerceSettings } from './settings.ts';
import { summarizeIds, type AnswerSummary } from '../shared/checksum.ts';
import { WorkloadError } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';
import type { Store } from '../../src/stores/store.ts';
import type { StoreGate } from '../../src/service/store-gate.ts';
import { parseParameters, ValidationError, wholeNumberParam } from '../../src/service/validation.ts';

/** Largest page the API serves, and the deepest offset: bounds on what one request may cost. */
export const MAX_PAGE_LIMIT = 1000;
export const MAX_PAGE_OFFSET = 10_000;
/** Parameters per call of the parameters route. */
const MAX_PARAMETER_BLOCK = 10_000;

const COUNTRY_NAMES = COUNTRIES.map((c) => c.name);
const wholeNumber = wholeNumberParam;

const variantParam = z.string({ error: 'expected one variant name' }).max(64, 'is too long').optional();

const pageQuery = z
  .object({
    country: z.enum(COUNTRY_NAMES as [string, ...string[]], {
      error: `expected one of the shop's countries (${COUNTRY_NAMES.slice(0, 3).join(', ')}, …)`,
    }),
    offset: wholeNumber(0, MAX_PAGE_OFFSET).optional(),
    limit: wholeNumber(1, MAX_PAGE_LIMIT),
    variant: variantParam,
  })
  .strict();

const salesQuery = z
  .object({
    zip: z
      .string({ error: 'expected one postal code' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,11}$/, 'expected a postal code: up to 12 letters, digits, spaces or -'),
    month: wholeNumber(1, 12),
    variant: variantParam,
  })
  .strict();

const parametersQuery = z
  .object({
    kind: z.enum(['pagination', 'join'], { error: 'expected pagination or join' }),
    stream: wholeNumber(0, 2 ** 31 - 1),
    count: wholeNumber(1, MAX_PARAMETER_BLOCK),
  })
  .strict();

/** What the parameters route answers: the parameters and, for each, what the answer must be. */
export type ParameterBlock =
  | { kind: 'pagination'; params: { country: string; offset: number; limit: number }[]; expected: AnswerSummary[] }
  | {
      kind: 'join';
      params: { zip: string; month: number }[];
      expected: { month: number; zip: string; sale_price: number }[][];
    };

/** What GET /_docbench/ecommerce answers. */
export interface EcommerceInfo {
  /** The seeded dataset (its manifest), or null when the store holds none. */
  dataset: Manifest | null;
  variants: Record<QueryKind, { name: string; description: string }[]>;
  layout: readonly string[];
  settings: { seed: number; maxoffset: number; minlimit: number; maxlimit: number; requestdistribution: string };
  names: typeof NAMES;
}

export interface EcommerceRouteOptions {
  gate: StoreGate;
  settings: EcommerceSettings;
}

export function registerEcommerceRoutes(app: FastifyInstance, options: EcommerceRouteOptions): void {
  const { gate, settings } = options;
  // One dialect per store connection (a reconnect brings a new store); creating one is cheap.
  const dialects = new WeakMap<Store, Promise<EcommerceDialect>>();
  const dialectOf = (store: Store) => {
    let d = dialects.get(store);
    if (d === undefined) {
      d = ecommerceDialect(store);
      d.catch(() => dialects.delete(store));
      dialects.set(store, d);
    }
    return d;
  };
  const variantOf = (dialect: EcommerceDialect, kind: QueryKind, asked: string | undefined, store: string) => {
    const names = dialect.variants[kind].map((v) => v.name);
    if (asked === undefined) return names[0]!;
    if (!names.includes(asked))
      throw new ValidationError('variant', 'query', `variant: ${store} runs ${kind} as ${names.join(', ')}`);
    return asked;
  };

  app.get('/customers', async (request) => {
    const q = parseParameters(pageQuery, request.query, 'query');
    const params = { country: q.country, offset: q.offset ?? 0, limit: q.limit };
    return gate.use(async (store) => {
      const dialect = await dialectOf(store);
      const variant = variantOf(dialect, 'pagination', q.variant, store.name);
      const ids = await dialect.pagination(variant, params);
      return { ...params, variant, ids };
    });
  });

  app.get('/reports/sales', async (request) => {
    const q = parseParameters(salesQuery, request.query, 'query');
    const params = { zip: q.zip, month: q.month };
    return gate.use(async (store) => {
      const dialect = await dialectOf(store);
      const variant = variantOf(dialect, 'join', q.variant, store.name);
      const rows = await dialect.join(variant, params);
      return { ...params, variant, rows };
    });
  });

  // --- for load generators -------------------------------------------------------------------

  /** The oracle of the dataset last seen (one pass over its core values to build). */
  let oracle: { key: string; oracle: EcommerceOracle } | null = null;
  const oracleOf = (dataset: Dataset) => {
    const key = `${dataset.seed}/${dataset.customers}/${dataset.ordersPerCustomer}/${dataset.customersPerZip}`;
    if (oracle?.key !== key) oracle = { key, oracle: new EcommerceOracle(dataset) };
    return oracle.oracle;
  };

  app.get('/_docbench/ecommerce', async (): Promise<EcommerceInfo> => {
    return gate.use(async (store) => {
      const dialect = await dialectOf(store);
      return {
        dataset: await dialect.readManifest(),
        variants: Object.fromEntries(
          Object.entries(dialect.variants).map(([kind, list]) => [kind, [...list]]),
        ) as EcommerceInfo['variants'],
        layout: dialect.layout,
        settings: {
          seed: settings.seed,
          maxoffset: settings.maxoffset,
          minlimit: settings.minlimit,
          maxlimit: settings.maxlimit,
          requestdistribution: settings.requestdistribution,
        },
        names: NAMES,
      };
    });
  });

  app.get('/_docbench/ecommerce/parameters', async (request, reply): Promise<ParameterBlock | undefined> => {
    const q = parseParameters(parametersQuery, request.query, 'query');
    let manifest: Manifest;
    try {
      manifest = await gate.use(async (store) => readDataset(await dialectOf(store), store.name));
    } catch (error) {
      if (!(error instanceof WorkloadError)) throw error;
      reply.code(404).send({ error: 'no dataset', message: error.message });
      return undefined;
    }
    if (manifest.signupsUpTo !== manifest.customers) {
      reply.code(409).send({
        error: 'dataset has sign-ups',
        message:
          'the dataset may hold customers signed up by an earlier mix run, which the oracle does not know: run a direct ecommerce workload first (it restores the seeded state) or seed again',
      });
      return undefined;
    }
    const dataset: Dataset = datasetOf(manifest);
    const chooser = new ParameterChooser(dataset, new Random(settings.seed, q.stream), settings);
    const truth = oracleOf(dataset);
    if (q.kind === 'pagination') {
      const params = Array.from({ length: q.count }, () => chooser.page());
      return { kind: 'pagination', params, expected: params.map((p) => summarizeIds(truth.page(p))) };
    }
    if (dataset.ordersPerCustomer === 0)
      throw new ValidationError(
        'kind',
        'query',
        'kind: the dataset was seeded with 0 orders per customer, so there is no JOIN to run',
      );
    const params = Array.from({ length: q.count }, () => chooser.join());
    return { kind: 'join', params, expected: params.map((p) => truth.join(p)) };
  });
}
