/**
 * k6 options for a docbench script: the scenario of the chosen model (lib/settings.ts),
 * thresholds (no failed requests by default, and a p99 bound on each operation the workload
 * runs), and the trend statistics the result needs.
 */
import type { Options } from 'k6/options';
import { metricName } from './metric-names.ts';
import { scenarioFor, type LoadSettings } from './settings.ts';
import { summaryTrendStats } from './summary.ts';

/** `name`: the k6 scenario's name (`ycsb`, `pagination`, …); `rows`: the operations the workload runs, each with its own p99 threshold. */
export function scriptOptions(settings: LoadSettings, name: string, rows: readonly string[]): Options {
  const thresholds: Record<string, string[]> = { http_req_failed: [`rate<=${settings.maxFailedRate}`] };
  for (const row of rows) thresholds[metricName(row)] = [`p(99)<${settings.p99Ms}`];
  return {
    scenarios: { [name]: scenarioFor(settings) },
    thresholds,
    summaryTrendStats: summaryTrendStats(settings),
  };
}
