/**
 * Tang & Fan 2016: five stores, each a 4-node cluster. Experiment 1 loads 100,000 records (the
 * load time, Figure 1) and runs workloads A, C and H of 10,000 operations each (Figure 2);
 * Experiment 2 loads 10k … 10M records (the load throughput, Figure 3) and runs workload A with
 * operations 10% of the records (its throughput, Figure 4). 10 fields × 100 B.
 */
import type { Result } from '../../results/schema.ts';
import type { ChartSpec } from '../../report/chart-spec.ts';
import type { FigureTable } from '../../report/html-page.ts';
import { distinct, runtimeSecondsOf, throughputOf, type Cell } from '../../report/groups.ts';
import { spreadText } from '../../report/html-tables.ts';
import { cellText, figure, loadCells, present, runCells } from '../docbench-tables.ts';
import { by, clusterWords, differs, list, same, sizes, sweepStep, type StudyPreset } from '../preset.ts';
import { linesChart } from '../shape-charts.ts';
import { TANG_CHECKS, TANG_PUBLISHED } from './tang2016-published.ts';
import { TANG_RATIOS } from './tang2016-ratios.ts';
import { STUDY_TITLES } from '../study-titles.ts';

const EXPERIMENT_1 = {
  tiny: { records: 200, operations: 20 },
  small: { records: 1_000, operations: 100 },
  full: { records: 100_000, operations: 10_000 },
};
const EXPERIMENT_2 = {
  tiny: [100, 1_000],
  small: [100, 1_000, 10_000, 50_000, 100_000],
  full: [10_000, 100_000, 1_000_000, 5_000_000, 10_000_000],
};
const HERE = 'this machine; one run each, as the paper (which states no repetitions)';
const SECTION = "Tang & Fan 2016's charts, from this run";

const ofStep = (results: readonly Result[], step: string) => results.filter((r) => r.study?.step === step);

/** Figure 1 in shape: load time of Experiment 1's records per store, and how much slower than the fastest. */
function loadTimes(results: readonly Result[]): FigureTable | undefined {
  const cells = loadCells(ofStep(results, 'experiment-1'));
  if (cells.length === 0) return undefined;
  const fastest = Math.min(...cells.map((c) => runtimeSecondsOf(c).mean));
  const rows = [...cells]
    .sort((a, b) => runtimeSecondsOf(a).mean - runtimeSecondsOf(b).mean)
    .map((c) => [
      c.series,
      c.records?.toLocaleString('en-US') ?? '',
      spreadText(runtimeSecondsOf(c), 2, 'mean'),
      `${figure(runtimeSecondsOf(c).mean / fastest, 2)}×`,
    ]);
  return {
    title: 'docbench: loading time per store, fastest first (Figure 1 in shape)',
    note: `${HERE}; one insert per record (YCSB's load); "×": times the fastest store's time, as the paper compares them`,
    header: ['store', 'records', 'load time s', 'vs the fastest'],
    rows,
  };
}

/** Figure 2 in shape: execution time of A, C, H per store, their mean, and how much slower than the fastest. */
function executionTimes(results: readonly Result[]): FigureTable | undefined {
  const cells = runCells(ofStep(results, 'experiment-1'));
  if (cells.length === 0) return undefined;
  const workloads = distinct(cells.map((c) => c.workload));
  const series = distinct(cells.map((c) => c.series));
  const meanOf = (s: string) => {
    const mine = cells.filter((c) => c.series === s);
    return mine.reduce((sum, c) => sum + runtimeSecondsOf(c).mean, 0) / Math.max(1, mine.length);
  };
  const fastest = Math.min(...series.map(meanOf));
  const rows = [...series]
    .sort((a, b) => meanOf(a) - meanOf(b))
    .map((s) => [
      s,
      ...workloads.map((w) => {
        const cell = cells.find((c) => c.series === s && c.workload === w);
        return cell ? cellText(cell, runtimeSecondsOf, 'mean', 2) : '';
      }),
      figure(meanOf(s), 2),
      `${figure(meanOf(s) / fastest, 2)}×`,
    ]);
  return {
    title: 'docbench: execution time (s) of workloads A, C, H and their average per store (Figure 2 in shape)',
    note: `${HERE}; the average over A, C and H is the paper's figure; "×": times the fastest store's average`,
    header: ['store', ...workloads, 'average of A, C, H', 'vs the fastest'],
    rows,
  };
}

