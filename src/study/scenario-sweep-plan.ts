/**
 * A scenario sweep's plan, from what the user or a study preset asked: the scenario is named
 * through the SCENARIOS table (a row's name, or a scenario file's path) and its row's `sweep`
 * says what a size is, which workloads it has and which docbench commands seed and run a cell.
 * Pure: every mistake is a one-line SweepError before anything runs, and a cell's commands are
 * plain argv, so planning is tested without a store.
 */
import { join } from 'node:path';
import { scenarioEntry, scenarioName } from '../../scenarios/scenarios.ts';
import type { ScenarioSweep, SweepCellSpec } from '../../scenarios/scenario.ts';
import { SweepError, type SweepCell, type SweepPlanInput } from './sweep-plan.ts';

/** The row's sweep for `--scenario <value>`. */
export function scenarioSweepOf(scenario: string): ScenarioSweep {
  const name = scenarioName(scenario, '--scenario');
  const sweep = scenarioEntry(name).sweep;
  if (sweep === undefined) throw new SweepError(`--scenario ${scenario}: this scenario cannot be swept`);
  return sweep;
}

/** A scenario sweep as asked; undefined fields take the row's defaults. */
export interface ScenarioSweepAsk {
  scenario: string;
  stores: readonly string[];
  workloads?: readonly string[] | undefined;
  sizes?: readonly number[] | undefined;
  threads: readonly number[];
  repetitions: number;
  /** `-p` as given: the scenario's settings and store settings, passed to every command. */
  settings: readonly string[];
  reload: boolean;
}

export function scenarioPlan(ask: ScenarioSweepAsk): SweepPlanInput {
  const name = scenarioName(ask.scenario, '--scenario');
  const entry = scenarioEntry(name);
  const sweep = scenarioSweepOf(ask.scenario);
  const runsOn = entry.stores() as readonly string[];
  for (const store of ask.stores) {
    if (!runsOn.includes(store))
      throw new SweepError(`--stores: the ${name} scenario runs on ${runsOn.join(', ')}; got "${store}"`);
  }
  const known = sweep.workloads(ask.scenario);
  if (ask.workloads !== undefined && known.fixed)
    throw new SweepError(
      `--workloads: the ${name} scenario has one workload (${known.names.join(', ')}); leave --workloads out`,
    );
  for (const w of ask.workloads ?? []) {
    if (!known.names.includes(w))
      throw new SweepError(`--workloads: unknown ${name} workload "${w}"; expected one of ${known.names.join(', ')}`);
  }
  if (ask.sizes !== undefined && sweep.size === undefined)
    throw new SweepError(
      `--sizes: a ${name} scenario's size is its own (${name === 'file' ? "each collection's count in the file" : 'fixed'}); leave --sizes out`,
    );
  for (const setting of ask.settings) {
    const key = setting.slice(0, Math.max(0, setting.indexOf('='))).trim();
    if (sweep.perCell.includes(key))
      throw new SweepError(
        `-p ${key}: a sweep sets it per cell; use ${key === 'threadcount' ? '--threads' : '--sizes'}`,
      );
  }
  return {
    stores: [...ask.stores],
    scenario: ask.scenario,
    workloads: [...(ask.workloads ?? known.defaults)],
    // A scenario without sizes has one: its own, recorded as 0.
    records: sweep.size === undefined ? [0] : [...(ask.sizes ?? sweep.size.defaults)],
    threads: [...ask.threads],
    repetitions: ask.repetitions,
    extraFiles: [],
    overrides: [...ask.settings],
    reload: ask.reload,
  };
}

/** What a size counts in this plan's summary lines. */
export function sizeUnit(sweep: ScenarioSweep): string {
  return sweep.size?.unit ?? 'documents';
}

/** A cell's folder: the run command writes its results and its own report there. */
export function cellDir(cell: SweepCell): string {
  return join('cells', `${cell.store}-${cell.workload}-s${cell.records}-t${cell.threads}-rep${cell.repetition}`);
}

/** Where the seed before a cell writes its load result. */
export function seedFile(cell: SweepCell): string {
  return join('loads', `${cell.store}-s${cell.records}-before-${cell.id.replace(/\//g, '_')}.json`);
}

function specOf(plan: SweepPlanInput, cell: SweepCell, threads: number): SweepCellSpec {
  return {
    scenario: plan.scenario!,
    store: cell.store,
    workload: cell.workload,
    size: cell.records,
    threads,
    settings: plan.overrides,
  };
}

/**
 * The command that seeds the cell's store and size afresh, with the sweep's largest thread
 * count (loading is preparation, not a measured cell); undefined when the row has no seed (each
 * run seeds its own). With the store's target, `-q` and its result file below `outDir`.
 */
export function seedCommand(
  plan: SweepPlanInput,
  sweep: ScenarioSweep,
  cell: SweepCell,
  target: readonly string[],
  outDir: string,
  quiet = true,
): string[] | undefined {
  if (sweep.seed === undefined) return undefined;
  return [
    ...sweep.seed(specOf(plan, cell, Math.max(...plan.threads))),
    ...target,
    ...(quiet ? ['-q'] : []),
    '--out',
    join(outDir, seedFile(cell)),
  ];
}

/** The command of one run, with the store's target, `-q` (unless the sweep shows status lines) and its folder below `outDir`. */
export function runCommand(
  plan: SweepPlanInput,
  sweep: ScenarioSweep,
  cell: SweepCell,
  target: readonly string[],
  outDir: string,
  quiet = true,
): string[] {
  return [
    ...sweep.run(specOf(plan, cell, cell.threads)),
    ...target,
    ...(quiet ? ['-q'] : []),
    '--out-dir',
    join(outDir, cellDir(cell)),
  ];
}

/**
 * What a run of a scenario without sizes worked on, for the summary's size column: the documents
 * its collections were seeded with (`collection.<name>` properties), not what the store holds
 * (other data may share it).
 */
export function ownSize(properties: Readonly<Record<string, unknown>>): number | undefined {
  const counts = Object.entries(properties).filter(
    ([key, value]) => key.startsWith('collection.') && typeof value === 'number',
  );
  return counts.length === 0 ? undefined : counts.reduce((sum, [, value]) => sum + (value as number), 0);
}

/** The `docbench sweep` command that runs this plan (a study's plan says what each step runs). */
export function sweepCommandOf(plan: SweepPlanInput): string[] {
  const sweep = scenarioSweepOf(plan.scenario!);
  const fixed = sweep.workloads(plan.scenario!).fixed === true;
  return [
    'sweep',
    '--scenario',
    plan.scenario!,
    '--stores',
    plan.stores.join(','),
    ...(fixed ? [] : ['--workloads', plan.workloads.join(',')]),
    ...(sweep.size === undefined ? [] : ['--sizes', plan.records.join(',')]),
    '--threads',
    plan.threads.join(','),
    '--repetitions',
    String(plan.repetitions),
    ...(plan.orderSeed !== undefined ? ['--order-seed', String(plan.orderSeed)] : []),
    ...(plan.reload ? ['--reload'] : []),
    ...plan.overrides.flatMap((o) => ['-p', o]),
  ];
}
