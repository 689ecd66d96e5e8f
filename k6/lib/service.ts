/**
 * What every script does with docbench serve besides its operations: learn what the service
 * runs (GET /_docbench/info), and take the service's CPU and request counters before and after
 * the run (GET /_docbench/stats), so the result can say what the service cost per request.
 * These calls are not operations: they are tagged apart and the service does not count them.
 */
import http from 'k6/http';
import { fail } from 'k6';
import type { ServiceInfo } from '../../src/service/app.ts';
import type { ServiceStats } from '../../src/service/stats.ts';
import { runWindowMs, serviceCpuUs, serviceRequests } from './metrics.ts';
import type { LoadSettings } from './settings.ts';
import type { RunDescription } from './summary.ts';

/** What setup() hands every VU (k6 passes it as JSON) and the summary reads. */
export interface SetupBase {
  info: ServiceInfo;
  statsBefore: { cpuUs: number; requests: number };
  startedAt: string;
  run: RunDescription;
}

/** GET a JSON document of the service, or stop the test with what went wrong. */
export function getJson<T>(url: string, what: string): T {
  const response = http.get(url, { tags: { name: what }, responseType: 'text' });
  if (response.status !== 200) {
    const body = typeof response.body === 'string' ? response.body.slice(0, 300) : '';
    fail(`GET ${url} answered ${response.status || response.error}${response.status === 0 ? ': is docbench serve running there (BASE_URL)?' : ''} ${body}`);
  }
  return response.json() as T;
}

/** The service's description; stops the test when its store is unreachable. */
export function serviceInfo(settings: LoadSettings): ServiceInfo {
  const info = getJson<ServiceInfo>(`${settings.baseUrl}/_docbench/info`, 'docbench info');
  if (info.store === null) fail(`the service at ${settings.baseUrl} runs but cannot reach its store (see GET ${settings.baseUrl}/_docbench/health)`);
  return info;
}

export function serviceCounters(settings: LoadSettings): { cpuUs: number; requests: number } {
  const stats = getJson<ServiceStats>(`${settings.baseUrl}/_docbench/stats`, 'docbench stats');
  return { cpuUs: stats.cpuUserUs + stats.cpuSystemUs, requests: stats.requests };
}

/** The common part of setup()'s answer: call it last in setup(), right before the run starts. */
export function startRun(settings: LoadSettings, info: ServiceInfo, run: RunDescription): SetupBase {
  return { info, statsBefore: serviceCounters(settings), startedAt: new Date().toISOString(), run };
}

/** teardown(): the service's CPU and requests during the run, as two counters the summary reads. */
export function teardownRun(settings: LoadSettings, data: SetupBase): void {
  runWindowMs.add(Date.now() - Date.parse(data.startedAt));
  const after = serviceCounters(settings);
  serviceCpuUs.add(after.cpuUs - data.statsBefore.cpuUs);
  serviceRequests.add(after.requests - data.statsBefore.requests);
}
