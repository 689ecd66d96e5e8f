/**
 * The per-operation metrics of a script (names: metric-names.ts). k6 creates metrics in the init
 * stage only, so a script declares its rows up front with `defineOperations`; the VERIFY row
 * (answer checks) always exists. Rows that stay empty are left out of the result.
 */
import { Counter, Trend } from 'k6/metrics';
import { failedMetricName, metricName, RUN_WINDOW_METRIC, SERVICE_CPU_METRIC, SERVICE_REQUESTS_METRIC, STATUSES, statusMetricName, VERIFY, type Status } from './metric-names.ts';

const latency = new Map<string, Trend>();
const failedLatency = new Map<string, Trend>();
const statusCounters = new Map<string, Counter>();

function defineStatuses(row: string): void {
  for (const status of STATUSES) {
    const name = statusMetricName(row, status);
    if (!statusCounters.has(name)) statusCounters.set(name, new Counter(name));
  }
}

/** Create the metrics of these rows (init stage only). */
export function defineOperations(rows: readonly string[]): void {
  for (const row of rows) {
    if (latency.has(row)) continue;
    latency.set(row, new Trend(metricName(row), true));
    failedLatency.set(row, new Trend(failedMetricName(row), true));
    defineStatuses(row);
  }
}

// A check takes no request, so the VERIFY row has counts only.
defineStatuses(VERIFY);

export const serviceCpuUs = new Counter(SERVICE_CPU_METRIC);
export const serviceRequests = new Counter(SERVICE_REQUESTS_METRIC);
export const runWindowMs = new Counter(RUN_WINDOW_METRIC);

/** Record one operation: its latency (ms, as k6 measures) in the OK or FAILED trend, and its status. */
export function recordOperation(row: string, status: Status, durationMs: number): void {
  const trends = status === 'OK' ? latency : failedLatency;
  const trend = trends.get(row);
  if (trend === undefined) throw new Error(`row ${row} was not defined with defineOperations() in the init stage`);
  // As in direct mode (and YCSB): every status but OK goes to the -FAILED row.
  trend.add(durationMs);
  statusCounters.get(statusMetricName(row, status))!.add(1);
}

/** Record one check (VERIFY row): its outcome only. */
export function recordCheck(ok: boolean): void {
  statusCounters.get(statusMetricName(VERIFY, ok ? 'OK' : 'UNEXPECTED_STATE'))!.add(1);
}
