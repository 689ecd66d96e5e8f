/**
 * Two sets of results compared cell by cell (`docbench diff BASE NEW`, `report --baseline`):
 * for each cell both sides measured, each figure's ratio NEW/BASE with its 95% interval and the
 * verdict (stats/ratio.ts), and whether it is a regression: a figure shown worse by at least
 * `maxRegression`. What a CI job runs against yesterday's result.
 *
 * Cells pair by their key (store, mode, workload, records, threads, target). A cell left
 * unpaired on both sides only because its target rate changed pairs with its one counterpart,
 * the change noted on its rows: comparing a rate cap against no cap is a question a user asks.
 */
import type { Result } from '../results/schema.ts';
import { DEFAULT_MIN_EFFECT, type RatioComparison } from '../stats/ratio.ts';
import type { Summary } from '../stats/summary.ts';
import { UserError } from '../common/user-error.ts';
import {
  cellSetting,
  compareCells,
  latencyFigure,
  summarizeCell,
  type CellStatistics,
  type FigureStatistics,
} from './cell-statistics.ts';
import { cellsOf } from './groups.ts';

/** The default regression a diff fails on: a figure shown 10% worse (throughput 10% lower, a latency 10% higher). */
export const DEFAULT_MAX_REGRESSION = 0.1;

/** The percentiles a diff compares for each operation row, besides throughput. */
export const DIFF_PERCENTILES = [50, 99] as const;

/** Which figures a diff compares: `throughput` leaves the latencies out (a shared CI runner's may be too noisy to gate on). */
export type DiffFigures = 'all' | 'throughput' | 'latency';

export interface DiffOptions {
  /** The figures compared (default all: throughput, and p50 and p99 of each operation row). */
  figures?: DiffFigures;
  /** The practical threshold of a verdict, a fraction (default 0.05). */
  minEffect?: number;
  /** The worsening that fails the diff, a fraction (default 0.10). */
  maxRegression?: number;
}

export interface DiffRow {
  phase: Result['phase'];
  workload: string;
  series: string;
  /** Records, threads, target rate (NEW's). */
  setting: string;
  /** `throughput`, `READ p99`. */
  figure: string;
  unit: FigureStatistics['unit'];
  base: Summary;
  new: Summary;
  /** NEW against BASE: ratio NEW/BASE, its interval, the verdict (faster, slower, no difference, cannot tell). */
  comparison: RatioComparison;
  /** Shown worse (verdict `slower`) by at least maxRegression. */
  regression: boolean;
  /** A setting that differs between the paired cells, e.g. `target 10,000 → 5,000 ops/s`. */
  note?: string;
}

/** A cell named for a reader: `workloada on redis (1,000 records, 4 threads)`. */
export type CellName = string;

export interface DiffReport {
  minEffect: number;
  maxRegression: number;
  rows: DiffRow[];
  /** Regressions: rows with `regression`, plus cells valid in BASE with no valid run in NEW. */
  regressions: number;
  /** Cells that had valid runs in BASE and none in NEW (every run INVALID): each counts as a regression. */
  invalidInNew: CellName[];
  onlyInBase: CellName[];
  onlyInNew: CellName[];
  /** Rows where a side had a single run: no interval, no verdict. */
  cannotTell: number;
}

/** A diff whose two sides share no cell: nothing to compare is bad input, not a pass. */
export class DiffInputError extends UserError {}

export function cellName(c: CellStatistics): CellName {
  const setting = cellSetting(c);
  return `${c.phase === 'load' ? 'load ' : ''}${c.workload} on ${c.series}${setting ? ` (${setting})` : ''}`;
}

/** The run results of a side (its load results when it has no run). */
function measuredPhase(results: readonly Result[]): Result[] {
  const runs = results.filter((r) => r.phase === 'run');
  return runs.length > 0 ? runs : [...results];
}

function identity(c: CellStatistics): string {
  return JSON.stringify([c.phase, c.workload, c.series, c.records ?? null, c.threads ?? null]);
}

