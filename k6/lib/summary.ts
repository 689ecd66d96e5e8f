/**
 * k6's end-of-test data -> docbench's common result (mode `http`), so reports put direct and
 * end-to-end runs side by side. Pure (no k6 module), so it runs in three places: in k6's
 * handleSummary when RESULT_FILE is set, in `docbench k6` on k6's summary export (with k6's own
 * text summary left as it is), and in tests under Node with made-up summary data.
 *
 * What k6 cannot know is marked, not invented: the client's CPU (k6 has no API for its own;
 * `docbench k6` measures the k6 process and fills it in) and intended-time latency (k6 reports
 * no intended start times, so there are no `Intended-` rows).
 */
import type { Scenario } from 'k6/options';
import type { ServiceInfo } from '../../src/service/app.ts';
import type { Result } from '../../src/results/schema.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { computeVerdict } from '../../src/results/verdict.ts';
import {
  CONFLICTS_METRIC,
  failedMetricName,
  okLatencyMetric,
  RUN_WINDOW_METRIC,
  SERVICE_CPU_METRIC,
  SERVICE_PLAN_CPU_METRIC,
  SERVICE_REQUESTS_METRIC,
  STATUSES,
  statusMetricName,
  VERIFY,
  type Status,
} from './metric-names.ts';
import { durationSeconds, maxVusOfScenario, NO_DURATION_BOUND, type LoadSettings } from './settings.ts';

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
  /** The scenario k6 ran, as k6 reported it in setup(). */
  scenario: Scenario;
}

/** The part of k6's summary data this module reads (handleSummary's argument). */
export interface SummaryData {
  metrics: Record<string, { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> } | undefined>;
  state: { testRunDurationMs: number };
  setup_data?: SummarySetup;
}

/** Note carried by a result until `docbench k6` replaces it with the measured k6 CPU. */
export const CLIENT_CPU_NOT_MEASURED = 'client CPU: not measured inside k6 (docbench k6 measures the k6 process)';

/**
 * handleSummary. Without RESULT_FILE it returns nothing, so k6 prints its own summary (k6 prints
 * it only when handleSummary returns nothing: any answer replaces it). With RESULT_FILE it
 * writes docbench's result and prints the thresholds' outcomes and the YCSB text instead.
 */
export function summarize(data: SummaryData, settings: LoadSettings): Record<string, string> | undefined {
  // setup() failed (service unreachable, data not loaded): k6's own summary, after its message.
  if (settings.resultFile === null || data.setup_data === undefined) return undefined;
  const result = toResult(data, data.setup_data, settings);
  return {
    [settings.resultFile]: `${JSON.stringify(result, null, 2)}\n`,
    stdout: `${renderThresholds(data)}\n${renderYcsbText(result)}`,
  };
}

/**
 * k6's summary export (`k6 run --summary-export`) as handleSummary's data: the export flattens
 * each metric's values, names a rate `value`, marks a threshold `true` when it failed, and has no
 * test duration (which a counter's count / rate gives back).
 */
export function fromSummaryExport(exported: {
  metrics: Record<string, Record<string, unknown>>;
  setup_data?: unknown;
}): SummaryData {
  const metrics: SummaryData['metrics'] = {};
  for (const [name, flat] of Object.entries(exported.metrics)) {
    const { thresholds, value, ...rest } = flat as Record<string, number> & { thresholds?: Record<string, boolean> };
    const values: Record<string, number> = { ...rest, ...(value !== undefined ? { rate: value } : {}) };
    metrics[name] = {
      values,
      ...(thresholds
        ? {
            thresholds: Object.fromEntries(
              Object.entries(thresholds).map(([source, failed]) => [source, { ok: !failed }]),
            ),
          }
        : {}),
    };
  }
  const iterations = metrics.iterations?.values ?? {};
  const testRunDurationMs = iterations.rate ? ((iterations.count ?? 0) / iterations.rate) * 1000 : 0;
  return {
    metrics,
    state: { testRunDurationMs },
    ...(exported.setup_data ? { setup_data: exported.setup_data as SummarySetup } : {}),
  };
}

