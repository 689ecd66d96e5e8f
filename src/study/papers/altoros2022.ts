/**
 * Altoros 2022: workload A, the study's workload E (95% scan, 5% update, keys-only scans), the
 * Pagination workload (no ORDER BY, on an address.country index) and the JOIN workload, each at
 * 100–700 client threads, throughput and latency reported at the median thread count (400), on
 * 6-, 9- and 18-node managed clusters.
 */
import type { ChartSpec } from '../../report/chart-spec.ts';
import type { FigureTable } from '../../report/html-page.ts';
import { distinct, throughputOf, type Cell } from '../../report/groups.ts';
import { isVerification } from '../../report/charts-latency-cost.ts';
import { latencyPercentile } from '../../report/percentiles.ts';
import { isValid } from '../../results/verdict.ts';
import { cellText, figure, present, runCells } from '../docbench-tables.ts';
import {
  by,
  differs,
  list,
  same,
  scenarioStep,
  sizes,
  sweepStep,
  type Scale,
  type StudyContext,
  type StudyPreset,
  type StudyStep,
} from '../preset.ts';
import { linesChart } from '../shape-charts.ts';
import { ALTOROS_CHECKS, ALTOROS_PUBLISHED } from './altoros2022-published.ts';
import { STUDY_TITLES } from '../study-titles.ts';

const THREADS: Record<Scale, number[]> = {
  tiny: [1, 2, 3],
  small: [2, 4, 6, 8, 10, 12, 14],
  full: [100, 200, 300, 400, 500, 600, 700],
};
const RECORDS: Record<Scale, number> = { tiny: 2_000, small: 50_000, full: 50_000_000 };
const PAGINATION_CUSTOMERS: Record<Scale, number> = { tiny: 200, small: 5_000, full: 5_000_000 };
const JOIN_CUSTOMERS: Record<Scale, number> = { tiny: 1_000, small: 25_000, full: 25_000_000 };
const SECONDS: Record<Scale, number> = { tiny: 2, small: 5, full: 300 };
/** A customer (about 4 KB) with its one order, as the scenario seeds them. */
const CUSTOMER_BYTES = 4_500;
const SECTION = "Altoros 2022's charts, from this run";

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ORDERED = 'ordered-pagination';
const YCSB_E = 'ycsb-e';

/**
 * The e-commerce scenario swept over the thread counts: each store seeded once, every thread
 * count run on that data (`docbench sweep --scenario ecommerce`).
 */
function ecommerceStep(
  context: StudyContext,
  workload: 'pagination' | 'join',
  customers: number,
  extra: string[],
  variants: number,
): StudyStep {
  const threads = by(context.scale, THREADS);
  const seconds = by(context.scale, SECONDS);
  return scenarioStep(
    workload,
    `e-commerce ${workload} at ${customers.toLocaleString('en-US')} customers, ${threads.join(' / ')} client threads, ${seconds} s each (seeded once a store)`,
    {
      scenario: 'ecommerce',
      stores: context.stores,
      workloads: [workload],
      sizes: [customers],
      threads,
      repetitions: 1,
      settings: [`maxexecutiontime=${seconds}`, ...extra],
      reload: false,
    },
    {
      dataset: 'ecommerce',
      records: customers,
      bytesPerRecord: CUSTOMER_BYTES,
      loaded: customers,
      runSeconds: seconds * variants * threads.length,
      runs: variants * threads.length,
    },
    // Pagination and the JOIN are queries: a key-value-only server cannot run them.
    ['query'],
  );
}

/** The cell's operations (not the checks, failures or intended-time rows): mean and p99 each, over its valid runs. */
function latencyText(all: Cell): string {
  const cell = { ...all, runs: all.runs.filter(isValid) };
  const rows = distinct(
    cell.runs.flatMap((r) =>
      r.operations
        .filter(
          (o) =>
            o.histogram &&
            !o.name.startsWith('Intended-') &&
            !o.name.endsWith('-FAILED') &&
            !isVerification(o.name) &&
            o.name !== 'READBACK',
        )
        .map((o) => o.name),
    ),
  );
  return rows
    .map((row) => {
      const ops = cell.runs.flatMap((r) => r.operations.filter((o) => o.name === row));
      const count = ops.reduce((n, o) => n + o.latency.operations, 0);
      const mean = ops.reduce((s, o) => s + o.latency.averageUs * o.latency.operations, 0) / Math.max(1, count) / 1000;
      const p99 = latencyPercentile(cell.runs, row, 99);
      return `${row} ${figure(mean, 2)} / ${p99 === undefined ? '?' : figure(p99 / 1000, 2)}`;
    })
    .join(' · ');
}

