/**
 * E-commerce join through docbench serve — YCSB-JSON's JOIN (seed 002 §4.4): the customers of a postal code joined to their orders of a month, SUM(sale_price) by month and zip.
 *
 * Needs a seeded dataset and a service with the ecommerce routes: `docbench seed ecommerce
 * --store redis --customers 10000`, then `docbench serve --store redis`; or
 * `docbench k6 join --store redis --customers 10000`, which does both.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …) and
 * VARIANT (the store's way of running the query; default its first): see README.md.
 */
import { defineEcommerceOperations, ROW, runEcommerce, setupEcommerce, type EcommerceSetup } from './lib/ecommerce.ts';
import { scriptOptions } from './lib/options.ts';
import { teardownRun } from './lib/service.ts';
import { loadSettings } from './lib/settings.ts';
import { summarize, type SummaryData } from './lib/summary.ts';

const settings = loadSettings(__ENV);
defineEcommerceOperations('join');

export const options = scriptOptions(settings, 'join', [ROW.join]);

export function setup(): EcommerceSetup {
  return setupEcommerce(settings, 'join', __ENV);
}

export default function (data: EcommerceSetup): void {
  runEcommerce(settings, data);
}

export function teardown(data: EcommerceSetup): void {
  teardownRun(settings, data);
}

export function handleSummary(data: SummaryData): Record<string, string> {
  return summarize(data, settings);
}
