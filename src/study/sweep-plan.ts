/**
 * A sweep's plan: stores × workloads × record counts (a scenario's sizes) × thread counts, each
 * cell repeated, in the order it runs, and the state file that makes it resumable. Order: per
 * store and record count, the workloads that do not insert run first on one load (their updates
 * leave the record count unchanged); each run of an inserting workload (D, E: YCSB inserts keys
 * from recordcount up, so a second run would insert them again; a scenario's workload its row
 * says reseeds) gets a fresh load of its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/user-error.ts';
import { writeFileAtomic } from '../results/write.ts';
import { loadWorkload, type LoadedWorkload } from '../workload/workload-file.ts';

export class SweepError extends UserError {}

export interface SweepPlanInput {
  stores: string[];
  /**
   * A scenario (a SCENARIOS row's name, or a scenario file's path) instead of YCSB: its row says
   * what a size is and which commands seed and run a cell. Absent: YCSB's workloads.
   */
  scenario?: string;
  /** Workload names as given (a … h, workloada, or file paths; a scenario's own workload names). */
  workloads: string[];
  /** Record counts; for a scenario, its sizes in its row's unit (customers, documents; a scenario without sizes: 0). */
  records: number[];
  threads: number[];
  repetitions: number;
  /** Extra -P files applied after each workload file (e.g. record-10kb). */
  extraFiles: string[];
  /** -p overrides applied to every cell (after the defaults). */
  overrides: string[];
  /** Reload before every run, inserting or not. */
  reload: boolean;
  /** operationcount as a share of the record count (Tang & Fan 2016: 10%), instead of a fixed -p operationcount. */
  operationsPerRecord?: number;
  /**
   * Workloads a store does not run here (a study leaves out what a local stand-in cannot do);
   * kept in the state file, so a resume leaves out the same.
   */
  leaveOut?: LeftOutCells[];
}

/** A store's workloads left out of a sweep. */
export interface LeftOutCells {
  store: string;
  workloads: string[];
}

/** Whether the plan runs this workload on this store. */
export function runsOn(plan: SweepPlanInput, store: string, workload: string): boolean {
  return !(plan.leaveOut ?? []).some((l) => l.store === store && l.workloads.includes(workload));
}

// Kept in a module of its own: the CLI's help text shows them without loading the sweep.
export { SWEEP_DEFAULTS } from './sweep-defaults.ts';

/** A workload at one record count and thread count, on top of `base` (-p defaults and overrides). */
export function workloadAt(
  plan: SweepPlanInput,
  base: readonly string[],
  workload: string,
  records: number,
  threads: number,
): LoadedWorkload {
  const operations =
    plan.operationsPerRecord !== undefined
      ? [`operationcount=${Math.max(1, Math.round(records * plan.operationsPerRecord))}`]
      : [];
  return loadWorkload(
    [workload, ...plan.extraFiles],
    [...base, `recordcount=${records}`, `threadcount=${threads}`, ...operations],
  );
}

export interface SweepCell {
  /** Stable id, the key of the state file: store/workload/records/threads/repetition. */
  id: string;
  store: string;
  workload: string;
  records: number;
  threads: number;
  repetition: number;
  /** Load the record count afresh before this run. */
  freshLoad: boolean;
}

export function cellId(c: Pick<SweepCell, 'store' | 'workload' | 'records' | 'threads' | 'repetition'>): string {
  return `${c.store}/${c.workload}/${c.records}/${c.threads}/${c.repetition}`;
}

export function cellFile(c: SweepCell, workloadName: string): string {
  return `${c.store}-${workloadName}-r${c.records}-t${c.threads}-rep${c.repetition}.json`;
}

/** The cells in the order they run. `inserts(workload)` says whether a workload inserts records. */
export function planCells(plan: SweepPlanInput, inserts: (workload: string) => boolean): SweepCell[] {
  const cells: SweepCell[] = [];
  const steady = plan.workloads.filter((w) => !inserts(w));
  const inserting = plan.workloads.filter((w) => inserts(w));
  for (const store of plan.stores) {
    for (const records of plan.records) {
      let loaded = false;
      for (const workload of [...steady, ...inserting]) {
        if (!runsOn(plan, store, workload)) continue;
        for (const threads of plan.threads) {
          for (let repetition = 1; repetition <= plan.repetitions; repetition++) {
            const freshLoad = !loaded || plan.reload || inserts(workload);
            loaded = true;
            cells.push({
              id: cellId({ store, workload, records, threads, repetition }),
              store,
              workload,
              records,
              threads,
              repetition,
              freshLoad,
            });
          }
        }
      }
    }
  }
  return cells;
}

/** What a sweep folder remembers: its plan (so a resume runs the same sweep) and the cells done. */
export interface SweepState {
  plan: SweepPlanInput;
  done: string[];
}

export const STATE_FILE = 'sweep-state.json';

/**
 * The cells already done in `dir` by the same sweep; a folder holding a different sweep is
 * refused (resuming it with other settings would mix incomparable runs).
 */
export function readState(dir: string, plan: SweepPlanInput): Set<string> {
  const path = join(dir, STATE_FILE);
  if (!existsSync(path)) return new Set();
  let state: SweepState;
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as SweepState;
  } catch (error) {
    throw new SweepError(`${path}: not a sweep state file (${(error as Error).message})`);
  }
  const { repetitions: givenRepetitions, ...given } = plan;
  const { repetitions: savedRepetitions, ...saved } = state.plan ?? ({} as SweepPlanInput);
  // More repetitions extend a finished sweep; anything else is a different sweep.
  if (JSON.stringify(given) !== JSON.stringify(saved)) {
    throw new SweepError(
      `--out-dir ${dir} holds a different sweep (${STATE_FILE}); use another --out-dir, or repeat the same stores, workloads, records, threads and -p to resume it`,
    );
  }
  if (givenRepetitions < savedRepetitions)
    process.stderr.write(
      `sweep: ${dir} was planned with ${savedRepetitions} repetitions; running ${givenRepetitions}\n`,
    );
  return new Set(state.done);
}

export function writeState(dir: string, plan: SweepPlanInput, done: ReadonlySet<string>): void {
  writeFileAtomic(join(dir, STATE_FILE), `${JSON.stringify({ plan, done: [...done] }, null, 2)}\n`);
}
