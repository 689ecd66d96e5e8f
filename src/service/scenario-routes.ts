/**
 * The routes of the served scenarios besides YCSB's, and their settings, from each scenario's
 * own `service` module (SCENARIOS table). Loaded only by a service process (and by `docbench
 * serve` to check settings), never by the rest of the CLI: a scenario's routes bring its
 * generator (the e-commerce one faker).
 */
import type { FastifyInstance } from 'fastify';
import { scenarioEntry, type ScenarioName } from '../../scenarios/scenarios.ts';
import type { ScenarioService } from '../../scenarios/scenario.ts';
import type { ServeConfig } from './config.ts';
import type { StoreGate } from './store-gate.ts';

/** A served scenario's module and its parsed settings. */
export interface ServedScenario {
  name: ScenarioName;
  service: ScenarioService;
  settings: unknown;
}

/** The served scenarios with their settings (`-p <scenario>.*`) parsed by each scenario's rules; throws a WorkloadError naming a bad one. */
export async function servedScenarios(
  config: Pick<ServeConfig, 'scenarios' | 'scenarioSettings'>,
): Promise<ServedScenario[]> {
  const served: ServedScenario[] = [];
  for (const name of config.scenarios) {
    if (name === 'ycsb') continue;
    const load = scenarioEntry(name).service;
    if (load === undefined) continue;
    const { service } = await load();
    served.push({ name, service, settings: service.settings(config.scenarioSettings[name] ?? []) });
  }
  return served;
}

/** What GET /_docbench/info says about each served scenario that says something. */
export function scenarioInfo(served: readonly ServedScenario[]): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  for (const s of served) if (s.service.info) info[s.name] = s.service.info(s.settings);
  return info;
}

export interface ScenarioRouteOptions {
  gate: StoreGate;
  log: (line: string) => void;
}

/** Register the routes of the served scenarios other than YCSB (whose routes app.ts adds). */
export function registerScenarioRoutes(
  app: FastifyInstance,
  served: readonly ServedScenario[],
  options: ScenarioRouteOptions,
): void {
  for (const s of served) s.service.register(app, { gate: options.gate, settings: s.settings, log: options.log });
}
