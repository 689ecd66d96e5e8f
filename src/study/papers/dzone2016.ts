/**
 * DZone 2016, "Testing YCSB Workload E for Query Performance": Avalon's run of YCSB's workload E,
 * unmodified, on Couchbase Server 4.5 and MongoDB 3.2, nine r3.8xlarge nodes, 150 million items;
 * the peaks in the text, throughput against client threads in a chart.
 */
import { throughputOf } from '../../report/groups.ts';
import type { ChartSpec } from '../../report/chart-spec.ts';
import { cellText, present, runCells } from '../docbench-tables.ts';
import type { ArithmeticCheck, PublishedTable } from '../paper.ts';
import { by, differs, list, same, sizes, sweepStep, type Scale, type StudyPreset } from '../preset.ts';
import { linesChart } from '../shape-charts.ts';
import { STUDY_TITLES } from '../study-titles.ts';

const RECORDS: Record<Scale, number> = { tiny: 1_500, small: 150_000, full: 150_000_000 };
const THREADS: Record<Scale, number[]> = { tiny: [1, 2], small: [1, 2, 4, 8, 16], full: [8, 16, 32, 64, 128] };
const SECONDS: Record<Scale, number> = { tiny: 2, small: 10, full: 300 };
const LIMIT_50 = 'limit50';

const PUBLISHED: readonly PublishedTable[] = [
  {
    id: 'peaks',
    title: 'Peak query throughput, workload E, nine nodes',
    where: 'the article, paragraphs 3–4 and its first chart',
    provenance: 'stated in the text',
    statistic:
      'the most queries a second reached (throughput against client threads is a chart whose values are not printed)',
    unit: 'queries/s',
    note: 'Nine r3.8xlarge nodes (32 cores, 60 GB RAM, SSDs), 150 million items; the report behind the article (Avalon) is not in the article. Not comparable in value with one machine: compare the shape (which store scales with client threads).',
    header: ['store', 'queries/s', 'the article says'],
    rows: [
      [
        'Couchbase Server 4.5 (global index)',
        'more than 30,000',
        'Couchbase Server delivers more than 30,000 queries/sec on the same nine-node AWS deployment',
      ],
      [
        'MongoDB 3.2 (local indexes, scatter-gather)',
        'more than 8,000',
        'MongoDB can provide more than 8,000 queries/sec',
      ],
    ],
  },
  {
    id: 'scatter',
    title: 'Items a scatter-gather query moves',
    where: 'the article, paragraph 6',
    provenance: 'stated in the text',
    statistic: 'items per query',
    unit: 'items',
    header: ['what', 'the article says'],
    rows: [['items in all', 'For the nine nodes, that means 450 items (9*50 items) travelling back to a single node']],
  },
];

const CHECKS: readonly ArithmeticCheck[] = [
  {
    claim: 'nine nodes × a top 50 each = 450 items',
    where: 'the article, paragraph 6',
    printed: (c) => c('scatter', 'items in all', 'the article says', 0),
    computed: (c) =>
      c('scatter', 'items in all', 'the article says', 1) * c('scatter', 'items in all', 'the article says', 2),
    tolerance: 0,
  },
];

