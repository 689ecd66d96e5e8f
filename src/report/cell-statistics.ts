/**
 * The statistics of cells over repetitions, the one place every output takes them from (as
 * percentiles.ts is for percentiles): each cell's throughput and latency percentiles as a median
 * over repetitions with a 95% interval, n and the coefficient of variation, and two cells
 * compared figure by figure. A cell's figures come from its valid runs only.
 *
 * Two figures of a latency percentile, said apart everywhere:
 * - `overRepetitions`: each repetition's percentile read off its own histogram, then the median
 *   of those and its interval (how the figure varies from run to run: what a comparison judges);
 * - `pooledUs`: the percentile of every repetition's samples together (their histograms added,
 *   percentiles.ts), the figure the tables showed before repetitions and still show.
 */
import type { Result } from '../results/schema.ts';
import { isValid } from '../results/verdict.ts';
import { compareSamples, DEFAULT_MIN_EFFECT, type Direction, type RatioComparison } from '../stats/ratio.ts';
import { summarize, type Summary } from '../stats/summary.ts';
import { isVerification } from './charts-latency-cost.ts';
import { cellsOf, distinct, type Cell } from './groups.ts';
import { latencyPercentile, percentileOverRepetitions, REPORTED_PERCENTILES } from './percentiles.ts';

/** One figure of a cell over its repetitions. */
export interface FigureStatistics {
  /** `throughput`, or a latency figure `READ p99`. */
  figure: string;
  unit: 'ops/s' | 'us';
  direction: Direction;
  /** The median over repetitions of each repetition's own figure, with its interval, n and CoV. */
  overRepetitions: Summary;
  /** Latency figures: the percentile of the pooled histogram of every repetition (percentiles.ts). */
  pooledUs?: number;
  /** Latency figures: the operation row and the percentile. */
  row?: string;
  percentile?: number;
}

export interface CellStatistics {
  key: string;
  phase: Result['phase'];
  workload: string;
  series: string;
  records?: number;
  threads?: number;
  target?: number;
  /** Runs in the cell, valid or not. */
  runs: number;
  /** Runs left out of every figure: their verdict is invalid. */
  invalid: number;
  /** Runs stopped before their end (their figures cover what was done). */
  partial: number;
  /** Operations per second, each repetition's own. */
  throughput: FigureStatistics;
  /** Each main operation row at each reported percentile (p50, p95, p99, p99.9). */
  latency: FigureStatistics[];
}

/** The rows a reader compares: what the application saw (no failed calls, no intended-start twins, no verification pass). */
export function mainRows(runs: readonly Result[]): string[] {
  return distinct(
    runs.flatMap((r) =>
      r.operations
        .filter(
          (o) =>
            o.latency.operations > 0 &&
            !o.name.endsWith('-FAILED') &&
            !o.name.startsWith('Intended-') &&
            !isVerification(o.name),
        )
        .map((o) => o.name),
    ),
  );
}

/** A latency figure's name, `READ p99`, `UPDATE p99.9`. */
export function latencyFigure(row: string, percentile: number): string {
  return `${row} p${percentile}`;
}

export function summarizeCell(cell: Cell): CellStatistics {
  const valid = cell.runs.filter(isValid);
  const latency: FigureStatistics[] = [];
  for (const row of mainRows(valid))
    for (const percentile of REPORTED_PERCENTILES) {
      const pooled = latencyPercentile(valid, row, percentile);
      latency.push({
        figure: latencyFigure(row, percentile),
        unit: 'us',
        direction: 'lower-is-better',
        overRepetitions: percentileOverRepetitions(valid, row, percentile),
        ...(pooled !== undefined ? { pooledUs: pooled } : {}),
        row,
        percentile,
      });
    }
  return {
    key: cell.key,
    phase: cell.phase,
    workload: cell.workload,
    series: cell.series,
    ...(cell.records !== undefined ? { records: cell.records } : {}),
    ...(cell.threads !== undefined ? { threads: cell.threads } : {}),
    ...(cell.target !== undefined ? { target: cell.target } : {}),
    runs: cell.runs.length,
    invalid: cell.runs.length - valid.length,
    partial: cell.runs.filter((r) => r.partial !== undefined).length,
    throughput: {
      figure: 'throughput',
      unit: 'ops/s',
      direction: 'higher-is-better',
      overRepetitions: summarize(valid.map((r) => r.overall.throughputOpsPerSec)),
    },
    latency,
  };
}

/** Every cell of the results, in the order their first run came. */
export function summarizeCells(results: readonly Result[]): CellStatistics[] {
  return cellsOf(results).map(summarizeCell);
}

/** Whether any cell has more than one valid run: what decides if outputs show intervals at all. */
export function anyRepeated(cells: readonly CellStatistics[]): boolean {
  return cells.some((c) => c.throughput.overRepetitions.n > 1);
}

/** Every figure of a cell: throughput first, then the latency figures. */
export function figuresOf(cell: CellStatistics): FigureStatistics[] {
  return [cell.throughput, ...cell.latency];
}

/** One figure of B against A. */
export interface FigureComparison {
  figure: string;
  unit: FigureStatistics['unit'];
  a: Summary;
  b: Summary;
  comparison: RatioComparison;
}

export interface CompareCellsOptions {
  /** The practical threshold, a fraction (default 0.05). */
  minEffect?: number;
  /** Which figures (by name, `throughput`, `READ p99`); default every figure both cells have. */
  figures?: readonly string[];
}

/** Cell B against cell A, figure by figure (the figures both have): ratio B/A, interval, verdict. */
export function compareCells(
  a: CellStatistics,
  b: CellStatistics,
  options: CompareCellsOptions = {},
): FigureComparison[] {
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const ofB = new Map(figuresOf(b).map((f) => [f.figure, f]));
  const out: FigureComparison[] = [];
  for (const fa of figuresOf(a)) {
    const fb = ofB.get(fa.figure);
    if (!fb || (options.figures && !options.figures.includes(fa.figure))) continue;
    out.push({
      figure: fa.figure,
      unit: fa.unit,
      a: fa.overRepetitions,
      b: fb.overRepetitions,
      comparison: compareSamples(fa.overRepetitions, fb.overRepetitions, { direction: fa.direction, minEffect }),
    });
  }
  return out;
}

/** A cell's setting in words: `1,000 records, 4 threads, target 5,000 ops/s`. */
export function cellSetting(c: {
  records?: number | undefined;
  threads?: number | undefined;
  target?: number | undefined;
}): string {
  return [
    c.records !== undefined ? `${c.records.toLocaleString('en-US')} records` : '',
    c.threads !== undefined ? `${c.threads} thread${c.threads === 1 ? '' : 's'}` : '',
    c.target !== undefined ? `target ${c.target.toLocaleString('en-US')} ops/s` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
