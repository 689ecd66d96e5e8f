/**
 * Names of the per-operation metrics, shared by the scripts (which create the metrics) and the
 * summary (which turns them into docbench's result rows). Pure: no k6 module is imported here,
 * so the summary's conversion can be tested under Node.
 *
 * Named after the result's rows so the conversion is one to one: a Trend of latency per
 * operation (`op_read`), one for calls that did not return OK (`op_read_failed`, YCSB's
 * READ-FAILED row), and a Counter per return status (`op_read_ok`, `op_read_not_found`, …).
 */

/** YCSB's five operations, the rows of every YCSB script. */
export const YCSB_OPERATIONS = ['READ', 'UPDATE', 'INSERT', 'SCAN', 'READ-MODIFY-WRITE'] as const;

/** YCSB's return statuses (the same list as the runner's `STATUSES`). */
export const STATUSES = ['OK', 'NOT_FOUND', 'ERROR', 'UNSUPPORTED', 'UNEXPECTED_STATE'] as const;
export type Status = (typeof STATUSES)[number];

/** The row of answer checks (integrity, scan order, oracle), as in direct mode. */
export const VERIFY = 'VERIFY';

export const metricName = (row: string) => `op_${row.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
export const failedMetricName = (row: string) => `${metricName(row)}_failed`;
export const statusMetricName = (row: string, status: Status) => `${metricName(row)}_${status.toLowerCase()}`;

/** Service CPU and requests during the run (teardown adds the differences of two stats snapshots). */
export const SERVICE_CPU_METRIC = 'docbench_service_cpu_us';
export const SERVICE_REQUESTS_METRIC = 'docbench_service_requests';
/**
 * The measured window in ms, from the end of setup() to the start of teardown(): k6's own
 * testRunDurationMs includes setup (which may seed data or build views) and teardown.
 */
export const RUN_WINDOW_METRIC = 'docbench_run_window_ms';

/** HTTP status -> the result's return status, the same mapping for every script. */
export function statusOfHttp(code: number): Status {
  if (code >= 200 && code < 300) return 'OK';
  if (code === 404) return 'NOT_FOUND';
  if (code === 501) return 'UNSUPPORTED';
  return 'ERROR';
}
