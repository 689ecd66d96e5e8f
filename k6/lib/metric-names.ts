/**
 * Where each result row's numbers live in k6's metrics, shared by the scripts (which create and
 * feed them) and the summary (which turns them into docbench's result rows). Pure: no k6 module
 * is imported here, so the summary's conversion can be tested under Node.
 *
 * What an operation costs the load generator is most of what an end-to-end run can measure, so
 * an operation that succeeds adds nothing of the script's own: its latency and count are k6's
 * built-in `http_req_duration` of the requests tagged with the row (`op`) that answered the
 * route's success status, a submetric its p99 threshold makes k6 keep. Only the rarer outcomes
 * add samples: a Trend of calls that did not return OK (`op_read_failed`, YCSB's READ-FAILED
 * row), a Counter per other status (`op_read_not_found`, …), and answer checks (k6's `checks`,
 * the VERIFY row). A row of several requests (READ-MODIFY-WRITE) has a Trend of its own.
 */

/** YCSB's five operations, the rows of every YCSB script. */
export const YCSB_OPERATIONS = ['READ', 'UPDATE', 'INSERT', 'SCAN', 'READ-MODIFY-WRITE'] as const;

/** YCSB's return statuses (the same list as the runner's `STATUSES`). */
export const STATUSES = ['OK', 'NOT_FOUND', 'ERROR', 'UNSUPPORTED', 'UNEXPECTED_STATE'] as const;
export type Status = (typeof STATUSES)[number];

/** The row of answer checks (integrity, scan order, oracle), as in direct mode. */
export const VERIFY = 'VERIFY';

/** What each route answers on success (docbench serve's REST status codes); every other row: 200. */
const SUCCESS_STATUS: Record<string, number> = { UPDATE: 204, INSERT: 201 };
export const successStatusOf = (row: string): number => SUCCESS_STATUS[row] ?? 200;

/** Rows timed over several requests, with a Trend of the script's own. */
export const COMPOUND_ROWS: ReadonlySet<string> = new Set(['READ-MODIFY-WRITE']);

export const metricName = (row: string) => `op_${row.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
export const failedMetricName = (row: string) => `${metricName(row)}_failed`;
/** Counter of one return status of a row; OK has none (its count is its latency's count). */
export const statusMetricName = (row: string, status: Exclude<Status, 'OK'>) =>
  `${metricName(row)}_${status.toLowerCase()}`;

/** Where the latencies of a row's successful calls are (their count is the row's OK count). */
export function okLatencyMetric(row: string): string {
  return COMPOUND_ROWS.has(row) ? metricName(row) : `http_req_duration{op:${row},status:${successStatusOf(row)}}`;
}

/** Operations that returned ERROR, every row together: the error budget's counter (MAX_ERRORS). */
export const ERRORS_METRIC = 'docbench_errors';
/** Requests answered 409 (write conflicts), counted as ERROR like direct mode counts them. */
export const CONFLICTS_METRIC = 'docbench_conflicts';

/** Service CPU (the API's) and requests during the run (teardown adds the differences of two stats snapshots). */
export const SERVICE_CPU_METRIC = 'docbench_service_cpu_us';
export const SERVICE_REQUESTS_METRIC = 'docbench_service_requests';
/** Service CPU spent drawing YCSB plan blocks for the VUs, kept out of the service's CPU per request. */
export const SERVICE_PLAN_CPU_METRIC = 'docbench_service_plan_cpu_us';
/**
 * The measured window in ms, from the end of setup() to the start of teardown(): k6's own
 * testRunDurationMs includes setup (which may seed data or build views) and teardown.
 */
export const RUN_WINDOW_METRIC = 'docbench_run_window_ms';

/** HTTP status -> the result's return status, the same mapping for every script (a 409 conflict is an ERROR, as in direct mode). */
export function statusOfHttp(code: number): Status {
  if (code >= 200 && code < 300) return 'OK';
  if (code === 404) return 'NOT_FOUND';
  if (code === 501) return 'UNSUPPORTED';
  return 'ERROR';
}
