/**
 * The one list of scenarios, as STORES (src/stores/stores.ts) is the one list of stores. The
 * CLI's scenario commands and `--scenario` choices, the service's routes and settings prefixes,
 * and the k6 scripts `docbench k6` knows are all derived from this table.
 *
 * Adding a scenario: its folder `scenarios/<name>/` (model, generator, oracle, dialects.ts and one
 * dialect per store under stores/, cli.ts exporting `commands`, service.ts exporting `service`
 * if it has routes, sweep.ts if it can be swept, its k6 scripts if any) and one row here.
 * Everything a row names is imported lazily, but for its light modules (dialects.ts: its
 * stores; sweep.ts: how a sweep runs it): listing the scenarios (building the CLI, `--help`)
 * loads no generator and no driver.
 *
 * YCSB's core workloads are no row: they are the engine's own (src/workload/).
 */
import { didYouMean } from '../src/common/suggest.ts';
import { UsageError } from '../src/common/user-error.ts';
import { ECOMMERCE_DIALECTS } from './ecommerce/dialects.ts';
import { ECOMMERCE_SWEEP } from './ecommerce/sweep.ts';
import { FILE_DIALECTS } from './file/dialects.ts';
import { FILE_SWEEP } from './file/sweep.ts';
import { isScenarioFile } from './file/file-name.ts';
import { PERSONS_DIALECTS } from './persons/dialects.ts';
import { PERSONS_SWEEP } from './persons/sweep.ts';
import type { ScenarioEntry } from './scenario.ts';

export const SCENARIOS = {
  ecommerce: {
    summary: "Altoros 2022's e-commerce (YCSB-JSON): customers and orders, pagination, JOIN, a mix with writes",
    stores: () => ECOMMERCE_DIALECTS.stores,
    commands: () => import('./ecommerce/cli.ts'),
    service: () => import('./ecommerce/service.ts'),
    k6Scripts: { pagination: 'scenarios/ecommerce/k6/pagination.ts', join: 'scenarios/ecommerce/k6/join.ts' },
    sweep: ECOMMERCE_SWEEP,
  },
  persons: {
    summary: "Henricsson 2011's persons: insert time, size on disk, five queries",
    stores: () => PERSONS_DIALECTS.stores,
    commands: () => import('./persons/cli.ts'),
    service: () => import('./persons/service.ts'),
    k6Scripts: { persons: 'scenarios/persons/k6/persons.ts' },
    sweep: PERSONS_SWEEP,
  },
  file: {
    summary:
      "your own scenario from a YAML or JSON file: collections, indexes, queries in MongoDB's query language, writes, a mix",
    stores: () => FILE_DIALECTS.stores,
    commands: () => import('./file/cli.ts'),
    service: () => import('./file/service.ts'),
    k6Scripts: { scenario: 'scenarios/file/k6/scenario.ts' },
    isFile: isScenarioFile,
    sweep: FILE_SWEEP,
  },
} as const satisfies Record<string, ScenarioEntry>;

export type ScenarioName = keyof typeof SCENARIOS;

/** Every scenario, in the table's order. */
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

export function isScenarioName(name: string): name is ScenarioName {
  return Object.hasOwn(SCENARIOS, name);
}

export function scenarioEntry(name: ScenarioName): ScenarioEntry {
  return SCENARIOS[name];
}

/** The scenario a value names: a row's name, or the row whose files it names (a scenario file's path); undefined for neither. */
export function scenarioOf(value: string): ScenarioName | undefined {
  if (isScenarioName(value)) return value;
  return SCENARIO_NAMES.find((name) => scenarioEntry(name).isFile?.(value));
}

/** A scenario named by the user, checked. */
export function scenarioName(value: string, where = '--scenario', also: readonly string[] = []): ScenarioName {
  const name = scenarioOf(value);
  if (name !== undefined) return name;
  const known = [...also, ...SCENARIO_NAMES.filter((n) => scenarioEntry(n).isFile === undefined)];
  throw new UsageError(
    `${where}: unknown scenario "${value}"${didYouMean(value, known)}; expected one of ${known.join(', ')}, or a scenario file (.yaml, .yml, .json)`,
  );
}

/** The scenarios that run on a store, in the table's order. */
export function scenariosOn(store: string): ScenarioName[] {
  return SCENARIO_NAMES.filter((name) => (scenarioEntry(name).stores() as readonly string[]).includes(store));
}

/** The scenario whose shipped k6 script this is (by its path from the repository root), with the script's name. */
export function scenarioOfScript(path: string): { scenario: ScenarioName; script: string } | undefined {
  for (const scenario of SCENARIO_NAMES) {
    for (const [script, file] of Object.entries(scenarioEntry(scenario).k6Scripts ?? {}))
      if (path === file) return { scenario, script };
  }
  return undefined;
}
