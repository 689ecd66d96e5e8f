/** `docbench compare`'s defaults, apart from the command's code: its help text shows them. */
import { LOCAL_STORE_NAMES } from '../stores/stores.ts';

export const COMPARE_DEFAULTS = {
  /** Every store with a local server; the three whose local server is a stand-in are labelled so in every row. */
  stores: LOCAL_STORE_NAMES,
  workloads: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  /**
   * Rounds: each store runs every workload once per round, the stores in a fresh random order.
   * Three is the fewest that gives a cell an interval (docs/statistics.md says what it can show).
   */
  repetitions: 3,
  /** `--repetitions auto`: rounds until every cell's throughput interval is within ±precision of its median, at most maxRounds. */
  precision: 0.05,
  maxRounds: 10,
  /** The smallest difference, in percent, called faster or slower (and only when the interval excludes a ratio of 1). */
  minEffectPercent: 5,
  /**
   * Sized so three rounds of A–H on every local store fit in the time docs/manual.md gives for a
   * 2-core machine: maxexecutiontime bounds a run on a store that is slow at a workload (the
   * stand-ins' scans, CouchDB's conflicts) without cutting the fast ones short, which finish their
   * operations first; each round is a measurement of its own, so the rounds buy the precision a
   * longer single run would only pretend to have.
   * batchsize=100: the loads are preparation here, and stores with bulk writes load in batches
   * (the load results say so, and that their rates are not YCSB's); a stand-in that inserts a
   * record per request would otherwise spend most of the comparison loading.
   * dataintegrity stays off as in YCSB's own runs: checking every value costs client CPU that
   * would compete with the driver; the integration tests run every workload with it on.
   */
  overrides: ['recordcount=10000', 'operationcount=10000', 'threadcount=8', 'maxexecutiontime=8', 'batchsize=100'],
};
