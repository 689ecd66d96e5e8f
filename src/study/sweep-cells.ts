/**
 * What runs a sweep's cells, whatever they run: YCSB's workloads in this process
 * (sweep-ycsb.ts), a scenario's as its own docbench commands (sweep-scenario.ts). The sweep
 * (sweep-run.ts) owns the order, the state file, the progress and the summary; these own a cell.
 */
import { REPETITION_PROPERTY } from '../report/groups.ts';
import type { Result } from '../results/schema.ts';
import type { SweepCell } from './sweep-plan.ts';

/**
 * The result with its round and its place in the round (a sweep of more than one round), and
 * the repetition property results written before rounds carried (kept: older readers group by it).
 */
export function stampRound(result: Result, cell: SweepCell): Result {
  result.workload.properties[REPETITION_PROPERTY] = cell.repetition;
  return cell.place.rounds > 1 ? { ...result, repetition: cell.place } : result;
}

/** A cell's run: its results (written), and its line of the progress. */
export interface CellRun {
  results: Result[];
  line: string;
}

/** One store's cells. Both calls leave nothing of an interrupted cell behind, so it runs again on a resume. */
export interface StoreCells {
  /** Load (seed) the cell's size afresh, before it runs. */
  load(cell: SweepCell): Promise<void>;
  /** Run the cell and write its results; undefined when it was interrupted. */
  run(cell: SweepCell): Promise<CellRun | undefined>;
  close(): Promise<void>;
}

export interface SweepCells {
  /** What a size counts, as the summary's column names it: records, customers, documents, scale. */
  unit: string;
  /** Every cell, in the order they run. */
  cells: SweepCell[];
  open(store: string): Promise<StoreCells>;
}