export const dzone2016: StudyPreset = {
  name: 'dzone2016',
  title: STUDY_TITLES.dzone2016,
  citation:
    "DZone (2016). Testing YCSB Workload E for Query Performance (on Avalon's report: Couchbase Server 4.5 vs MongoDB 3.2).",
  paperNodes: { count: 9, where: 'the article, paragraph 2' },
  paperStores: [
    { store: 'couchbase', product: 'Couchbase Server 4.5', where: 'the article, paragraph 2' },
    { store: 'mongodb', product: 'MongoDB 3.2', where: 'the article, paragraph 2' },
  ],
  scales: {
    tiny: "a smoke run: 1,500 items (the article's 150 million ÷100,000), 1 / 2 threads, 2 s a run",
    small: "the article's shape on 150,000 items (÷1,000), 1 / 2 / 4 / 8 / 16 threads, 10 s a run",
    full: "the article's 150,000,000 items on one node, 8 / 16 / 32 / 64 / 128 threads, 300 s a run",
  },
  variants: [
    {
      name: LIMIT_50,
      description:
        'every scan asks for exactly 50 records (minscanlength = maxscanlength = 50), as the article\'s "limit 50" reads; not workload E unmodified',
    },
  ],
  published: PUBLISHED,
  checks: CHECKS,
  steps: ({ scale, stores, variant }) => [
    sweepStep(
      'workload-e',
      `YCSB's workload E${variant === LIMIT_50 ? ' with every scan 50 records long' : ', unmodified'}, ${by(scale, SECONDS)} s at each thread count`,
      stores,
      {
        workloads: ['e'],
        records: [by(scale, RECORDS)],
        threads: by(scale, THREADS),
        repetitions: 1,
        overrides: [
          ...(variant === LIMIT_50 ? ['minscanlength=50', 'maxscanlength=50'] : []),
          `operationcount=${by(scale, RECORDS) * 10}`,
          `maxexecutiontime=${by(scale, SECONDS)}`,
        ],
      },
    ),
  ],
  design: ({ scale, variant }) => [
    differs(
      'cluster',
      '"nine nodes of r3.8xlarges" (paragraph 2)',
      'one node per store: no scatter-gather between nodes',
    ),
    differs(
      'hardware',
      '"r3.8xlarges (32 cores and 60GB RAM with SSDs)" (paragraph 2)',
      'this machine (recorded in every result); client and servers share it',
    ),
    sizes(
      scale,
      'items',
      '"150 million items in the database" (paragraph 2)',
      `${by(scale, RECORDS).toLocaleString('en-US')} records`,
    ),
    variant === LIMIT_50
      ? differs(
          'workload',
          '"it uses the most popular YCSB repo … it has not modified the original benchmark definitions in any way" (paragraph 1); "95% query and 5% insert"',
          "YCSB's workload E with every scan 50 long — variant limit50, not the workload unmodified",
        )
      : same(
          'workload',
          '"it uses the most popular YCSB repo … it has not modified the original benchmark definitions in any way" (paragraph 1); "95% query and 5% insert"',
          "YCSB's workload E unmodified: 95% scan, 5% insert, zipfian keys, scan lengths uniform 1–100",
        ),
    differs(
      'scan length',
      "\"Queries run a 'range scan' with 'order by' and 'limit 50'\" (paragraph 2), which unmodified workload E does not do: it draws each scan's length uniformly up to 100 (the article contradicts itself)",
      variant === LIMIT_50
        ? 'every scan 50 records long (the "limit 50" reading)'
        : 'scan lengths as workload E draws them, uniform 1–100 (the "unmodified" reading; variant limit50 runs the other)',
    ),
    same(
      'record',
      "not stated; unmodified workload E means YCSB's default record",
      "YCSB's default: 10 fields × 100 B",
    ),
    differs(
      'threads',
      'throughput "vs the number of client threads" is a chart (paragraph 8) whose thread counts are not printed',
      `${list(by(scale, THREADS))} client threads (docbench's choice)`,
    ),
    differs('run length', 'not stated', `${by(scale, SECONDS)} s at each thread count`),
    differs('repetitions', 'not stated', 'one run at each thread count'),
    same(
      'statistic',
      'queries a second, the peak stated in the text (paragraph 3)',
      'throughput at each thread count, and the highest of them',
    ),
  ],
  figures: (results) => {
    const cells = runCells(results).filter((c) => c.workload === 'workloade');
    const series = [...new Set(cells.map((c) => c.series))];
    const threads = [...new Set(cells.map((c) => c.threads ?? 0))].sort((a, b) => a - b);
    if (cells.length === 0) return [];
    const rows = series.map((s) => {
      const mine = cells.filter((c) => c.series === s);
      // The peak names how much of it was not OK, as every cell does.
      const best = mine.reduce((a, b) => (throughputOf(b).median > throughputOf(a).median ? b : a));
      return [
        s,
        ...threads.map((t) => {
          const cell = mine.find((c) => c.threads === t);
          return cell ? cellText(cell, throughputOf, 'median', 0) : '';
        }),
        `${cellText(best, throughputOf, 'median', 0)} at ${best.threads} threads`,
      ];
    });
    return present([
      {
        title: "docbench: workload E throughput (ops/s) per client thread count, and the peak (the article's figure)",
        note: 'this machine, one run each',
        header: ['store', ...threads.map((t) => `${t} threads`), 'peak'],
        rows,
      },
    ]);
  },
  charts: (results): ChartSpec[] => {
    const chart = linesChart(
      results,
      runCells(results).filter((c) => c.workload === 'workloade'),
      throughputOf,
      {
        section: "DZone 2016's chart, from this run",
        title: 'Workload E throughput against client threads',
        x: 'threads',
        yTitle: 'ops/s',
        statistic: 'median',
      },
    );
    return chart ? [chart] : [];
  },
};
