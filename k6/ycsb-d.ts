/**
 * YCSB workload D through docbench serve — read latest: 95% reads, 5% inserts, reads skewed to the newest records.
 *
 * The operation mix, key choice and values come from the service's workload (`GET
 * /_docbench/info`), run by the same CoreWorkload as `docbench run`; the service must have been
 * started with it: `docbench serve --store redis -P workloadd` after `docbench load --store redis
 * -P workloadd`, or `docbench k6 ycsb-d --store redis`, which does all three.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …): see
 * lib/settings.ts and README.md.
 */
import { ycsbScript } from './lib/scripts.ts';

const script = ycsbScript('workloadd', ['READ', 'INSERT']);

export const options = script.options;
export const setup = script.setup;
export default script.iteration;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
