/**
 * E-commerce join through docbench serve — YCSB-JSON's JOIN (Altoros 2022 §4.4): the customers of a postal code joined to their orders of a month, SUM(sale_price) by month and zip.
 *
 * Needs a seeded dataset and a service with the ecommerce routes: `docbench seed ecommerce
 * --store redis --customers 10000`, then `docbench serve --store redis`; or
 * `docbench k6 join --store redis --customers 10000`, which does both.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …) and
 * VARIANT (the store's way of running the query; default its first): see k6/README.md.
 */
import { ecommerceScript } from './lib.ts';

const script = ecommerceScript('join');

export const options = script.options;
export const setup = script.setup;
export default script.iteration;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
