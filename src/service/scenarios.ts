/**
 * The scenarios the service can serve, each a set of routes over the same store connection:
 * YCSB's own (ycsb-routes.ts: GET/PUT/DELETE /usertable/:key, POST /usertable, GET
 * /usertable?start=&count=), and every scenario of the SCENARIOS table with a `service` part
 * (its routes module in its folder). A scenario's routes exist only on the stores its dialects
 * cover; its settings come as `-p <scenario>.<key>=value`.
 */
import { SCENARIO_NAMES, scenarioEntry, scenariosOn, type ScenarioName } from '../../scenarios/scenarios.ts';

/** What a service serves: YCSB's routes, or a scenario's. */
export type ServedName = 'ycsb' | ScenarioName;

/** Every name the service can serve, YCSB first. */
export const SERVED_NAMES: readonly ServedName[] = [
  'ycsb',
  ...SCENARIO_NAMES.filter((name) => scenarioEntry(name).service !== undefined),
];

/** Split `-p` assignments: `ecommerce.maxlimit=50` -> the scenario's own (`maxlimit=50`); the rest is YCSB's and the stores'. */
export function splitScenarioSettings(assignments: readonly string[]): {
  ycsb: string[];
  scenario: Partial<Record<ScenarioName, string[]>>;
} {
  const out: { ycsb: string[]; scenario: Partial<Record<ScenarioName, string[]>> } = { ycsb: [], scenario: {} };
  for (const a of assignments) {
    const dot = a.indexOf('.');
    const prefix = dot > 0 ? a.slice(0, dot).trim() : '';
    const name = SERVED_NAMES.find((n): n is ScenarioName => n !== 'ycsb' && n === prefix);
    if (name !== undefined) (out.scenario[name] ??= []).push(a.slice(dot + 1));
    else out.ycsb.push(a);
  }
  return out;
}

/** What runs on a store, YCSB first (the scenarios' dialect registries say which stores they have code for). */
export function scenarioStores(store: string): ServedName[] {
  return ['ycsb', ...scenariosOn(store).filter((name) => scenarioEntry(name).service !== undefined)];
}
