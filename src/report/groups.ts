import { storeWithProduct } from '../results/product.ts';
import type { Result } from '../results/schema.ts';

/**
 * How a report names and groups results. A stand-in or a compatible product (FerretDB behind
 * `--store mongodb`) is named as such in every label, so no chart, table or legend can show its
 * figures as the product's, and its results never share a cell with the product's.
 */
export function storeLabel(r: Result): string {
  return storeWithProduct(r.store);
}

/** A store in a mode: `redis`, `redis end to end`. */
export function seriesLabel(r: Result): string {
  return r.mode === 'http' ? `${storeLabel(r)} end to end` : storeLabel(r);
}

/** The workload and the scenario variants that change what it measures. */
export function workloadLabel(r: Result): string {
  const variants = Object.entries(r.workload.properties)
    // Short variant names only (`lookup`, `offset`): some scenarios describe a variant in a sentence.
    .filter(([key, value]) => key.startsWith('variant.') && typeof value === 'string' && /^[\w-]{1,24}$/.test(value))
    .map(([, value]) => String(value));
  const base =
    r.kind === 'ycsb'
      ? r.workload.name
      : r.workload.name.startsWith(r.kind)
        ? r.workload.name
        : `${r.kind} ${r.workload.name}`;
  return [base, ...variants].join(' ');
}

function numberProperty(r: Result, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = r.workload.properties[key];
    if (typeof value === 'number') return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  }
  return undefined;
}

/** Records the run worked on: YCSB's recordcount, a scenario's dataset size. */
export function recordsOf(r: Result): number | undefined {
  return numberProperty(r, 'recordcount', 'size', 'customers') ?? r.store.recordCount;
}

/** Concurrent workers (YCSB threadcount; k6 VUs). */
export function threadsOf(r: Result): number | undefined {
  return numberProperty(r, 'threadcount', 'threads', 'vus', 'concurrency');
}

/** Operations per second the run was held to (YCSB target), when it was held to one. */
export function targetOf(r: Result): number | undefined {
  const target = numberProperty(r, 'target');
  return target !== undefined && target > 0 ? target : undefined;
}

/** The property a sweep records each run's repetition number in (1, 2, …). */
export const REPETITION_PROPERTY = 'sweep.repetition';

/**
 * The repetition a result came from, when it came from one: the round of an interleaved design
 * (`result.repetition`), else the sweep's repetition property (results written before rounds).
 */
export function repetitionOf(r: Result): number | undefined {
  return r.repetition?.round ?? numberProperty(r, REPETITION_PROPERTY);
}

/**
 * One cell of a comparison: the same thing measured, possibly repeated. Everything that names
 * what was measured is in its key (phase, kind and workload with its variants, store, stand-in
 * and mode, records, threads, target rate); the repetition is not.
 */
export interface Cell {
  key: string;
  phase: Result['phase'];
  workload: string;
  series: string;
  records: number | undefined;
  threads: number | undefined;
  target: number | undefined;
  runs: Result[];
}

export function cellKey(r: Result): string {
  const key: (string | number | null)[] = [
    r.phase,
    workloadLabel(r),
    seriesLabel(r),
    recordsOf(r) ?? null,
    threadsOf(r) ?? null,
  ];
  const target = targetOf(r);
  if (target !== undefined) key.push(target);
  return JSON.stringify(key);
}

/** Results grouped into cells, in the order their first result came. */
export function cellsOf(results: readonly Result[]): Cell[] {
  const cells = new Map<string, Cell>();
  for (const r of results) {
    const key = cellKey(r);
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        key,
        phase: r.phase,
        workload: workloadLabel(r),
        series: seriesLabel(r),
        records: recordsOf(r),
        threads: threadsOf(r),
        target: targetOf(r),
        runs: [],
      };
      cells.set(key, cell);
    }
    cell.runs.push(r);
  }
  return [...cells.values()];
}

/**
 * Median (the middle value; the mean of the two middle ones), mean and range of repeated
 * measurements: docbench shows the median, a study shows the statistic its paper used.
 */
export interface Spread {
  median: number;
  mean: number;
  min: number;
  max: number;
  n: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: 0, mean: 0, min: 0, max: 0, n: 0 };
  const middle = Math.floor(n / 2);
  const median = n % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / n;
  return { median, mean, min: sorted[0]!, max: sorted[n - 1]!, n };
}

export function throughputOf(cell: Cell): Spread {
  return spreadOf(cell.runs.map((r) => r.overall.throughputOpsPerSec));
}

export function runtimeSecondsOf(cell: Cell): Spread {
  return spreadOf(cell.runs.map((r) => r.overall.runtimeMs / 1000));
}

/** Distinct values in first-seen order. */
export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}
