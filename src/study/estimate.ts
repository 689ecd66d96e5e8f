/**
 * What a study's steps would cost before anything runs: how many runs, how much data the stores
 * hold at once, and the time at stated, assumed rates. The rates are assumptions, not
 * measurements: a real store on real hardware differs, by ten times either way; where a run has a
 * time cap, its cap bounds it whatever the rate. Used by `--plan` and to refuse `--scale full`
 * when the paper's data cannot fit on this machine's disk.
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { cacheDir } from '../local/paths.ts';
import type { StudyStep } from './preset.ts';
import { planCells, runsOn, SWEEP_DEFAULTS, workloadAt } from './sweep-plan.ts';

/** The rates the time estimate assumes (an order of magnitude for one node, not a measurement). */
export const ASSUMED_RATES = {
  loadRecordsPerSecond: 2_000,
  operationsPerSecond: 1_000,
  scansPerSecond: 100,
  /** Documents an ad-hoc query without an index reads per second (the persons queries). */
  documentsScannedPerSecond: 50_000,
} as const;

/** A YCSB record's key and the store's per-record bookkeeping, beside its fields. */
const KEY_BYTES = 32;

export interface Estimate {
  /** Timed runs (sweep cells; scenario steps count one per store and thread count). */
  runs: number;
  /** Records loaded in all. */
  loaded: number;
  /** The data the stores hold at the largest point: what the disk must have room for (raw, before each store's overhead). */
  diskBytes: number;
  /** Seconds at the assumed rates, caps applied. */
  seconds: number;
}

/** The cost of one step (a YCSB sweep from its plan; a scenario sweep from what its preset said), cells left out costing nothing. */
export function estimateStep(step: StudyStep): Estimate {
  const plan = step.plan;
  if (step.kind === 'scenario') {
    const { records, bytesPerRecord, loaded, runSeconds, runs } = step.cost;
    // A store is seeded when it runs any of the step's workloads; each store and workload run costs its share.
    const pairs = plan.stores.map((s) => plan.workloads.filter((w) => runsOn(plan, s, w)).length);
    // The preset's cost is one round's; every round seeds and runs again.
    const seeded = pairs.filter((n) => n > 0).length * plan.repetitions;
    const ran = pairs.reduce((a, b) => a + b, 0) * plan.repetitions;
    return {
      runs: runs * ran,
      loaded: loaded * seeded,
      // Each round's seed replaces the last: the disk holds one round's data.
      diskBytes: (records * bytesPerRecord * seeded) / plan.repetitions,
      seconds: (loaded * seeded) / ASSUMED_RATES.loadRecordsPerSecond + runSeconds * ran,
    };
  }
  const base = [...SWEEP_DEFAULTS, ...plan.overrides];
  const workloads = new Map(
    plan.workloads.map((w) => [w, workloadAt(plan, base, w, plan.records[0]!, plan.threads[0]!).properties]),
  );
  const cells = planCells(plan, (w) => workloads.get(w)!.insertproportion > 0);
  let seconds = 0;
  let loaded = 0;
  for (const cell of cells) {
    const p = workloadAt(plan, base, cell.workload, cell.records, cell.threads).properties;
    if (cell.freshLoad) loaded += cell.records;
    const perOperation =
      p.scanproportion / ASSUMED_RATES.scansPerSecond + (1 - p.scanproportion) / ASSUMED_RATES.operationsPerSecond;
    const uncapped = p.operationcount * perOperation;
    seconds += p.maxexecutiontime > 0 ? Math.min(uncapped, p.maxexecutiontime) : uncapped;
  }
  const record = workloads.get(plan.workloads[0]!)!;
  const bytesPerRecord = record.fieldcount * record.fieldlength + KEY_BYTES;
  // Each store keeps its largest load until the next sweep drops it: every store's that runs, at once.
  const loadedStores = new Set(cells.map((c) => c.store)).size;
  const diskBytes = loadedStores * Math.max(...plan.records) * bytesPerRecord;
  return { runs: cells.length, loaded, diskBytes, seconds: seconds + loaded / ASSUMED_RATES.loadRecordsPerSecond };
}

/**
 * The steps together: runs, loads and time add up; the data of different datasets lives side by
 * side, and a step that reseeds a dataset replaces what was there (the larger one counts).
 */
export function estimateSteps(steps: readonly StudyStep[]): Estimate {
  const disk = new Map<string, number>();
  let total: Estimate = { runs: 0, loaded: 0, diskBytes: 0, seconds: 0 };
  for (const step of steps) {
    const e = estimateStep(step);
    const dataset = step.kind === 'scenario' ? step.cost.dataset : 'ycsb';
    disk.set(dataset, Math.max(disk.get(dataset) ?? 0, e.diskBytes));
    total = {
      runs: total.runs + e.runs,
      loaded: total.loaded + e.loaded,
      diskBytes: 0,
      seconds: total.seconds + e.seconds,
    };
  }
  return { ...total, diskBytes: [...disk.values()].reduce((a, b) => a + b, 0) };
}

/** Free bytes where docbench's local servers keep their data (undefined when it cannot tell). */
export function freeLocalDisk(): { bytes: number; where: string } | undefined {
  let where = cacheDir();
  // The cache folder may not exist yet: its nearest existing parent is on the same disk.
  while (!existsSync(where) && dirname(where) !== where) where = dirname(where);
  try {
    const s = statfsSync(where);
    return { bytes: s.bavail * s.bsize, where: cacheDir() };
  } catch {
    return undefined;
  }
}

export function bytesText(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 1 : 0 })} ${units[unit]}`;
}
