/**
 * Any YCSB workload through docbench serve: whatever workload the service was started with
 * (`docbench serve --store X -P my-workload -p …`, or `docbench k6 ycsb --store X -P
 * my-workload`). Thresholds cover all five operations.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …): see
 * lib/settings.ts and README.md.
 */
import { ycsbScript } from './lib/scripts.ts';

const script = ycsbScript(null);

export const options = script.options;
export const setup = script.setup;
export default script.iteration;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
