/**
 * Any YCSB workload through docbench serve: whatever workload the service was started with
 * (`docbench serve --store X -P my-workload -p …`, or `docbench k6 ycsb --store X -P
 * my-workload`). Thresholds cover all five operations.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …): see
 * lib/settings.ts and README.md.
 */
import { YCSB_OPERATIONS } from './lib/metric-names.ts';
import { scriptOptions } from './lib/options.ts';
import { teardownRun } from './lib/service.ts';
import { loadSettings, maxVusOf } from './lib/settings.ts';
import { summarize, type SummaryData } from './lib/summary.ts';
import { runOperation, setupRun, type SetupData } from './lib/ycsb.ts';

const settings = loadSettings(__ENV);

export const options = scriptOptions(settings, 'ycsb', YCSB_OPERATIONS);

export function setup(): SetupData {
  return setupRun(settings, maxVusOf(settings), null);
}

export default function (data: SetupData): void {
  runOperation(settings, data);
}

export function teardown(data: SetupData): void {
  teardownRun(settings, data);
}

export function handleSummary(data: SummaryData): Record<string, string> {
  return summarize(data, settings);
}
