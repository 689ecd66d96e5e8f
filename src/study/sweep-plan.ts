/**
 * A sweep's plan: stores × workloads × record counts (a scenario's sizes) × thread counts, each
 * cell repeated, in the order it runs, and the state file that makes it resumable.
 *
 * Repetitions are interleaved rounds (docs/statistics.md, "Rounds and loads"): round r runs every
 * cell once, its stores at their record counts (the plan's units) in a fresh random order drawn
 * from the order seed and r, so drift over the sweep lands on every store in turn instead of on
 * whichever ran at the time. Each unit's turn starts from a fresh load, so no round runs on what
 * another left behind. Within a turn, the workloads that do not insert run first on that load
 * (their updates leave the record count unchanged); each run of an inserting workload (D, E: YCSB
 * inserts keys from recordcount up, so a second run would insert them again; a scenario's
 * workload its row says reseeds) gets a fresh load of its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/user-error.ts';
import { writeFileAtomic } from '../results/write.ts';
import type { Repetition } from '../results/schema.ts';
import { roundOrder } from '../compare/rounds.ts';
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
  /** Rounds: every cell runs once per round. */
  repetitions: number;
  /**
   * The seed of the rounds' orders. A sweep draws one when none is given and keeps it in its
   * state file, so a resumed sweep runs the orders it started with.
   */
  orderSeed?: number;
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
  /** The round it runs in, 1-based. */
  repetition: number;
  /** Load the record count afresh before this run. */
  freshLoad: boolean;
  /** The load it runs on: cells with the same group share one load, made before the first of them that runs. */
  loadGroup: string;
  /** Its place in its round, as its results record it. */
  place: Repetition;
}

export function cellId(c: Pick<SweepCell, 'store' | 'workload' | 'records' | 'threads' | 'repetition'>): string {
  return `${c.store}/${c.workload}/${c.records}/${c.threads}/${c.repetition}`;
}

export function cellFile(c: SweepCell, workloadName: string): string {
  return `${c.store}-${workloadName}-r${c.records}-t${c.threads}-rep${c.repetition}.json`;
}

/** A store at one record count: what a round shuffles. */
interface Unit {
  store: string;
  records: number;
  /** Its name in a round's order: the store, or `store/records` when the sweep has several record counts. */
  label: string;
}

/** The plan's units that run something (a store whose workloads are all left out has none). */
function unitsOf(plan: SweepPlanInput): Unit[] {
  return plan.stores
    .filter((store) => plan.workloads.some((w) => runsOn(plan, store, w)))
    .flatMap((store) =>
      plan.records.map((records) => ({
        store,
        records,
        label: plan.records.length > 1 ? `${store}/${records}` : store,
      })),
    );
}

/**
 * The cells in the order they run: round after round, each round every unit once in its own
 * seeded random order (`plan.orderSeed`, 0 when absent: an estimate needs no particular order;
 * a single round keeps the order given), each unit's cells on a fresh load. `inserts(workload)`
 * says whether a workload inserts records.
 */
export function planCells(plan: SweepPlanInput, inserts: (workload: string) => boolean): SweepCell[] {
  const cells: SweepCell[] = [];
  const steady = plan.workloads.filter((w) => !inserts(w));
  const inserting = plan.workloads.filter((w) => inserts(w));
  const units = unitsOf(plan);
  const seed = plan.orderSeed ?? 0;
  for (let repetition = 1; repetition <= plan.repetitions; repetition++) {
    // One round runs the stores in the order given, as a sweep always did; rounds shuffle them.
    const order = plan.repetitions === 1 ? units : roundOrder(units, seed, repetition);
    const labels = order.map((u) => u.label);
    for (const [index, { store, records, label }] of order.entries()) {
      let loads = 0;
      for (const workload of [...steady, ...inserting]) {
        if (!runsOn(plan, store, workload)) continue;
        for (const threads of plan.threads) {
          const freshLoad = loads === 0 || plan.reload || inserts(workload);
          if (freshLoad) loads += 1;
          cells.push({
            id: cellId({ store, workload, records, threads, repetition }),
            store,
            workload,
            records,
            threads,
            repetition,
            freshLoad,
            loadGroup: `${label}/round${repetition}/load${loads}`,
            place: { round: repetition, rounds: plan.repetitions, position: index + 1, order: labels, seed },
          });
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
  const { repetitions: givenRepetitions, orderSeed: _given, ...given } = plan;
  const { repetitions: savedRepetitions, orderSeed: _saved, ...saved } = state.plan ?? ({} as SweepPlanInput);
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

/**
 * The order seed a sweep in `dir` started with (undefined: no sweep there yet, or one from before
 * rounds); a different `--order-seed` for it is refused, as its rounds so far ran in its orders.
 */
export function savedOrderSeed(dir: string, given: number | undefined): number | undefined {
  const path = join(dir, STATE_FILE);
  if (!existsSync(path)) return undefined;
  let saved: unknown;
  try {
    saved = (JSON.parse(readFileSync(path, 'utf8')) as Partial<SweepState>).plan?.orderSeed;
  } catch {
    return undefined; // readState says what is wrong with the file
  }
  if (typeof saved !== 'number') return undefined;
  if (given !== undefined && given !== saved)
    throw new SweepError(
      `--order-seed ${given}: ${dir} holds a sweep started with --order-seed ${saved}; leave --order-seed out to resume it, or use another --out-dir`,
    );
  return saved;
}

export function writeState(dir: string, plan: SweepPlanInput, done: ReadonlySet<string>): void {
  writeFileAtomic(join(dir, STATE_FILE), `${JSON.stringify({ plan, done: [...done] }, null, 2)}\n`);
}
