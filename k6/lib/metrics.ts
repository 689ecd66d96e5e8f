/**
 * The script's own metrics (names and why so few: metric-names.ts). k6 creates metrics in the
 * init stage only, so a script declares its rows up front with `defineOperations`. Everything
 * here is built once per VU: recording an outcome allocates nothing.
 */
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import {
  COMPOUND_ROWS,
  CONFLICTS_METRIC,
  ERRORS_METRIC,
  failedMetricName,
  metricName,
  RUN_WINDOW_METRIC,
  SERVICE_CPU_METRIC,
  SERVICE_PLAN_CPU_METRIC,
  SERVICE_REQUESTS_METRIC,
  STATUSES,
  statusMetricName,
  type Status,
} from './metric-names.ts';

interface RowMetrics {
  failed: Trend;
  statuses: Map<Status, Counter>;
  /** Compound rows only: the latency of the successful ones. */
  ok: Trend | null;
  /** The two outcomes of this row's answer check, as check() takes them. */
  answer: { right: Record<string, boolean>; wrong: Record<string, boolean> };
}

const rows = new Map<string, RowMetrics>();
const errors = new Counter(ERRORS_METRIC);
const conflicts = new Counter(CONFLICTS_METRIC);

/** Create the metrics of these rows (init stage only). */
export function defineOperations(names: readonly string[]): void {
  for (const row of names) {
    if (rows.has(row)) continue;
    const statuses = new Map<Status, Counter>();
    for (const status of STATUSES)
      if (status !== 'OK') statuses.set(status, new Counter(statusMetricName(row, status)));
    const name = `${row} answer is right`;
    rows.set(row, {
      failed: new Trend(failedMetricName(row), true),
      statuses,
      ok: COMPOUND_ROWS.has(row) ? new Trend(metricName(row), true) : null,
      answer: { right: { [name]: true }, wrong: { [name]: false } },
    });
  }
}

function metricsOf(row: string): RowMetrics {
  const metrics = rows.get(row);
  if (metrics === undefined) throw new Error(`row ${row} was not defined with defineOperations() in the init stage`);
  return metrics;
}

/**
 * One call that did not return OK: its latency (ms, as k6 measures) in the row's FAILED trend,
 * as direct mode (and YCSB) keep them, and its status. `httpStatus` tells a conflict (409) apart.
 */
export function recordFailure(row: string, status: Exclude<Status, 'OK'>, durationMs: number, httpStatus = 0): void {
  const metrics = metricsOf(row);
  metrics.failed.add(durationMs);
  metrics.statuses.get(status)!.add(1);
  if (status === 'ERROR') errors.add(1);
  if (httpStatus === 409) conflicts.add(1);
}

/** One operation of a compound row (several requests, one latency). */
export function recordCompound(row: string, status: Status, durationMs: number): void {
  if (status === 'OK') metricsOf(row).ok!.add(durationMs);
  else recordFailure(row, status, durationMs);
}

/** One answer checked against what the workload or the oracle expects (VERIFY row, k6's `checks`). */
export function checkAnswer(row: string, right: boolean): void {
  const { answer } = metricsOf(row);
  check(null, right ? answer.right : answer.wrong);
}

export const serviceCpuUs = new Counter(SERVICE_CPU_METRIC);
export const serviceRequests = new Counter(SERVICE_REQUESTS_METRIC);
export const servicePlanCpuUs = new Counter(SERVICE_PLAN_CPU_METRIC);
export const runWindowMs = new Counter(RUN_WINDOW_METRIC);
