/**
 * The statistics of a set of results as JSON (`report --json`): every cell's figures over its
 * repetitions (median, 95% interval, n, CoV, each repetition's value; latency percentiles also
 * as the pooled histogram's), each workload's stores ranked against the fastest, the method and
 * its defaults, and the diff against a baseline when one was given.
 */
import type { Result } from '../results/schema.ts';
import { DEFAULT_MIN_EFFECT } from '../stats/ratio.ts';
import { CONFIDENCE, DISTRIBUTION_FREE_MIN_N } from '../stats/summary.ts';
import { summarizeCells } from './cell-statistics.ts';
import type { DiffReport } from './diff.ts';
import { diffJson } from './diff-render.ts';
import { rankCells } from './rankings.ts';

export interface StatisticsOptions {
  minEffect?: number;
  baseline?: DiffReport;
}

export function statisticsDocument(results: readonly Result[], options: StatisticsOptions = {}): object {
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const cells = summarizeCells(results);
  return {
    statistics: {
      method: {
        confidence: CONFIDENCE,
        minEffect,
        median: `n >= ${DISTRIBUTION_FREE_MIN_N}: order-statistic interval (distribution-free); 2 <= n < ${DISTRIBUTION_FREE_MIN_N}: t interval on the logarithms (assumes log-normal run-to-run noise); n = 1: none`,
        ratio: `both n >= ${DISTRIBUTION_FREE_MIN_N}: Hodges-Lehmann interval of the log ratio (exact Mann-Whitney ranks); otherwise Welch's t interval on the logarithms (assumes log-normal noise); n = 1 on a side: none`,
        figures:
          "throughput: each repetition's ops/s; latency: overRepetitions is each repetition's percentile from its own histogram, pooledUs the percentile of every repetition's samples together",
        docs: 'docs/statistics.md',
      },
      cells,
      rankings: rankCells(cells, { minEffect }).map((w) => ({
        phase: w.phase,
        workload: w.workload,
        setting: w.setting,
        stores: w.cells.map((r) => ({
          series: r.cell.series,
          rank: r.rank,
          tied: r.tied,
          fastest: r.fastest,
          vsFastest: r.vsFastest,
        })),
      })),
    },
    ...(options.baseline ? { baseline: diffJson(options.baseline) } : {}),
  };
}