/** Throughput and latency side by side at one thread count: the paper's figures in its shape. */
function atMedianThreads(cells: readonly Cell[]): FigureTable | undefined {
  const threads = distinct(cells.map((c) => c.threads).filter((t): t is number => t !== undefined));
  if (threads.length === 0) return undefined;
  const at = median(threads);
  const rows = cells
    .filter((c) => c.threads === at)
    .map((c) => [c.workload, c.series, cellText(c, throughputOf, 'median', 0), latencyText(c)]);
  return {
    title: `docbench: throughput and latency at the median thread count, ${at} threads (the report's figures, "the median number of threads")`,
    note: 'this machine, one run each; latency per operation: mean / p99 in ms (the report does not say which statistic its latencies are)',
    header: ['workload', 'store', 'ops/s', 'latency ms: mean / p99'],
    rows,
  };
}

/** Every thread count: throughput and latency, the curves the report's charts draw. */
function perThreads(cells: readonly Cell[]): FigureTable | undefined {
  if (cells.length === 0) return undefined;
  const sorted = [...cells].sort(
    (a, b) =>
      a.workload.localeCompare(b.workload) || a.series.localeCompare(b.series) || (a.threads ?? 0) - (b.threads ?? 0),
  );
  return {
    title: 'docbench: throughput and latency per client thread count',
    note: 'this machine, one run each; latency per operation: mean / p99 in ms',
    header: ['workload', 'store', 'threads', 'ops/s', 'latency ms: mean / p99'],
    rows: sorted.map((c) => [
      c.workload,
      c.series,
      String(c.threads ?? ''),
      cellText(c, throughputOf, 'median', 0),
      latencyText(c),
    ]),
  };
}