export function toResult(
  data: SummaryData,
  setup: SummarySetup,
  settings: Pick<LoadSettings, 'percentiles' | 'baseUrl'>,
  endedAt = new Date(),
): Result {
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
  const planCpuUs = Math.round(value(SERVICE_PLAN_CPU_METRIC, 'count'));
  const info = setup.info;
  const shape = loadShape(setup.scenario);

  const rows: Result['operations'] = [];
  const totals: Partial<Record<Status, number>> = {};
  const add = (returns: Partial<Record<Status, number>>, status: Status, n: number) => {
    if (n <= 0) return;
    returns[status] = n;
    // Totals sum every row, as direct mode's do (a read-modify-write's read and update included).
    totals[status] = (totals[status] ?? 0) + n;
  };
  for (const row of run.rows) {
    const returns: Partial<Record<Status, number>> = {};
    for (const status of STATUSES)
      add(
        returns,
        status,
        Math.round(
          status === 'OK' ? value(okLatencyMetric(row), 'count') : value(statusMetricName(row, status), 'count'),
        ),
      );
    if (Object.keys(returns).length === 0) continue;
    rows.push({ name: row, latency: latencyOf(data, okLatencyMetric(row), settings), returns });
    if (value(failedMetricName(row), 'count') > 0)
      rows.push({ name: `${row}-FAILED`, latency: latencyOf(data, failedMetricName(row), settings) });
  }
  // Answer checks take no request of their own: counts only.
  const verify: Partial<Record<Status, number>> = {};
  add(verify, 'OK', Math.round(value('checks', 'passes')));
  add(verify, 'UNEXPECTED_STATE', Math.round(value('checks', 'fails')));
  if (Object.keys(verify).length > 0)
    rows.push({ name: VERIFY, latency: latencyOf(data, '(none)', settings), returns: verify });

  const notes = [
    `end to end: k6 -> docbench serve (${info.service.framework}, ${info.service.workers} worker${info.service.workers > 1 ? 's' : ''}, ${info.service.pool} store connections each) -> ${info.store?.name ?? 'store'}`,
    `k6 ${shape.model} model: ${shape.description}`,
    `service CPU per request: ${serviceCpuPerRequest} us over ${serviceRequests} requests`,
    CLIENT_CPU_NOT_MEASURED,
    ...run.notes,
    'no Intended- rows: k6 reports no intended start times',
  ];
  if (windowMs <= 0)
    notes.push(
      "runtime is k6's whole test run, setup and teardown included (teardown did not record the measured window)",
    );
  const dropped = value('dropped_iterations', 'count');
  if (dropped > 0)
    notes.push(
      `k6 dropped ${dropped} iterations: the open model's rate was not reached (too few VUs, or the service fell behind)`,
    );
  if (planCpuUs > 0)
    notes.push(
      `the service spent ${operations > 0 ? round1(planCpuUs / operations) : 0} us per operation drawing plan blocks, not counted in its CPU per request`,
    );
  const conflicts = value(CONFLICTS_METRIC, 'count');
  if (conflicts > 0)
    notes.push(
      `${conflicts} requests answered 409 (a write conflict: the key existed, or another writer came first), counted as ERROR as in direct mode`,
    );
  const crossed = crossedThresholds(data);
  if (crossed.length > 0) notes.push(`k6 thresholds crossed (k6 exits 99): ${crossed.join('; ')}`);

  // As in direct mode, an operation that failed did no work: it is counted under Return= and in
  // the error rate, not in the throughput.
  const failed = rows
    .filter((r) => r.name !== VERIFY)
    .reduce(
      (n, r) => n + (r.returns?.ERROR ?? 0) + (r.returns?.TIMEOUT ?? 0) + (r.returns?.SERVICE_UNAVAILABLE ?? 0),
      0,
    );
  const done = Math.max(0, operations - failed);
  if (failed > 0)
    notes.push(
      `${failed} operations failed (${round1((failed / Math.max(1, operations)) * 100)}% of those issued): they are counted under Return=, not in the throughput`,
    );

  const store = info.store!;
  const result: Result = {
    schemaVersion: 1 satisfies Result['schemaVersion'],
    kind: run.kind,
    mode: 'http',
    phase: 'run',
    workload: {
      name: run.workloadName,
      properties: { ...run.properties, ...shape.properties, 'k6.baseUrl': settings.baseUrl },
      overrides: [],
    },
    store: {
      ...store,
      extra: {
        ...store.extra,
        'service.framework': info.service.framework,
        'service.workers': info.service.workers,
        'service.pool': info.service.pool,
        'service.requests': serviceRequests,
        'service.cpuUs': serviceCpuUs,
        'service.cpuUsPerRequest': serviceCpuPerRequest,
        ...(planCpuUs > 0 ? { 'service.planCpuUs': planCpuUs } : {}),
      },
    },
    machine: info.machine,
    startedAt: setup.startedAt,
    endedAt: (windowMs > 0 ? new Date(Date.parse(setup.startedAt) + windowMs) : endedAt).toISOString(),
    overall: {
      runtimeMs,
      throughputOpsPerSec: runtimeMs > 0 ? round3((done * 1000) / runtimeMs) : 0,
      operations: done,
    },
    ...(failed > 0
      ? {
          faults: {
            onError: 'continue' as const,
            failedOperations: failed,
            errorRate: Math.round((failed / Math.max(1, operations)) * 1e6) / 1e6,
            outages: [],
          },
        }
      : {}),
    warmup: { seconds: 0, operations: 0 },
    clientCpu: { userMs: 0, systemMs: 0, usPerOp: 0 },
    returns: totals,
    operations: rows,
    timeSeries: [],
    notes,
  };
  result.verdict = computeVerdict(result);
  return result;
}

