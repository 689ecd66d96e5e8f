/**
 * A YCSB sweep's cells, run in this process on one open store per store: each load with every
 * thread the sweep uses, each run with its round's seed, the store server's CPU and memory
 * measured around it where the server is local; each result stamped with its round.
 */
import { join } from 'node:path';
import { writeResult } from '../results/write.ts';
import { interrupts } from '../common/interrupts.ts';
import { YcsbClient } from '../client/ycsb-client.ts';
import type { StoreTargets } from '../session/store-targets.ts';
import { cellFile, planCells, SWEEP_DEFAULTS, workloadAt, type SweepCell, type SweepPlanInput } from './sweep-plan.ts';
import { stampRound, type CellRun, type SweepCells } from './sweep-cells.ts';
export function ycsbCells(plan: SweepPlanInput, targets: StoreTargets, outDir: string, status: boolean): SweepCells {
  const base = [...targets.settings(), ...SWEEP_DEFAULTS, ...plan.overrides];
  // Parse every workload before touching a store, so a typo fails at once.
  const first = new Map(plan.workloads.map((w) => [w, workloadAt(plan, base, w, plan.records[0]!, plan.threads[0]!)]));
  const maxThreads = Math.max(...plan.threads);
  return {
    unit: 'records',
    cells: planCells(plan, (w) => first.get(w)!.properties.insertproportion > 0),
    async open(store) {
      // The cells run on this event loop, on one connection pool sized for the most threads.
      const client = await YcsbClient.open({
        store,
        url: targets.urlOf(store),
        properties: workloadAt(plan, base, plan.workloads[0]!, plan.records[0]!, maxThreads).properties,
        localStores: [],
        workerProcesses: false,
      });
      return {
        load: (cell) => loadCell(client, plan, base, cell, maxThreads, outDir, status),
        run: (cell) => runCell(client, plan, base, cell, outDir, status),
        close: () => client.close(),
      };
    },
  };
}

async function loadCell(
  client: YcsbClient,
  plan: SweepPlanInput,
  base: readonly string[],
  cell: SweepCell,
  maxThreads: number,
  outDir: string,
  status: boolean,
): Promise<void> {
  // Loaded with every thread the sweep uses: the load is preparation here, not a measured cell.
  const loaded = workloadAt(plan, base, cell.workload, cell.records, maxThreads);
  const { result } = await client.load({
    workload: loaded,
    label: `[${cell.store} load ${cell.records}]`,
    status,
    overrides: [...base],
    name: `load-${cell.records}`,
    table: 'fresh',
  });
  if (interrupts.signal !== undefined) return;
  writeResult(
    join(outDir, 'loads', `${cell.store}-r${cell.records}-before-${cell.id.replace(/\//g, '_')}.json`),
    cell.place.rounds > 1 ? { ...result, repetition: cell.place } : result,
  );
}

async function runCell(
  client: YcsbClient,
  plan: SweepPlanInput,
  base: readonly string[],
  cell: SweepCell,
  outDir: string,
  status: boolean,
): Promise<CellRun | undefined> {
  const loaded = workloadAt(plan, base, cell.workload, cell.records, cell.threads);
  const { result } = await client.run({
    workload: loaded,
    label: `[${cell.store} ${loaded.name} t${cell.threads} rep${cell.repetition}]`,
    status,
    overrides: [...base],
    // Each round draws other keys: the same seed would replay the same operations.
    seedOffset: cell.repetition - 1,
    serverCost: true,
  });
  // An interrupted run is no measurement of the cell: it runs again when the sweep resumes.
  if (interrupts.signal !== undefined) return undefined;
  const stamped = stampRound(result, cell);
  writeResult(join(outDir, cellFile(cell, loaded.name)), stamped);
  const line = `${cell.store} ${loaded.name} ${cell.records.toLocaleString('en-US')} records ${cell.threads} threads rep ${cell.repetition}: ${Math.round(result.overall.throughputOpsPerSec).toLocaleString('en-US')} ops/s`;
  return { results: [stamped], line };
}
