/**
 * handleSummary: k6's end-of-test data -> docbench's common result (mode `http`), so reports put
 * direct and end-to-end runs side by side. Printed as YCSB text (the same renderer as direct
 * runs) and, with RESULT_FILE set, written as JSON. Pure (no k6 module), so it is tested under
 * Node with made-up summary data.
 *
 * What k6 cannot know is marked, not invented: the client's CPU (k6 has no API for its own;
 * `docbench k6` measures the k6 process and fills it in) and intended-time latency (k6 reports
 * no intended start times, so there are no `Intended-` rows).
 */
import type { ServiceInfo } from '../../src/service/app.ts';
import type { Result } from '../../src/results/schema.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { failedMetricName, metricName, RUN_WINDOW_METRIC, SERVICE_CPU_METRIC, SERVICE_REQUESTS_METRIC, STATUSES, statusMetricName, VERIFY, type Status } from './metric-names.ts';
import { maxVusOf, scenarioFor, type LoadSettings } from './settings.ts';

/** What a script ran, in the result's terms; each script builds it in setup(). */
export interface RunDescription {
  /** The result's `kind`: `ycsb`, or a scenario's name. */
  kind: string;
  workloadName: string;
  /** The workload's settings as the result keeps them (flat). */
  properties: Record<string, string | number | boolean | number[]>;
  /** The operation rows the script records, in order. */
  rows: readonly string[];
  /** Lines about how this script runs its workload, kept in the result's notes. */
  notes: readonly string[];
}

/** The part of setup()'s data the summary reads (lib/service.ts `SetupBase`). */
export interface SummarySetup {
  info: ServiceInfo;
  startedAt: string;
  run: RunDescription;
}

/** The part of k6's summary data this module reads. */
export interface SummaryData {
  metrics: Record<string, { values: Record<string, number> } | undefined>;
  state: { testRunDurationMs: number };
  setup_data?: SummarySetup;
}

/** Note carried by a result until `docbench k6` replaces it with the measured k6 CPU. */
export const CLIENT_CPU_NOT_MEASURED = 'client CPU: not measured inside k6 (docbench k6 measures the k6 process)';

/** The trend statistics k6 must keep for the result (`options.summaryTrendStats`). */
export function summaryTrendStats(settings: LoadSettings): string[] {
  return ['avg', 'min', 'max', 'count', ...settings.percentiles.map((p) => `p(${p})`)];
}

export function summarize(data: SummaryData, settings: LoadSettings): Record<string, string> {
  const setup = data.setup_data;
  // setup() failed (service unreachable, data not loaded): k6 already printed why.
  if (setup === undefined) return { stdout: 'docbench: no result (setup did not complete)\n' };
  const result = toResult(data, setup, settings);
  const out: Record<string, string> = { stdout: renderYcsbText(result) };
  if (settings.resultFile !== null) out[settings.resultFile] = `${JSON.stringify(result, null, 2)}\n`;
  return out;
}

