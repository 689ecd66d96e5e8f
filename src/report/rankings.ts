/**
 * Per workload, every store against the fastest: the ratio of their median throughputs with its
 * 95% interval and the verdict (stats/ratio.ts), and a rank that only separates what the runs
 * can show. Ranks are tiers: the fastest store opens tier 1; going down by median, a store opens
 * the next tier only when it is shown slower than the store that opened the current one, and
 * otherwise ties with it (a store with one run, which can show nothing, ties too).
 */
import { compareSamples, DEFAULT_MIN_EFFECT, type RatioComparison } from '../stats/ratio.ts';
import { formatRatio, formatSummary, formatVerdict } from '../stats/format.ts';
import { cellSetting, type CellStatistics } from './cell-statistics.ts';
import { markdownTable } from './markdown.ts';

export interface RankedCell {
  cell: CellStatistics;
  /** The tier, 1 for the fastest and every store not shown slower than it. */
  rank: number;
  /** Another store shares the tier. */
  tied: boolean;
  /** The fastest store of the workload itself. */
  fastest: boolean;
  /** This store's median throughput over the fastest's, with its interval and verdict. */
  vsFastest: RatioComparison;
}

export interface WorkloadRanking {
  phase: CellStatistics['phase'];
  workload: string;
  /** Records, threads and target rate, when set. */
  setting: string;
  cells: RankedCell[];
}

/** The stores of each workload (and setting), ranked; cells without a valid run are left out (they are INVALID). */
export function rankCells(cells: readonly CellStatistics[], options: { minEffect?: number } = {}): WorkloadRanking[] {
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const groups = new Map<string, CellStatistics[]>();
  for (const c of cells) {
    if (c.throughput.overRepetitions.n === 0) continue;
    const key = JSON.stringify([c.phase, c.workload, c.records ?? null, c.threads ?? null, c.target ?? null]);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => b.throughput.overRepetitions.median - a.throughput.overRepetitions.median);
    const fastest = sorted[0]!;
    let opener = fastest;
    let rank = 1;
    const ranked: RankedCell[] = sorted.map((c) => {
      const options = { direction: 'higher-is-better' as const, minEffect };
      if (
        c !== opener &&
        compareSamples(opener.throughput.overRepetitions, c.throughput.overRepetitions, options).verdict === 'slower'
      ) {
        rank += 1;
        opener = c;
      }
      return {
        cell: c,
        rank,
        tied: false,
        fastest: c === fastest,
        vsFastest: compareSamples(fastest.throughput.overRepetitions, c.throughput.overRepetitions, options),
      };
    });
    for (const r of ranked) r.tied = ranked.some((o) => o !== r && o.rank === r.rank);
    return { phase: fastest.phase, workload: fastest.workload, setting: cellSetting(fastest), cells: ranked };
  });
}

/** `1`, `1 (tie)`. */
export function rankText(r: RankedCell): string {
  return `${r.rank}${r.tied ? ' (tie)' : ''}`;
}

/** The verdict column: `fastest`, or the verdict against the fastest. */
export function rankVerdictText(r: RankedCell): string {
  if (r.fastest) return r.tied ? 'highest median, a tie' : 'fastest';
  return formatVerdict(r.vsFastest);
}

export const RANKING_HEADER = [
  'workload',
  'rank',
  'store',
  'ops/s median [95% CI] (n, CoV)',
  'vs fastest [95% CI]',
  'verdict',
] as const;

/** The ranking's rows, as text cells (Markdown and HTML tables alike). */
export function rankingRows(rankings: readonly WorkloadRanking[]): string[][] {
  // The setting is said only where a workload ran in several (a sweep's records or threads).
  const settings = new Map<string, number>();
  for (const w of rankings) settings.set(w.workload, (settings.get(w.workload) ?? 0) + 1);
  return rankings.flatMap((w) =>
    w.cells.map((r) => [
      `${w.phase === 'load' ? 'load ' : ''}${w.workload}${w.setting && settings.get(w.workload)! > 1 ? ` (${w.setting})` : ''}`,
      rankText(r),
      r.cell.series,
      formatSummary(r.cell.throughput.overRepetitions),
      r.fastest ? '1×' : formatRatio(r.vsFastest),
      rankVerdictText(r),
    ]),
  );
}

/** The sentence that says what the ranking shows and by which rule. */
export function rankingLead(minEffect = DEFAULT_MIN_EFFECT): string {
  return `Each store against the fastest of its workload: the ratio of median throughputs with its 95% confidence interval; "faster" or "slower" only when the interval excludes 1 and the difference is at least ${Math.round(minEffect * 1000) / 10}%. Stores a run cannot tell apart share a rank.`;
}

/** The ranking as a Markdown table with its lead sentence. */
export function renderRankings(rankings: readonly WorkloadRanking[], minEffect = DEFAULT_MIN_EFFECT): string {
  const header = [...RANKING_HEADER];
  return `${rankingLead(minEffect)}\n\n${markdownTable(
    header,
    rankingRows(rankings),
    header.map((_, i) => (i === 3 || i === 4 ? 'right' : 'left')),
  )}`;
}
