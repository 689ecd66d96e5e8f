/**
 * E-commerce pagination through docbench serve — YCSB-JSON's Pagination (Altoros 2022 §4.3): the customers of a country, OFFSET uniform 0–maxoffset, LIMIT uniform minlimit–maxlimit, ids only.
 *
 * Needs a seeded dataset and a service with the ecommerce routes: `docbench seed ecommerce
 * --store redis --customers 10000`, then `docbench serve --store redis`; or
 * `docbench k6 pagination --store redis --customers 10000`, which does both.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …) and
 * VARIANT (the store's way of running the query; default its first): see k6/README.md.
 */
import { ecommerceScript } from './lib.ts';

const script = ecommerceScript('pagination');

export const options = script.options;
export const setup = script.setup;
export default script.iteration;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
