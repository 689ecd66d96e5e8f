/**
 * The docbench commands that run what a study step runs, as a user would type them: a scenario
 * step is `docbench sweep --scenario …`, a YCSB step `docbench sweep …` (one per record count
 * where the step's operations are a share of its records: the sweep command takes one
 * `-p operationcount`). A store whose stand-in leaves some workloads out gets a command of its
 * own without them, so the commands run exactly the step's cells.
 */
import type { StudyStep } from './preset.ts';
import { sweepCommandOf } from './scenario-sweep-plan.ts';
import { runsOn, type SweepPlanInput } from './sweep-plan.ts';

/** The plan's stores grouped by the workloads each runs (stores that run none left out). */
function storeGroups(plan: SweepPlanInput): { stores: string[]; workloads: string[] }[] {
  const groups = new Map<string, { stores: string[]; workloads: string[] }>();
  for (const store of plan.stores) {
    const workloads = plan.workloads.filter((w) => runsOn(plan, store, w));
    if (workloads.length === 0) continue;
    const key = workloads.join(',');
    const group = groups.get(key) ?? { stores: [], workloads };
    group.stores.push(store);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function ycsbCommands(plan: SweepPlanInput, stores: string[], workloads: string[]): string[][] {
  const common = (records: readonly number[], operations: string[]) => [
    'sweep',
    '--stores',
    stores.join(','),
    '--workloads',
    workloads.join(','),
    '--records',
    records.join(','),
    '--threads',
    plan.threads.join(','),
    '--repetitions',
    String(plan.repetitions),
    ...(plan.orderSeed !== undefined ? ['--order-seed', String(plan.orderSeed)] : []),
    ...plan.extraFiles.flatMap((f) => ['-P', f]),
    ...[...plan.overrides, ...operations].flatMap((o) => ['-p', o]),
    ...(plan.reload ? ['--reload'] : []),
  ];
  const share = plan.operationsPerRecord;
  if (share === undefined) return [common(plan.records, [])];
  return plan.records.map((n) => common([n], [`operationcount=${Math.max(1, Math.round(n * share))}`]));
}

/** The step's commands (argv after `docbench`); none when a stand-in leaves every cell out. */
export function stepCommands(step: StudyStep): string[][] {
  const plan = step.plan;
  return storeGroups(plan).flatMap(({ stores, workloads }) =>
    step.kind === 'scenario'
      ? [sweepCommandOf({ ...plan, stores, workloads, leaveOut: [] })]
      : ycsbCommands(plan, stores, workloads),
  );
}
