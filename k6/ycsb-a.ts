/**
 * YCSB workload A through docbench serve — update heavy: 50% reads, 50% updates, zipfian keys.
 *
 * The operation mix, key choice and values come from the service's workload (`GET
 * /_docbench/info`), run by the same CoreWorkload as `docbench run`; the service must have been
 * started with it: `docbench serve --store redis -P workloada` after `docbench load --store redis
 * -P workloada`, or `docbench k6 ycsb-a --store redis`, which does all three.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …): see
 * lib/settings.ts and README.md.
 */
import { scriptOptions } from './lib/options.ts';
import { teardownRun } from './lib/service.ts';
import { loadSettings, maxVusOf } from './lib/settings.ts';
import { summarize, type SummaryData } from './lib/summary.ts';
import { runOperation, setupRun, type SetupData } from './lib/ycsb.ts';

const settings = loadSettings(__ENV);

export const options = scriptOptions(settings, 'ycsb', ['READ', 'UPDATE']);

export function setup(): SetupData {
  return setupRun(settings, maxVusOf(settings), 'workloada');
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
