/**
 * YCSB workload F through docbench serve — read-modify-write: 50% reads, 50% read-modify-writes, zipfian keys.
 *
 * The operation mix, key choice and values come from the service's workload (`GET
 * /_docbench/info`), run by the same CoreWorkload as `docbench run`; the service must have been
 * started with it: `docbench serve --store redis -P workloadf` after `docbench load --store redis
 * -P workloadf`, or `docbench k6 ycsb-f --store redis`, which does all three.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …): see
 * lib/settings.ts and README.md.
 */
import { ycsbScript } from './lib/scripts.ts';

const script = ycsbScript('workloadf', ['READ', 'READ-MODIFY-WRITE']);

export const options = script.options;
export const setup = script.setup;
export default script.iteration;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
