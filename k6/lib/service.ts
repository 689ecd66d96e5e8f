/**
 * What every script does with docbench serve besides its operations: send the token, learn what
 * the service runs (GET /_docbench/info), take the service's CPU and request counters before and
 * after the run (GET /_docbench/stats), so the result can say what the service cost per request,
 * and note what k6 actually runs (its consolidated options: an archive's may differ from this
 * environment's). These calls are not operations: they are tagged apart and the service does
 * not count them.
 */
import http, { type Params } from 'k6/http';
import exec from 'k6/execution';
import { fail } from 'k6';
import type { Scenario } from 'k6/options';
import type { ServiceInfo } from '../../src/service/app.ts';
import type { ServiceStats } from '../../src/service/stats.ts';
import { runWindowMs, serviceCpuUs, servicePlanCpuUs, serviceRequests } from './metrics.ts';
import { maxVusOfScenario, type LoadSettings } from './settings.ts';
import type { RunDescription } from './summary.ts';

/** What setup() hands every VU (k6 passes it as JSON) and the summary reads. */
export interface SetupBase {
  info: ServiceInfo;
  statsBefore: ServiceCounters;
  startedAt: string;
  run: RunDescription;
  /** The scenario k6 runs, as k6 reports it (null fields dropped). */
  scenario: Scenario;
  /** Most VUs of that scenario: the stride of the YCSB insert key space. */
  maxVus: number;
}

/** The headers every request carries: the token, when the service has one. */
export function serviceHeaders(settings: LoadSettings): Record<string, string> {
  return settings.token === null ? {} : { Authorization: `Bearer ${settings.token}` };
}

/**
 * Request parameters of one kind of operation, built once per VU (a request then allocates none
 * of its own). Bodies are discarded unless read (`text`): the scripts' options say so once
 * (`discardResponseBodies`), so a request that does not read its answer names no response type.
 */
export function operationParams(
  settings: LoadSettings,
  row: string,
  name: string,
  responseType: 'text' | 'none',
  headers: Record<string, string> = {},
): Params {
  const params: Params = { headers: { ...serviceHeaders(settings), ...headers }, tags: { op: row, name } };
  if (responseType === 'text') params.responseType = 'text';
  return params;
}

/** GET a JSON document of the service, or stop the test with what went wrong. */
export function getJson<T>(settings: LoadSettings, url: string, what: string): T {
  const response = http.get(url, { headers: serviceHeaders(settings), tags: { name: what }, responseType: 'text' });
  if (response.status !== 200) {
    const body = typeof response.body === 'string' ? response.body.slice(0, 300) : '';
    const hint =
      response.status === 0
        ? ': is docbench serve running there (BASE_URL)?'
        : response.status === 401
          ? `: the service wants its token (-e DOCBENCH_TOKEN=…)${settings.token === null ? '' : ', and this is not it'}`
          : '';
    fail(`GET ${url} answered ${response.status || response.error}${hint} ${body}`);
  }
  return response.json() as T;
}

/** The service's description; stops the test when its store is unreachable. */
export function serviceInfo(settings: LoadSettings): ServiceInfo {
  const info = getJson<ServiceInfo>(settings, `${settings.baseUrl}/_docbench/info`, 'docbench info');
  if (info.store === null)
    fail(
      `the service at ${settings.baseUrl} runs but cannot reach its store (see GET ${settings.baseUrl}/_docbench/health)`,
    );
  return info;
}

/** The service's cumulative counters: all its CPU, the part spent drawing plan blocks, and API requests. */
export interface ServiceCounters {
  cpuUs: number;
  planCpuUs: number;
  requests: number;
}

export function serviceCounters(settings: LoadSettings): ServiceCounters {
  const stats = getJson<ServiceStats>(settings, `${settings.baseUrl}/_docbench/stats`, 'docbench stats');
  return { cpuUs: stats.cpuUserUs + stats.cpuSystemUs, planCpuUs: stats.internalCpuUs ?? 0, requests: stats.requests };
}

/** The scenario k6 runs: the test's first (docbench's scripts have one; `k6 run --vus/--duration` replaces it with k6's own). */
export function runningScenario(): Scenario {
  const scenarios = exec.test.options.scenarios ?? {};
  const first = Object.values(scenarios)[0];
  if (first === undefined) fail('k6 reports no scenario for this test');
  // k6 reports unset fields as null: drop them, so the scenario reads as one written by hand.
  return Object.fromEntries(
    Object.entries(first).filter(([, v]) => v !== null && v !== undefined),
  ) as unknown as Scenario;
}

/** The common part of setup()'s answer: call it last in setup(), right before the run starts. */
export function startRun(settings: LoadSettings, info: ServiceInfo, run: RunDescription): SetupBase {
  const scenario = runningScenario();
  return {
    info,
    statsBefore: serviceCounters(settings),
    startedAt: new Date().toISOString(),
    run,
    scenario,
    maxVus: maxVusOfScenario(scenario),
  };
}

/** teardown(): the service's CPU and requests during the run, as two counters the summary reads. */
export function teardownRun(settings: LoadSettings, data: SetupBase): void {
  runWindowMs.add(Date.now() - Date.parse(data.startedAt));
  const after = serviceCounters(settings);
  const planCpuUs = after.planCpuUs - data.statsBefore.planCpuUs;
  // The API's CPU: what drawing plan blocks cost is reported on its own.
  serviceCpuUs.add(after.cpuUs - data.statsBefore.cpuUs - planCpuUs);
  servicePlanCpuUs.add(planCpuUs);
  serviceRequests.add(after.requests - data.statsBefore.requests);
}
