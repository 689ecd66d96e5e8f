/**
 * k6 options for a docbench script: the scenario of the chosen model (lib/settings.ts), the
 * thresholds that decide whether the run passed (k6 exits 99 when one is crossed), the trend
 * statistics the result needs, and options.cloud for Grafana Cloud k6.
 *
 *   http_req_failed                         rate <= MAX_FAILED: requests not answered, or answered
 *                                           with an error (a 409 conflict is an answer: see below)
 *   http_req_duration{op:ROW,status:2xx}    p(99) < P99_MS for each operation the workload runs
 *   checks                                  rate == 1: every checked answer right (VERIFY)
 *   dropped_iterations                      open model: at most MAX_DROPPED of the schedule
 *   docbench_errors                         with MAX_ERRORS: the error budget (conflicts included)
 */
import type { Options } from 'k6/options';
import { ERRORS_METRIC, okLatencyMetric } from './metric-names.ts';
import { scenarioFor, scheduledIterations, type LoadSettings } from './settings.ts';

/**
 * The tags k6 adds to every request's samples: its default list without `url` (every key is a
 * URL of its own, so a time series per record: memory and CPU that grow with the key space; the
 * route's `name` tag says what a request was), without `expected_response` (k6 keeps a second
 * copy of every duration for it; http_req_failed does not need it), and without the TLS,
 * protocol, group and error-text tags these scripts have no use for (each tag costs every sample).
 */
const SYSTEM_TAGS = ['status', 'method', 'name', 'check', 'error_code', 'scenario'];

/** The trend statistics k6 must keep for the result (`options.summaryTrendStats`). */
export function summaryTrendStats(settings: LoadSettings): string[] {
  return ['avg', 'min', 'max', 'count', ...settings.percentiles.map((p) => `p(${p})`)];
}

/** `name`: the k6 scenario's name (`ycsb`, `pagination`, …); `rows`: the operations the workload runs, each with its own p99 threshold. */
export function scriptOptions(settings: LoadSettings, name: string, rows: readonly string[]): Options {
  const scenario = scenarioFor(settings);
  const thresholds: Record<string, string[]> = { http_req_failed: [`rate<=${settings.maxFailedRate}`] };
  for (const row of rows) thresholds[okLatencyMetric(row)] = [`p(99)<${settings.p99Ms}`];
  // A wrong answer fails the run, whatever else went well.
  thresholds.checks = ['rate==1'];
  // An open model that could not keep its schedule measured a lighter load than asked for.
  if (settings.model === 'open')
    thresholds.dropped_iterations = [
      `count<=${Math.floor(settings.maxDroppedFraction * scheduledIterations(scenario))}`,
    ];
  if (settings.maxErrors !== null) thresholds[ERRORS_METRIC] = [`count<=${settings.maxErrors}`];
  return {
    scenarios: { [name]: scenario },
    systemTags: SYSTEM_TAGS,
    // Answers are read only where a script asks for them (responseType text): the rest cost k6 nothing to keep.
    discardResponseBodies: true,
    thresholds,
    summaryTrendStats: summaryTrendStats(settings),
    ...(settings.cloud ? { cloud: settings.cloud } : {}),
  };
}
