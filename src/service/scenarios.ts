/**
 * The scenarios the service can serve, each a set of routes over the same store connection:
 *
 *   ycsb       GET/PUT/DELETE /usertable/:key, POST /usertable, GET /usertable?start=&count=
 *   ecommerce  GET /customers?country=&offset=&limit=, GET /reports/sales?zip=&month=
 *   persons    GET /persons?q=1..5&nested=
 *
 * (`usertable` is the YCSB workload's `table`.) A scenario's routes exist only on the stores its
 * scenario code supports; scenario settings come as `-p <scenario>.<key>=value`.
 */
import { ECOMMERCE_DIALECTS } from '../../scenarios/ecommerce/dialects.ts';
import { PERSONS_DIALECTS } from '../../scenarios/persons/dialects.ts';

export const SCENARIOS = ['ycsb', 'ecommerce', 'persons'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** Split `-p` assignments: `ecommerce.maxlimit=50` -> the scenario's own (`maxlimit=50`); the rest is YCSB's and the stores'. */
export function splitScenarioSettings(assignments: readonly string[]): { ycsb: string[]; scenario: Record<Exclude<ScenarioName, 'ycsb'>, string[]> } {
  const out = { ycsb: [] as string[], scenario: { ecommerce: [] as string[], persons: [] as string[] } };
  for (const a of assignments) {
    const match = /^\s*(ecommerce|persons)\.(.*)$/s.exec(a);
    if (match) out.scenario[match[1] as 'ecommerce' | 'persons'].push(match[2]!);
    else out.ycsb.push(a);
  }
  return out;
}

/** The scenarios that run on a store, YCSB first (the scenarios' own modules say which stores they have code for). */
export function scenarioStores(store: string): ScenarioName[] {
  const names: ScenarioName[] = ['ycsb'];
  if (ECOMMERCE_DIALECTS.runsOn(store)) names.push('ecommerce');
  if (PERSONS_DIALECTS.runsOn(store)) names.push('persons');
  return names;
}