/** A throughput against the record count per store: the table beside Figure 3 or 4. */
function throughputTable(cells: readonly Cell[], title: string, note: string): FigureTable | undefined {
  if (cells.length === 0) return undefined;
  const records = distinct(cells.map((c) => c.records ?? 0)).sort((a, b) => a - b);
  const rows = distinct(cells.map((c) => c.series)).map((s) => [
    s,
    ...records.map((n) => {
      const cell = cells.find((c) => c.series === s && c.records === n);
      return cell ? cellText(cell, throughputOf, 'mean', 0) : '';
    }),
  ]);
  return { title, note, header: ['store', ...records.map((n) => `${n.toLocaleString('en-US')} records`)], rows };
}

const loadThroughputCells = (results: readonly Result[]) => loadCells(ofStep(results, 'experiment-2'));
const workloadACells = (results: readonly Result[]) =>
  runCells(ofStep(results, 'experiment-2')).filter((c) => c.workload === 'workloada');

export const tang2016: StudyPreset = {
  name: 'tang2016',
  title: STUDY_TITLES.tang2016,
  citation:
    'Tang, E.; Fan, Y. Performance Comparison between Five NoSQL Databases. 7th International Conference on Cloud Computing and Big Data (CCBD), 2016.',
  // The paper's five; a store docbench does not have (HBase, until its store exists) is left out and said so.
  paperNodes: { count: 4, where: 'Section IV' },
  paperStores: [
    { store: 'redis', product: 'Redis 3.2.1', where: 'Section III' },
    { store: 'mongodb', product: 'MongoDB 3.2.7', where: 'Section III' },
    { store: 'couchbase', product: 'Couchbase 4.0.0', where: 'Section III' },
    { store: 'cassandra', product: 'Cassandra 2.2.7', where: 'Section III' },
    { store: 'hbase', product: 'HBase 0.98.20', where: 'Section III' },
  ],
  scales: {
    tiny: "a smoke run: Experiment 1 at 200 records and 20 operations (÷500), Experiment 2 at 100 and 1,000 records (the paper's first two ÷100)",
    small:
      "the paper's shape ÷100: Experiment 1 at 1,000 records and 100 operations; Experiment 2 at 100 / 1,000 / 10,000 / 50,000 / 100,000 records",
    full: "the paper's sizes: Experiment 1 at 100,000 records and 10,000 operations; Experiment 2 at 10,000 / 100,000 / 1,000,000 / 5,000,000 / 10,000,000 records",
  },
  variants: [],
  published: TANG_PUBLISHED,
  checks: TANG_CHECKS,
  steps: ({ scale, stores }) => {
    const one = by(scale, EXPERIMENT_1);
    return [
      sweepStep(
        'experiment-1',
        `Experiment 1: load ${one.records.toLocaleString('en-US')} records, then A, C and H of ${one.operations.toLocaleString('en-US')} operations one by one`,
        stores,
        {
          workloads: ['a', 'c', 'h'],
          records: [one.records],
          threads: [1],
          repetitions: 1,
          extraFiles: ['record-1kb'],
          overrides: [`operationcount=${one.operations}`, 'maxexecutiontime=0'],
        },
      ),
      sweepStep(
        'experiment-2',
        `Experiment 2: at each record count a fresh load (its throughput), then workload A with operations 10% of the records`,
        stores,
        {
          workloads: ['a'],
          records: by(scale, EXPERIMENT_2),
          threads: [1],
          repetitions: 1,
          extraFiles: ['record-1kb'],
          operationsPerRecord: 0.1,
          overrides: ['maxexecutiontime=0'],
        },
      ),
    ];
  },
  design: (context) => {
    const { scale } = context;
    const one = by(scale, EXPERIMENT_1);
    return [
      differs(
        'cluster',
        '"we … created a 4-node cluster for each database" (Section I); "We set up a 4-node cluster for each NoSQL database in four servers" (Section IV)',
        clusterWords(context, 'one node per store: no sharding, replication or routing between nodes'),
      ),
      differs(
        'hardware',
        '"5 virtual machines and each machine is Ubuntu server with 12GB RAM, 256GB HDD and quad-core CPUs … installed YCSB in the fifth server" (Section IV)',
        'this machine (recorded in every result); client and servers share it',
      ),
      same(
        'record',
        '"each record consists of 10 columns and each column is 100 bytes, nearly 1kb total per record" (Section IV)',
        'record-1kb: 10 fields × 100 B',
      ),
      sizes(
        scale,
        'Experiment 1',
        '"we loaded 100,000 records … and the number of operations performed was set to 10,000 in every test, and we executed workload A, C and H one by one" (Section IV)',
        `${one.records.toLocaleString('en-US')} records loaded once, then A, C and H of ${one.operations.toLocaleString('en-US')} operations one by one`,
      ),
      sizes(
        scale,
        'Experiment 2',
        '"we respectively set the record size to 1w, 10w, 100w, 500w, 1000w, while the operation count was 10% of the record amount … We only executed workload A" (Section V.B)',
        `${list(by(scale, EXPERIMENT_2))} records, each loaded afresh, workload A with operations 10% of the records`,
      ),
      same(
        'workloads',
        '"Workload A: 50/50 of read/update; Workload C: 100% read; Workload H: 100% update" (Table I)',
        "YCSB's workloada and workloadc, docbench's workloadh (100% update)",
      ),
      differs(
        'distributions',
        "not stated (YCSB's A and C are zipfian; H is the paper's own)",
        "YCSB's zipfian for A and C, and zipfian for H (as Carvalho et al. 2023 define it)",
      ),
      differs('threads', 'not stated', "one client thread, YCSB's default (loads too)"),
      differs('repetitions', 'not stated', 'one run of each'),
      same(
        'statistic',
        'load time (Fig. 1); "the average execution time" over A, C, H (Fig. 2); throughput of loading and of A per record count (Figs. 3, 4)',
        'the same figures, each from one run',
      ),
      differs(
        'Redis persistence',
        '"Redis was set to call fsync function to refresh AOF files every second" (Section V.A.1)',
        "docbench's local Redis runs with Redis's defaults (RDB snapshots, no AOF); a server given with --url runs with its own settings",
      ),
      differs(
        'store settings',
        '"we did not do any optimizations for a particular database and did not optimize shard key for MongoDB"; HBase\'s BlockCache at its default (Section V)',
        "each store's defaults as docbench's adapters connect; no shard key (one node)",
      ),
      same(
        'measure',
        'execution time and throughput "of every test" (Section I), YCSB\'s runtime and throughput',
        "YCSB's [OVERALL] RunTime and Throughput of each load and run; no time cap",
      ),
    ];
  },
  ratios: TANG_RATIOS,
  figures: (results) =>
    present([
      loadTimes(results),
      executionTimes(results),
      throughputTable(
        loadThroughputCells(results),
        'docbench: load throughput (records/s) against the record count (Figure 3 in shape)',
        `${HERE}; each record count loaded afresh`,
      ),
      throughputTable(
        workloadACells(results),
        'docbench: workload A throughput (ops/s) against the record count, operations 10% of the records (Figure 4 in shape)',
        HERE,
      ),
    ]),
  charts: (results): ChartSpec[] =>
    [
      linesChart(results, loadThroughputCells(results), throughputOf, {
        section: SECTION,
        title: 'Throughput of loading data with increasing record count (Figure 3 in shape)',
        x: 'records',
        yTitle: 'load throughput (records/s)',
        statistic: 'mean',
      }),
      linesChart(results, workloadACells(results), throughputOf, {
        section: SECTION,
        title: 'Throughput of executing workload A with increasing record count (Figure 4 in shape)',
        x: 'records',
        yTitle: 'ops/s',
        statistic: 'mean',
      }),
    ].filter((c): c is ChartSpec => c !== undefined),
};