/**
 * The scenario k6 ran, in YCSB's terms (threadcount, target, operationcount, maxexecutiontime)
 * and in k6's, read from the scenario itself rather than from the environment: an archive runs
 * the options it was made with.
 */
export function loadShape(scenario: Scenario): {
  model: 'closed' | 'open';
  description: string;
  properties: Result['workload']['properties'];
} {
  const vus = maxVusOfScenario(scenario);
  const seconds = (text: string | undefined) =>
    text === undefined || text === NO_DURATION_BOUND ? 0 : Math.round(durationSeconds(text));
  const stages = 'stages' in scenario ? scenario.stages : null;
  const staged = stages === null ? 0 : Math.round(stages.reduce((sum, s) => sum + durationSeconds(s.duration), 0));
  const stageText = stages === null ? '' : stages.map((s) => `${s.duration}:${s.target}`).join(',');
  const open = scenario.executor === 'constant-arrival-rate' || scenario.executor === 'ramping-arrival-rate';
  let target = 0;
  let operationcount = 0;
  let maxexecutiontime = 0;
  let description = `${scenario.executor}, ${vus} VUs`;
  switch (scenario.executor) {
    case 'shared-iterations':
      operationcount = scenario.iterations ?? 1;
      maxexecutiontime = seconds(scenario.maxDuration);
      break;
    case 'constant-vus':
      maxexecutiontime = seconds(scenario.duration);
      break;
    case 'constant-arrival-rate':
      target = scenario.rate;
      maxexecutiontime = seconds(scenario.duration);
      description += `, ${scenario.rate} ops/s`;
      break;
    case 'ramping-vus':
    case 'ramping-arrival-rate':
      target = scenario.executor === 'ramping-arrival-rate' ? Math.max(...scenario.stages.map((s) => s.target)) : 0;
      maxexecutiontime = staged;
      description += `, stages ${stageText}${open ? ' (ops/s)' : ' (VUs)'}`;
      break;
  }
  const properties: Result['workload']['properties'] = {
    threadcount: vus,
    target,
    operationcount,
    maxexecutiontime,
    'k6.model': open ? 'open' : 'closed',
    'k6.executor': scenario.executor,
  };
  if (stages !== null) properties['k6.stages'] = stageText;
  return { model: open ? 'open' : 'closed', description, properties };
}

/** Each crossed threshold as `metric source`. */
function crossedThresholds(data: SummaryData): string[] {
  const crossed: string[] = [];
  for (const [metric, m] of Object.entries(data.metrics)) {
    for (const [source, outcome] of Object.entries(m?.thresholds ?? {}))
      if (!outcome.ok) crossed.push(`${metric} ${source}`);
  }
  return crossed.sort();
}

/** The thresholds' outcomes, as k6's own summary lists them (printed when handleSummary replaces it). */
export function renderThresholds(data: SummaryData): string {
  const lines: string[] = [];
  for (const [metric, m] of Object.entries(data.metrics).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [source, outcome] of Object.entries(m?.thresholds ?? {}))
      lines.push(`  ${outcome.ok ? '✓' : '✗'} ${metric} '${source}'`);
  }
  return lines.length === 0 ? '' : `k6 thresholds:\n${lines.join('\n')}\n`;
}

function latencyOf(
  data: SummaryData,
  metric: string,
  settings: Pick<LoadSettings, 'percentiles'>,
): Result['operations'][number]['latency'] {
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
