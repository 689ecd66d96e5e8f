/**
 * The e-commerce scenario's queries over HTTP (YCSB-JSON's Pagination and JOIN), through
 * `GET /customers` and `GET /reports/sales` of docbench serve.
 *
 * Parameters come from the scenario's own ParameterChooser, drawn by the service in blocks
 * (`GET /_docbench/ecommerce/parameters`) with the oracle's expected answer for each: the
 * scenario's generator cannot be loaded into k6 (its filler values come from faker), and a second
 * implementation of its parameter choice here could drift from the direct runs'. Each VU draws
 * from streams of its own (one per block); a direct run's workers share one seeded chooser, so
 * both draw from the same distributions, not the same sequence.
 * Fetching a block is not an operation: it is tagged apart and not timed.
 *
 * Every answer is checked (the VERIFY row): a page must be the oracle's page, in ascending id
 * order; a JOIN must be the oracle's group, its sum right to the cent.
 */
import http, { type Params } from 'k6/http';
import exec from 'k6/execution';
import { fail } from 'k6';
import type { EcommerceInfo, ParameterBlock } from '../routes.ts';
import { sameAnswer, summarizeIds } from '../../shared/checksum.ts';
import { statusOfHttp } from '../../../k6/lib/metric-names.ts';
import { checkAnswer, defineOperations, recordFailure } from '../../../k6/lib/metrics.ts';
import { scriptOptions } from '../../../k6/lib/options.ts';
import { scriptSettings, type Script } from '../../../k6/lib/scripts.ts';
import {
  getJson,
  operationParams,
  serviceHeaders,
  serviceInfo,
  startRun,
  teardownRun,
  type SetupBase,
} from '../../../k6/lib/service.ts';
import { summarize } from '../../../k6/lib/summary.ts';
import type { LoadSettings } from '../../../k6/lib/settings.ts';

export type EcommerceQuery = 'pagination' | 'join';

/** The result row of each query (the scenario's own row names). */
export const ROW: Record<EcommerceQuery, string> = { pagination: 'PAGINATION', join: 'JOIN' };

/** Parameters fetched per block: enough that fetching costs nothing per operation. */
const BLOCK = 500;

export interface EcommerceSetup extends SetupBase {
  query: EcommerceQuery;
  /** The store variant the route runs (VARIANT, or the store's first). */
  variant: string;
}

/** Create the metrics of a script's row (init stage). */
export function defineEcommerceOperations(query: EcommerceQuery): void {
  defineOperations([ROW[query]]);
}

/** setup(): the seeded dataset from the service (refusing a store without one), and the first stats snapshot. */
export function setupEcommerce(
  settings: LoadSettings,
  query: EcommerceQuery,
  env: Record<string, string | undefined>,
): EcommerceSetup {
  const info = serviceInfo(settings);
  if (!info.scenarios.includes('ecommerce'))
    fail(
      `the service at ${settings.baseUrl} does not serve the ecommerce scenario (start it with --scenario ecommerce)`,
    );
  const shop = getJson<EcommerceInfo>(settings, `${settings.baseUrl}/_docbench/ecommerce`, 'docbench ecommerce');
  if (shop.dataset === null)
    fail(
      `no ecommerce dataset in ${info.store!.name}: seed one first (docbench seed ecommerce --store ${info.store!.name} --customers N, or docbench k6 ${query} --store ${info.store!.name} --customers N)`,
    );
  const variants = shop.variants[query].map((v) => v.name);
  const variant = env.VARIANT ?? variants[0]!;
  if (!variants.includes(variant))
    fail(`VARIANT=${variant}: ${info.store!.name} runs ${query} as ${variants.join(', ')}`);
  const dataset = shop.dataset;
  if (dataset.signupsUpTo !== dataset.customers) {
    fail(
      `the ecommerce dataset in ${info.store!.name} may hold customers signed up by an earlier mix run, which the oracle does not know: ` +
        `run any direct ecommerce workload first (it restores the seeded state) or seed again (docbench seed ecommerce --store ${info.store!.name} --customers ${dataset.customers})`,
    );
  }
  // Each service worker builds the oracle on its first parameter request (one pass over the
  // dataset): do that here, not inside the measured window. A new connection per request lets
  // the cluster hand each to another worker.
  for (let i = 0; i < 2 * info.service.workers; i++) {
    http.get(`${settings.baseUrl}/_docbench/ecommerce/parameters?kind=${query}&stream=0&count=1`, {
      headers: { ...serviceHeaders(settings), Connection: 'close' },
      tags: { name: 'docbench warm-up' },
    });
  }
  const description = shop.variants[query].find((v) => v.name === variant)!.description;
  const run = {
    kind: 'ecommerce',
    workloadName: query,
    properties: {
      scenario: 'ecommerce',
      seed: shop.settings.seed,
      customers: dataset.customers,
      orderspercustomer: dataset.ordersPerCustomer,
      'dataset.seed': dataset.seed,
      maxoffset: shop.settings.maxoffset,
      minlimit: shop.settings.minlimit,
      maxlimit: shop.settings.maxlimit,
      variant,
      [`${query}proportion`]: 1,
    },
    rows: [ROW[query]],
    notes: [
      `${query} variant ${variant}: ${description}`,
      ...shop.layout,
      "parameters drawn by the scenario's ParameterChooser in the service, in per-VU blocks (not timed); every answer checked against the oracle (VERIFY)",
    ],
  };
  return { ...startRun(settings, info, run), query, variant };
}