export const altoros2022: StudyPreset = {
  name: 'altoros2022',
  title: STUDY_TITLES.altoros2022,
  citation:
    'Shryma, I. (Altoros). Performance Evaluation of NoSQL Databases as a Service: Couchbase Capella and MongoDB Atlas. Altoros, 2022.',
  paperNodes: { count: 6, where: 'Section 1; its smallest of 6, 9 and 18' },
  paperStores: [
    { store: 'couchbase', product: 'Couchbase Capella (the release as of March 2022)', where: 'Section 1' },
    { store: 'mongodb', product: 'MongoDB Atlas v5.0', where: 'Sections 1 and 2.3' },
  ],
  scales: {
    tiny: "a smoke run: 1 / 2 / 3 threads (figures at 2), 2,000 records, 200 customers for pagination and 1,000 for the JOIN (the paper's ÷25,000), 2 s a run",
    small:
      "the paper's shape ÷50 in threads (2 … 14 by 2, figures at 8) and ÷1,000 in data: 50,000 records, 5,000 customers for pagination, 25,000 for the JOIN; 5 s a run",
    full: "the paper's 6-node data sets on one node: 100 … 700 threads by 100 (figures at 400), 50,000,000 records, 5,000,000 customers for pagination, 25,000,000 customers and orders for the JOIN; 300 s a run",
  },
  variants: [
    {
      name: ORDERED,
      description:
        "docbench's pagination instead of the study's: ORDER BY id on a (country, id) index, each page checked as one exact list",
    },
    {
      name: YCSB_E,
      description: "YCSB's standard workload E (95% scan, 5% insert, scans reading every field) instead of the study's",
    },
  ],
  published: ALTOROS_PUBLISHED,
  checks: ALTOROS_CHECKS,
  steps: (context) => {
    const { scale, stores, variant } = context;
    const seconds = by(scale, SECONDS);
    const e = variant === YCSB_E ? 'e' : 'e-altoros2022';
    return [
      sweepStep(
        'ycsb',
        `YCSB workload A and ${variant === YCSB_E ? "YCSB's" : "the study's"} workload E at ${by(scale, RECORDS).toLocaleString('en-US')} records of 1 KB, ${seconds} s at each thread count`,
        stores,
        {
          workloads: ['a', e],
          records: [by(scale, RECORDS)],
          threads: by(scale, THREADS),
          repetitions: 1,
          extraFiles: ['record-1kb'],
          overrides: [`operationcount=${by(scale, RECORDS) * 100}`, `maxexecutiontime=${seconds}`],
        },
      ),
      ecommerceStep(
        context,
        'pagination',
        by(scale, PAGINATION_CUSTOMERS),
        variant === ORDERED ? [] : ['ordered=false'],
        1,
      ),
      ecommerceStep(context, 'join', by(scale, JOIN_CUSTOMERS), [], 2),
    ];
  },
  design: ({ scale, variant }) => [
    differs(
      'cluster',
      '"three different cluster configurations—6, 9, and 18 nodes" (Section 1); Atlas sharded, each shard a 3-member replica set, hash-based partitioning (Section 2.3)',
      'one node per store: no sharding, no replicas, no routers',
    ),
    differs(
      'hardware',
      'Capella and Atlas M60 nodes of 8 vCPUs and 64 GB with 200 GB storage and 5,700 IOPS (Tables 2.2, 2.3); YCSB on c4.2xlarge instances, 8 vCPUs, 15 GiB (Table 2.1)',
      'this machine (recorded in every result); client and servers share it',
    ),
    sizes(
      scale,
      'threads',
      '"Each client instance of YCSB produces threads from 25 to 175 in 25-thread increments, just for Workload A … from 10 to 70 … the total load on the database ranged from 100 to 700 threads" (Section 2.1)',
      `${list(by(scale, THREADS))} client threads in one client process`,
    ),
    same(
      'figures at',
      '"the median number of threads (generally, 400) was used to determine the throughput and latency" (Section 2.1)',
      `throughput and latency at the median thread count run (${median(by(scale, THREADS))}), beside every thread count`,
    ),
    sizes(
      scale,
      'workload A data',
      '"50 million records (each 1 KB in size, consisting of 10 fields and a key) on a 6-node cluster, 100 million … on a 9-node cluster, and 200 million … on a 18-node cluster" (Section 4.1.1)',
      `${by(scale, RECORDS).toLocaleString('en-US')} records of 10 × 100 B (full: the 6-node data set)`,
    ),
    same('workload A', '"50% read and 50% update, request distribution is Zipfian" (Section 3.1)', "YCSB's workloada"),
    differs(
      'updates',
      'Couchbase: collection.upsert(id, content, …) in A and collection.replace(id, content, …) in E, the whole document; MongoDB: update({_id: $1}, {$set: {fieldN: $2}}), one field (Tables 4.1.2, 4.2.2)',
      "YCSB's update of one field on every store (Couchbase: a sub-document upsert of that field)",
    ),
    variant === YCSB_E
      ? differs(
          'workload E',
          '"95% scans and 5% updates" (Section 1); "The scan/update ratio was 95%–5%", Zipfian, maximum scan length 100, uniform (Section 4.2.1); scans return ids only (Table 4.2.2)',
          "YCSB's standard workload E (95% scan, 5% insert, whole records) — variant ycsb-e",
        )
      : same(
          'workload E',
          '"95% scans and 5% updates" (Section 1); "The scan/update ratio was 95%–5%", Zipfian, maximum scan length 100, uniform (Section 4.2.1); scans return ids only: SELECT meta().id … / find(…, {_id: 1}) (Table 4.2.2)',
          "workloade-altoros2022: 95% scan, 5% update, zipfian, scan length uniform ≤ 100, keys only (scankeysonly=true); YCSB's workloade unchanged",
        ),
    differs(
      'workload E distribution',
      'Section 3.1: "request distribution is Uniform"; Section 4.2.1: "The Zipfian request distribution was used" (the report disagrees with itself)',
      "zipfian, as the workload's own settings (Section 4.2.1) say",
    ),
    sizes(
      scale,
      'pagination data',
      '"5 million customers (each 4 KB in size) on a 6-node cluster, 25 million customers on a 9-node cluster, and 100 million customers on an 18-node cluster" (Section 4.3.1)',
      `${by(scale, PAGINATION_CUSTOMERS).toLocaleString('en-US')} customers (full: the 6-node data set), one order each`,
    ),
    variant === ORDERED
      ? differs(
          'pagination query',
          "SELECT meta().id FROM `bucket` WHERE address.country='$1' OFFSET $2 LIMIT $3 and find({address.country: $1}, {_id: 1}).skip($2).limit($3): no ORDER BY (Table 4.3.2); index on address.country alone (Sections 4.3.1, 6.3)",
          "docbench's ordered page: ORDER BY id on a (country, id) index, each page one exact list — variant ordered-pagination",
        )
      : same(
          'pagination query',
          "SELECT meta().id FROM `bucket` WHERE address.country='$1' OFFSET $2 LIMIT $3 and find({address.country: $1}, {_id: 1}).skip($2).limit($3): no ORDER BY (Table 4.3.2); index on address.country alone (Sections 4.3.1, 6.3)",
          'the same query without ORDER BY (-p ordered=false) on an address.country-only index (paginationindex=country); each page checked as a set: ids of the country, none twice, as many as OFFSET and LIMIT leave',
        ),
    same(
      'pagination parameters',
      '"The maximum of a query length reached 100 records … Uniform … The maximum query offset reached 5 records … Uniform" (Section 4.3.1)',
      'LIMIT uniform 1–100, OFFSET uniform 0–5',
    ),
    sizes(
      scale,
      'JOIN data',
      '"25 million customers and 25 million orders (each 4.5 KB in size) on a 6-node cluster, 25 million customers and 25 million orders on a 9-node cluster, and 100 million … on a 18-node cluster" (Section 4.4.1)',
      `${by(scale, JOIN_CUSTOMERS).toLocaleString('en-US')} customers and as many orders (full: the 6-node data set)`,
    ),
    differs(
      'customers per zip',
      "not stated (Section 4.4.1 gives the numbers of customers and orders, not how many customers the JOIN's zip selects)",
      "about 250 customers a zip at every size (-p customersperzip), docbench's estimate: YCSB-JSON's data generator draws five-digit postal codes (at most 100,000), about 250 customers a code at 25 million customers; so the JOIN's fan-out does not grow with the data",
    ),
    differs(
      'JOIN query',
      'Couchbase: ANSI JOIN … ON (meta(o2).id IN c2.order_list) … GROUP BY … ORDER BY SUM(o2.sale_price), and Index JOIN (ON KEYS) (Section 4.4.1, Table 4.4.2); MongoDB: a two-phase read, since v5.0 "did not support the $lookup aggregation on sharded collections" (Section 4.4.1)',
      "every variant each store has: Couchbase ansi and on-keys; MongoDB two-phase (the study's) and also lookup (a $lookup pipeline, possible on one unsharded node); the tables name each",
    ),
    differs(
      'run length',
      'not stated (operations or duration per run)',
      `${by(scale, SECONDS)} s at each thread count`,
    ),
    differs('repetitions', 'not stated', 'one run at each thread count'),
    same(
      'conditions',
      '"Data fits memory. Durability is false. Replication is set to \'1\'" (Section 3.2)',
      "each store's default write acknowledgement without durability options, one node without replicas; data fits this machine's memory at tiny and small",
    ),
    differs(
      'latency statistic',
      'not stated (latencies in ms per cluster, Sections 4.1.4–4.4.4)',
      'mean and p99 of each operation, from the HDR histograms',
    ),
  ],
  figures: (results) => {
    const cells = runCells(results);
    return present([atMedianThreads(cells), perThreads(cells)]);
  },
  charts: (results): ChartSpec[] => {
    const cells = runCells(results);
    return distinct(cells.map((c) => c.workload))
      .map((w) =>
        linesChart(
          results,
          cells.filter((c) => c.workload === w),
          throughputOf,
          {
            section: SECTION,
            title: `${w}: throughput against client threads`,
            x: 'threads',
            yTitle: 'ops/s',
            statistic: 'median',
          },
        ),
      )
      .filter((c): c is ChartSpec => c !== undefined);
  },
};
