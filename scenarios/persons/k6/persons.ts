/**
 * The persons scenario through docbench serve — the thesis's five queries (Q1 salary range, Q2
 * and age, Q3 and a fax, Q4 and a penguin, Q5 and a Jedi power), each answer checked against
 * the oracle.
 *
 * Needs a seeded dataset and a service told its size: `docbench seed persons --store mongodb
 * --size 5000 [--nested]`, then `docbench serve --store mongodb -p persons.size=5000`; or
 * `docbench k6 persons --store mongodb --size 5000 [--nested]`, which does both.
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …), NESTED
 * (true: the nested documents) and VARIANT (the store's way of running the queries): see k6/README.md.
 */
import { scriptOptions } from '../../../k6/lib/options.ts';
import { scriptSettings } from '../../../k6/lib/scripts.ts';
import { definePersonsOperations, PERSONS_ROWS, runPersons, setupPersons, type PersonsSetup } from './lib.ts';
import { teardownRun } from '../../../k6/lib/service.ts';
import { summarize, type SummaryData } from '../../../k6/lib/summary.ts';

const settings = scriptSettings();
definePersonsOperations();

export const options = { ...scriptOptions(settings, 'persons', PERSONS_ROWS), setupTimeout: '10m' };

export function setup(): PersonsSetup {
  return setupPersons(settings, __ENV);
}

export default function (data: PersonsSetup): void {
  runPersons(settings, data);
}

export function teardown(data: PersonsSetup): void {
  teardownRun(settings, data);
}

export function handleSummary(data: SummaryData): Record<string, string> | undefined {
  return summarize(data, settings);
}