/** One VU's supply of parameters and expected answers. */
let block: ParameterBlock | null = null;
let next = 0;
let blocks = 0;
/** The query's request parameters, built once per VU. */
let params: Params | null = null;

function nextParameters(settings: LoadSettings, query: EcommerceQuery): number {
  if (block === null || next >= block.params.length) {
    // Stream: VU id × 2^16 + block number, so no two blocks of a run share a stream.
    const stream = exec.vu.idInTest * 65536 + blocks++;
    block = getJson<ParameterBlock>(
      settings,
      `${settings.baseUrl}/_docbench/ecommerce/parameters?kind=${query}&stream=${stream}&count=${BLOCK}`,
      'docbench parameters',
    );
    next = 0;
  }
  return next++;
}

/** One query (one k6 iteration), its answer checked. */
export function runEcommerce(settings: LoadSettings, data: EcommerceSetup): void {
  const i = nextParameters(settings, data.query);
  const b = block!;
  const variant = encodeURIComponent(data.variant);
  const row = ROW[data.query];
  params ??= operationParams(
    settings,
    row,
    data.query === 'pagination' ? 'GET /customers' : 'GET /reports/sales',
    'text',
  );
  const url =
    b.kind === 'pagination'
      ? `${settings.baseUrl}/customers?country=${encodeURIComponent(b.params[i]!.country)}&offset=${b.params[i]!.offset}&limit=${b.params[i]!.limit}&variant=${variant}`
      : `${settings.baseUrl}/reports/sales?zip=${encodeURIComponent(b.params[i]!.zip)}&month=${b.params[i]!.month}&variant=${variant}`;
  const response = http.get(url, params);
  if (response.status !== 200) {
    const status = statusOfHttp(response.status);
    return recordFailure(
      row,
      status === 'OK' ? 'UNEXPECTED_STATE' : status,
      response.timings.duration,
      response.status,
    );
  }
  if (b.kind === 'pagination') {
    const ids = (response.json() as { ids: string[] }).ids;
    checkAnswer(row, ascending(ids) && sameAnswer(summarizeIds(ids), b.expected[i]!));
  } else {
    checkAnswer(row, sameRows((response.json() as { rows: JoinRowLike[] }).rows, b.expected[i]!));
  }
}

interface JoinRowLike {
  month: number;
  zip: string;
  sale_price: number;
}

function ascending(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) return false;
  return true;
}

/** The oracle's rule (scenarios/ecommerce/oracle.ts checkJoin): same groups, sums equal to the cent. */
function sameRows(got: readonly JoinRowLike[], expected: readonly JoinRowLike[]): boolean {
  if (got.length !== expected.length) return false;
  return expected.every((e, i) => {
    const g = got[i]!;
    return g.month === e.month && g.zip === e.zip && Math.round(g.sale_price * 100) === Math.round(e.sale_price * 100);
  });
}

/** An e-commerce script for one query of the scenario. */
export function ecommerceScript(query: EcommerceQuery): Script<EcommerceSetup> {
  const settings = scriptSettings();
  defineEcommerceOperations(query);
  return {
    options: scriptOptions(settings, query, [ROW[query]]),
    setup: () => setupEcommerce(settings, query, __ENV),
    iteration: (data) => runEcommerce(settings, data),
    teardown: (data) => teardownRun(settings, data),
    handleSummary: (data) => summarize(data, settings),
  };
}