export function toResult(data: SummaryData, setup: SummarySetup, settings: LoadSettings, endedAt = new Date()): Result {
  const value = (metric: string, stat: string) => data.metrics[metric]?.values[stat] ?? 0;
  const run = setup.run;
  const operations = Math.round(value('iterations', 'count'));
  // The window between setup and teardown, as direct mode measures; k6's testRunDurationMs
  // (setup and teardown included) only when teardown did not run.
  const windowMs = value(RUN_WINDOW_METRIC, 'count');
  const runtimeMs = Math.round(windowMs > 0 ? windowMs : data.state.testRunDurationMs);
  const serviceRequests = Math.round(value(SERVICE_REQUESTS_METRIC, 'count'));
  const serviceCpuUs = Math.round(value(SERVICE_CPU_METRIC, 'count'));
  const serviceCpuPerRequest = serviceRequests > 0 ? round1(serviceCpuUs / serviceRequests) : 0;
  const info = setup.info;
  const scenario = scenarioFor(settings);

  const rows: Result['operations'] = [];
  const totals: Partial<Record<Status, number>> = {};
  for (const row of [...run.rows, VERIFY]) {
    const returns: Partial<Record<Status, number>> = {};
    for (const status of STATUSES) {
      const n = Math.round(value(statusMetricName(row, status), 'count'));
      if (n > 0) {
        returns[status] = n;
        // Totals sum every row, as direct mode's do (a read-modify-write's read and update included).
        totals[status] = (totals[status] ?? 0) + n;
      }
    }
    if (Object.keys(returns).length === 0) continue;
    rows.push({ name: row, latency: latencyOf(data, metricName(row), settings), returns });
    if (row !== VERIFY && value(failedMetricName(row), 'count') > 0) rows.push({ name: `${row}-FAILED`, latency: latencyOf(data, failedMetricName(row), settings) });
  }

  const notes = [
    `end to end: k6 -> docbench serve (${info.service.framework}, ${info.service.workers} worker${info.service.workers > 1 ? 's' : ''}) -> ${info.store?.name ?? 'store'}`,
    `k6 ${settings.model} model: ${String(scenario.executor)}, ${maxVusOf(settings)} VUs${settings.rate !== null ? `, ${settings.rate} ops/s` : ''}`,
    `service CPU per request: ${serviceCpuPerRequest} us over ${serviceRequests} requests`,
    CLIENT_CPU_NOT_MEASURED,
    ...run.notes,
    'no Intended- rows: k6 reports no intended start times',
  ];
  if (windowMs <= 0) notes.push('runtime is k6\'s whole test run, setup and teardown included (teardown did not record the measured window)');
  const dropped = value('dropped_iterations', 'count');
  if (dropped > 0) notes.push(`k6 dropped ${dropped} iterations: the open model's rate was not reached (too few VUs, or the service fell behind)`);

  const store = info.store!;
  return {
    schemaVersion: 1 satisfies Result['schemaVersion'],
    kind: run.kind,
    mode: 'http',
    phase: 'run',
    workload: { name: run.workloadName, properties: runProperties(run, settings), overrides: [] },
    store: {
      ...store,
      extra: {
        ...store.extra,
        'service.framework': info.service.framework,
        'service.workers': info.service.workers,
        'service.requests': serviceRequests,
        'service.cpuUs': serviceCpuUs,
        'service.cpuUsPerRequest': serviceCpuPerRequest,
      },
    },
    machine: info.machine,
    startedAt: setup.startedAt,
    endedAt: (windowMs > 0 ? new Date(Date.parse(setup.startedAt) + windowMs) : endedAt).toISOString(),
    overall: { runtimeMs, throughputOpsPerSec: runtimeMs > 0 ? round3((operations * 1000) / runtimeMs) : 0, operations },
    warmup: { seconds: 0, operations: 0 },
    clientCpu: { userMs: 0, systemMs: 0, usPerOp: 0 },
    returns: totals,
    operations: rows,
    timeSeries: [],
    notes,
  };
}

/** The workload's settings, with the load shape k6 actually ran in YCSB's names. */
function runProperties(run: RunDescription, settings: LoadSettings): Result['workload']['properties'] {
  const flat: Result['workload']['properties'] = { ...run.properties };
  flat.threadcount = maxVusOf(settings);
  flat.target = settings.rate ?? 0;
  flat.operationcount = settings.iterations ?? 0;
  flat.maxexecutiontime = settings.iterations === null ? durationSeconds(settings.duration) : settings.durationGiven !== null ? durationSeconds(settings.durationGiven) : 0;
  flat['k6.model'] = settings.model;
  flat['k6.executor'] = String(scenarioFor(settings).executor);
  flat['k6.baseUrl'] = settings.baseUrl;
  return flat;
}

function latencyOf(data: SummaryData, metric: string, settings: LoadSettings): Result['operations'][number]['latency'] {
  const values = data.metrics[metric]?.values ?? {};
  const us = (ms: number | undefined) => Math.round((ms ?? 0) * 1000);
  const percentilesUs: Record<string, number> = {};
  for (const p of settings.percentiles) percentilesUs[String(p)] = us(values[`p(${p})`]);
  return {
    operations: Math.round(values.count ?? 0),
    averageUs: round3((values.avg ?? 0) * 1000),
    minUs: us(values.min),
    maxUs: us(values.max),
    percentilesUs,
  };
}

/** k6 duration text (`1m30s`, `45s`, `500ms`) in whole seconds. */
export function durationSeconds(text: string): number {
  const unit: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let seconds = 0;
  for (const [, n, u] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) seconds += Number(n) * unit[u!]!;
  return Math.round(seconds);
}

/** A flat copy of a properties object: the values a result keeps (nested objects dropped). */
export function flatProperties(source: object): Record<string, string | number | boolean | number[]> {
  const flat: Record<string, string | number | boolean | number[]> = {};
  for (const [key, v] of Object.entries(source)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') flat[key] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number')) flat[key] = v;
  }
  return flat;
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
