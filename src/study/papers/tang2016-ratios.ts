/**
 * Tang & Fan 2016's stated ratios (Section V.A) from docbench's results, computed as the paper
 * computes them: a store's load time of Experiment 1's records over Redis's (Figure 1), its
 * average execution time of workloads A, C and H over Redis's (Figure 2), and Cassandra's time
 * of workload C over HBase's.
 */
import type { Result } from '../../results/schema.ts';
import { runtimeSecondsOf, type Cell } from '../../report/groups.ts';
import { isValid } from '../../results/verdict.ts';
import { loadCells, runCells } from '../docbench-tables.ts';
import type { PaperRatio, RunRatio } from '../paper.ts';

const STEP = 'experiment-1';
const EXECUTED = ['workloada', 'workloadc', 'workloadh'];

type Time = { seconds: number; series: string } | { missing: string };

const ofStep = (results: readonly Result[]) => results.filter((r) => r.study?.step === STEP);

/** The mean time (valid runs) of a store's cells, averaged over them; all `expected` of them must be there. */
function meanTime(cells: readonly Cell[], store: string, expected: number, what: string): Time {
  const mine = cells.filter((c) => c.runs[0]?.store.name === store);
  if (mine.length === 0) return { missing: `no ${store} results` };
  if (mine.length < expected) return { missing: `${store} ran ${mine.length} of ${expected} ${what}` };
  if (mine.some((c) => !c.runs.some(isValid))) return { missing: `${store}'s ${what}: some have no valid run` };
  const seconds =
    mine.reduce((s, c) => s + runtimeSecondsOf({ ...c, runs: c.runs.filter(isValid) }).mean, 0) / mine.length;
  return { seconds, series: mine[0]!.series };
}

function divide(slow: Time, fast: Time, divides: (s: string, f: string) => string): RunRatio {
  if ('missing' in slow) return slow;
  if ('missing' in fast) return fast;
  return { value: slow.seconds / fast.seconds, divides: divides(slow.series, fast.series) };
}

/** A store's load time over Redis's (Figure 1): the paper's ratio is the third number of its derived cell (`≈ 10.48 (8 × 1.31)`). */
function load(paperStore: string): PaperRatio {
  const store = paperStore.toLowerCase();
  return {
    claim: `Figure 1: ${paperStore}'s load time ÷ Redis's`,
    where: 'Section V.A.1',
    paper: (cell) => cell('fig1', paperStore, 'load time (s), derived', 2),
    fromRun: (results) => {
      const cells = loadCells(ofStep(results));
      return divide(
        meanTime(cells, store, 1, 'loads'),
        meanTime(cells, 'redis', 1, 'loads'),
        (s, f) => `${s}'s load time ÷ ${f}'s`,
      );
    },
  };
}

/** A store's average execution time of A, C and H over Redis's (Figure 2). */
function execution(paperStore: string): PaperRatio {
  const store = paperStore.toLowerCase();
  return {
    claim: `Figure 2: ${paperStore}'s average of A, C, H ÷ Redis's`,
    where: 'Section V.A.2',
    paper: (cell) => cell('fig2', paperStore, 'mean of A, C, H (s), derived', 2),
    fromRun: (results) => {
      const cells = runCells(ofStep(results)).filter((c) => EXECUTED.includes(c.workload));
      return divide(
        meanTime(cells, store, EXECUTED.length, 'workloads (A, C, H)'),
        meanTime(cells, 'redis', EXECUTED.length, 'workloads (A, C, H)'),
        (s, f) => `${s}'s average execution time of A, C, H ÷ ${f}'s`,
      );
    },
  };
}

const HBASE_VS_CASSANDRA: PaperRatio = {
  claim: "Figure 2: Cassandra's workload C time ÷ HBase's",
  where: 'Section V.A.2',
  paper: (cell) => cell('fig2', 'HBase vs Cassandra, workload C', 'mean of A, C, H (s), derived', 0),
  fromRun: (results) => {
    const cells = runCells(ofStep(results)).filter((c) => c.workload === 'workloadc');
    return divide(
      meanTime(cells, 'cassandra', 1, 'runs of workload C'),
      meanTime(cells, 'hbase', 1, 'runs of workload C'),
      (s, f) => `${s}'s execution time of workload C ÷ ${f}'s`,
    );
  },
};

export const TANG_RATIOS: readonly PaperRatio[] = [
  ...['MongoDB', 'Cassandra', 'HBase', 'Couchbase'].map(load),
  ...['MongoDB', 'Couchbase', 'HBase', 'Cassandra'].map(execution),
  HBASE_VS_CASSANDRA,
];