/** BASE and NEW cells paired: by key, then (target changed) by everything else when unique on both sides. */
function pairCells(
  base: readonly CellStatistics[],
  next: readonly CellStatistics[],
): { pairs: [CellStatistics, CellStatistics][]; onlyInBase: CellStatistics[]; onlyInNew: CellStatistics[] } {
  const byKey = new Map(next.map((c) => [c.key, c]));
  const pairs: [CellStatistics, CellStatistics][] = [];
  const leftBase: CellStatistics[] = [];
  for (const b of base) {
    const n = byKey.get(b.key);
    if (n) {
      pairs.push([b, n]);
      byKey.delete(b.key);
    } else leftBase.push(b);
  }
  const leftNew = [...byKey.values()];
  const onlyInBase: CellStatistics[] = [];
  for (const b of leftBase) {
    const same = leftBase.filter((o) => identity(o) === identity(b));
    const counterparts = leftNew.filter((o) => identity(o) === identity(b));
    if (same.length === 1 && counterparts.length === 1) {
      pairs.push([b, counterparts[0]!]);
      leftNew.splice(leftNew.indexOf(counterparts[0]!), 1);
    } else onlyInBase.push(b);
  }
  return { pairs, onlyInBase, onlyInNew: leftNew };
}

function targetNote(b: CellStatistics, n: CellStatistics): string | undefined {
  if (b.target === n.target) return undefined;
  const rate = (t: number | undefined) => (t === undefined ? 'none' : `${t.toLocaleString('en-US')} ops/s`);
  return `target ${rate(b.target)} → ${rate(n.target)}`;
}

/** The figures a diff compares: throughput, and p50 and p99 of each main operation row. */
function diffFigures(cell: CellStatistics, which: DiffFigures): string[] {
  const rows = new Set(cell.latency.map((f) => f.row!));
  const latencies = [...rows].flatMap((row) => DIFF_PERCENTILES.map((p) => latencyFigure(row, p)));
  return which === 'throughput' ? ['throughput'] : which === 'latency' ? latencies : ['throughput', ...latencies];
}

export function diffResults(base: readonly Result[], next: readonly Result[], options: DiffOptions = {}): DiffReport {
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const maxRegression = options.maxRegression ?? DEFAULT_MAX_REGRESSION;
  const baseCells = cellsOf(measuredPhase(base)).map(summarizeCell);
  const newCells = cellsOf(measuredPhase(next)).map(summarizeCell);
  const { pairs, onlyInBase, onlyInNew } = pairCells(baseCells, newCells);
  if (pairs.length === 0)
    throw new DiffInputError(
      `diff: BASE and NEW share no cell (BASE: ${baseCells.map(cellName).slice(0, 3).join('; ')}${baseCells.length > 3 ? '; …' : ''}; NEW: ${newCells.map(cellName).slice(0, 3).join('; ')}${newCells.length > 3 ? '; …' : ''})`,
    );
  const rows: DiffRow[] = [];
  const invalidInNew: CellName[] = [];
  for (const [b, n] of pairs) {
    if (b.throughput.overRepetitions.n > 0 && n.throughput.overRepetitions.n === 0) {
      invalidInNew.push(cellName(n));
      continue;
    }
    const note = targetNote(b, n);
    for (const f of compareCells(b, n, { minEffect, figures: diffFigures(b, options.figures ?? 'all') })) {
      const c = f.comparison;
      rows.push({
        phase: n.phase,
        workload: n.workload,
        series: n.series,
        setting: cellSetting(n),
        figure: f.figure,
        unit: f.unit,
        base: f.a,
        new: f.b,
        comparison: c,
        regression: c.verdict === 'slower' && (c.effect ?? 0) >= maxRegression,
        ...(note ? { note } : {}),
      });
    }
  }
  return {
    minEffect,
    maxRegression,
    rows,
    regressions: rows.filter((r) => r.regression).length + invalidInNew.length,
    invalidInNew,
    onlyInBase: onlyInBase.map(cellName),
    onlyInNew: onlyInNew.map(cellName),
    cannotTell: rows.filter((r) => r.comparison.verdict === 'cannot tell').length,
  };
}

/** 0 when nothing regressed beyond maxRegression with significance, 1 when something did. */
export function diffExitCode(report: DiffReport): 0 | 1 {
  return report.regressions > 0 ? 1 : 0;
}
