/**
 * A YCSB sweep's cells, run in this process on one open store per store: each load with every
 * thread the sweep uses, each run with its repetition's seed, the store server's CPU and memory
 * measured around it where the server is local.
 */
import { join } from 'node:path';
import { buildResult } from '../results/build.ts';
import type { Result } from '../results/schema.ts';
import { writeResult } from '../results/write.ts';
import { REPETITION_PROPERTY } from '../report/groups.ts';
import { startServerCostMeter } from '../local/server-cost.ts';
import { interrupts } from '../runner/interrupts.ts';
import { runLoadPhase, runTransactionPhase } from '../runner/phases.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import { Random } from '../workload/random.ts';
import { describeStore, openStore, type OpenStore, requestOf } from '../session/store-session.ts';
import type { StoreTargets } from '../session/store-targets.ts';
import { cellFile, planCells, SWEEP_DEFAULTS, workloadAt, type SweepCell, type SweepPlanInput } from './sweep-plan.ts';
import type { CellRun, SweepCells } from './sweep-cells.ts';

export function ycsbCells(plan: SweepPlanInput, targets: StoreTargets, outDir: string, status: boolean): SweepCells {
  const base = [...targets.settings(), ...SWEEP_DEFAULTS, ...plan.overrides];
  // Parse every workload before touching a store, so a typo fails at once.
  const first = new Map(plan.workloads.map((w) => [w, workloadAt(plan, base, w, plan.records[0]!, plan.threads[0]!)]));
  const maxThreads = Math.max(...plan.threads);
  return {
    unit: 'records',
    cells: planCells(plan, (w) => first.get(w)!.properties.insertproportion > 0),
    async open(store) {
      const open = await openStore(
        store,
        targets.urlOf(store),
        requestOf(workloadAt(plan, base, plan.workloads[0]!, plan.records[0]!, maxThreads).properties),
      );
      return {
        load: (cell) => loadCell(open, plan, base, cell, maxThreads, outDir, status),
        run: (cell) => runCell(open, plan, base, cell, outDir, status),
        close: () => open.store.close(),
      };
    },
  };
}

async function loadCell(
  open: OpenStore,
  plan: SweepPlanInput,
  base: readonly string[],
  cell: SweepCell,
  maxThreads: number,
  outDir: string,
  status: boolean,
): Promise<void> {
  // Loaded with every thread the sweep uses: the load is preparation here, not a measured cell.
  const loaded = workloadAt(plan, base, cell.workload, cell.records, maxThreads);
  const p = loaded.properties;
  const core = new CoreWorkload(p, new Random(p.seed));
  const schema = { table: core.table, fieldNames: core.fieldNames };
  await open.store.drop(schema);
  await open.store.prepare(schema);
  const outcome = await runLoadPhase({
    store: open.store,
    workload: core,
    properties: p,
    status,
    label: `[${cell.store} load ${cell.records}]`,
  });
  if (interrupts.signal !== undefined) return;
  const result = buildResult(outcome, {
    kind: 'ycsb',
    mode: 'direct',
    workloadName: `load-${cell.records}`,
    workloadFile: loaded.files.join(' '),
    properties: p,
    overrides: [...base],
    store: await describeStore(open),
  });
  writeResult(
    join(outDir, 'loads', `${cell.store}-r${cell.records}-before-${cell.id.replace(/\//g, '_')}.json`),
    result,
  );
}

async function runCell(
  open: OpenStore,
  plan: SweepPlanInput,
  base: readonly string[],
  cell: SweepCell,
  outDir: string,
  status: boolean,
): Promise<CellRun | undefined> {
  const loaded = workloadAt(plan, base, cell.workload, cell.records, cell.threads);
  const p = loaded.properties;
  // Each repetition draws other keys: the same seed would replay the same operations.
  const core = new CoreWorkload(p, new Random(p.seed + cell.repetition - 1));
  const meter = await startServerCostMeter(cell.store, open.local);
  const outcome = await runTransactionPhase({
    store: open.store,
    workload: core,
    properties: p,
    status,
    label: `[${cell.store} ${loaded.name} t${cell.threads} rep${cell.repetition}]`,
  });
  const serverCost = meter?.stop();
  // An interrupted run is no measurement of the cell: it runs again when the sweep resumes.
  if (interrupts.signal !== undefined) return undefined;
  const result = buildResult(outcome, {
    kind: 'ycsb',
    mode: 'direct',
    workloadName: loaded.name,
    workloadFile: loaded.files.join(' '),
    properties: p,
    overrides: [...base],
    store: await describeStore(open),
  });
  result.workload.properties[REPETITION_PROPERTY] = cell.repetition;
  const withCost: Result = serverCost ? { ...result, serverCost } : result;
  writeResult(join(outDir, cellFile(cell, loaded.name)), withCost);
  const line = `${cell.store} ${loaded.name} ${cell.records.toLocaleString('en-US')} records ${cell.threads} threads rep ${cell.repetition}: ${Math.round(withCost.overall.throughputOpsPerSec).toLocaleString('en-US')} ops/s`;
  return { results: [withCost], line };
}
