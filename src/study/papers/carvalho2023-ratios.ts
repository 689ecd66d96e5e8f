/**
 * Carvalho et al. 2023's 13 stated ratios (Sections 5.1–5.4) from docbench's results, computed as
 * the paper computes them: totals that add the mean runtimes of workloads A–H over thread counts
 * (and record counts), one total divided by another. The paper's record counts 100k / 1M / 10M
 * are the run's first, second and third record counts (--scale small runs the first two).
 */
import type { Result } from '../../results/schema.ts';
import { runtimeSecondsOf, type Cell } from '../../report/groups.ts';
import { isValid } from '../../results/verdict.ts';
import { runCells } from '../docbench-tables.ts';
import type { PaperRatio, RunRatio } from '../paper.ts';

const WORKLOADS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((w) => `workload${w}`);
const E = 'workloade';
const TIERS = ['100k', '1M', '10M'] as const;
type Tier = (typeof TIERS)[number];
const STORES = { Couchbase: 'couchbase', CouchDB: 'couchdb', MongoDB: 'mongodb' } as const;
type PaperStore = keyof typeof STORES;

const sortedNumbers = (values: (number | undefined)[]) =>
  [...new Set(values.filter((v): v is number => v !== undefined))].sort((a, b) => a - b);

/** The run's Carvalho cells, its record counts and thread counts. */
function grid(results: readonly Result[]) {
  const cells = runCells(results).filter((c) => WORKLOADS.includes(c.workload));
  return {
    cells,
    records: sortedNumbers(cells.map((c) => c.records)),
    threads: sortedNumbers(cells.map((c) => c.threads)),
  };
}

type Total = { seconds: number; series: string } | { missing: string };

/** The sum of the mean runtimes (valid runs) of one store's cells `keep` picks, when all `expected` ran valid. */
function total(
  cells: readonly Cell[],
  store: string,
  keep: (c: Cell) => boolean,
  expected: number,
  what: string,
): Total {
  const picked = cells.filter((c) => c.runs[0]?.store.name === store && keep(c));
  const invalid = picked.filter((c) => !c.runs.some(isValid)).length;
  if (picked.length === 0) return { missing: `no ${store} results ${what}` };
  if (picked.length < expected) return { missing: `${store} ran ${picked.length} of the ${expected} cells ${what}` };
  if (invalid > 0) return { missing: `${store}: ${invalid} of the ${expected} cells ${what} have no valid run` };
  const seconds = picked.reduce((s, c) => s + runtimeSecondsOf({ ...c, runs: c.runs.filter(isValid) }).mean, 0);
  return { seconds, series: picked[0]!.series };
}

function divide(numerator: Total, denominator: Total, divides: (n: string, d: string) => string): RunRatio {
  if ('missing' in numerator) return numerator;
  if ('missing' in denominator) return denominator;
  return { value: numerator.seconds / denominator.seconds, divides: divides(numerator.series, denominator.series) };
}

const paperSays = (claim: string) => (cell: Parameters<PaperRatio['paper']>[0]) =>
  cell('ratios', claim, 'the paper says');

/** A store's total at a larger record count over its total at a smaller one (Tables 3, 5, 7). */
function growth(store: PaperStore, from: Tier, to: Tier, where: string): PaperRatio {
  const claim = `${store} ${from} → ${to} records`;
  return {
    claim,
    where,
    paper: paperSays(claim),
    fromRun: (results) => {
      const { cells, records, threads } = grid(results);
      const [i, j] = [TIERS.indexOf(from), TIERS.indexOf(to)];
      if (records.length <= j)
        return {
          missing: `the run has ${records.length} record count${records.length === 1 ? '' : 's'}; --scale full runs the paper's three`,
        };
      const at = (n: number) =>
        total(
          cells,
          STORES[store],
          (c) => c.records === n,
          WORKLOADS.length * threads.length,
          `at ${n.toLocaleString('en-US')} records`,
        );
      return divide(
        at(records[j]!),
        at(records[i]!),
        (s) =>
          `${s}: its total at ${records[j]!.toLocaleString('en-US')} records ÷ at ${records[i]!.toLocaleString('en-US')} (A–H, ${threads.join(' / ')} threads)`,
      );
    },
  };
}

/** How many times faster one store is than another: the slower's total over the faster's (Tables 9, 10). */
function faster(claim: string, where: string, fast: PaperStore, slow: PaperStore, workloadE: boolean): PaperRatio {
  return {
    claim,
    where,
    paper: paperSays(claim),
    fromRun: (results) => {
      const { cells, records, threads } = grid(results);
      const keep = (c: Cell) => (c.workload === E) === workloadE;
      const expected = (workloadE ? 1 : WORKLOADS.length - 1) * records.length * threads.length;
      const what = workloadE ? 'of workload E' : 'of the workloads but E';
      return divide(
        total(cells, STORES[slow], keep, expected, what),
        total(cells, STORES[fast], keep, expected, what),
        (s, f) => `${s}'s total ${what} ÷ ${f}'s (every record count and thread count run)`,
      );
    },
  };
}

export const CARVALHO_RATIOS: readonly PaperRatio[] = [
  ...(
    [
      ['Couchbase', 'Section 5.1, p. 10'],
      ['CouchDB', 'Section 5.2, p. 11'],
      ['MongoDB', 'Section 5.3, p. 12'],
    ] as const
  ).flatMap(([store, where]) => [
    growth(store, '100k', '1M', where),
    growth(store, '1M', '10M', where),
    growth(store, '100k', '10M', where),
  ]),
  faster('workload E, CouchDB vs MongoDB', 'Section 5.4, p. 14', 'CouchDB', 'MongoDB', true),
  faster('all but E, MongoDB vs CouchDB', 'Section 5.4, p. 15', 'MongoDB', 'CouchDB', false),
  faster('all but E, MongoDB vs Couchbase', 'Section 5.4, p. 15', 'MongoDB', 'Couchbase', false),
  faster('all but E, CouchDB vs Couchbase', 'Section 5.4, p. 15', 'CouchDB', 'Couchbase', false),
];
