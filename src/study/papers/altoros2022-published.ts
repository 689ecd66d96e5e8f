/**
 * Altoros 2022, "Performance Evaluation of NoSQL Databases as a Service: Couchbase Capella and
 * MongoDB Atlas": the figures its text states (its charts, Figures 4.1.3–4.4.3, carry the rest),
 * all at "the median number of threads (generally, 400)" of 100–700 client threads (Section 2.1).
 */
import type { ArithmeticCheck, PublishedTable } from '../paper.ts';

const AT_THE_MEDIAN =
  '"For this report, the median number of threads (generally, 400) was used to determine the throughput and latency" (Section 2.1); one run each (repetitions not stated)';
const NOTE =
  "Couchbase Capella (March 2022) and MongoDB Atlas v5.0 as managed services on AWS us-east-1, clusters of 6, 9 and 18 nodes of 8 vCPUs and 64 GB (Capella: 200 GB EBS, 5,700 IOPS; Atlas: M60, sharded, each shard a 3-member replica set); YCSB clients on c4.2xlarge instances (8 vCPUs, 15 GiB), 4 of them (10 for workload A), 100–700 threads in total. A blank cell: the text gives no figure (the report's charts do). Not comparable in value with one machine: compare the shape.";

export const ALTOROS_PUBLISHED: readonly PublishedTable[] = [
  {
    id: 'throughput',
    title: 'Throughput (ops/sec) at the median number of client threads, per cluster size',
    where: 'Sections 4.1.3, 4.2.3, 4.3.3, 4.4.3',
    provenance: 'stated in the text',
    statistic: AT_THE_MEDIAN,
    unit: 'ops/s',
    note: NOTE,
    header: [
      'workload',
      'Capella 6 nodes',
      'Atlas 6 nodes',
      'Capella 9 nodes',
      'Atlas 9 nodes',
      'Capella 18 nodes',
      'Atlas 18 nodes',
      'where',
    ],
    rows: [
      ['workload A', '355,520', '31,030', 'up to 417,980', '38,340', '523,020', '55,870', 'Section 4.1.3'],
      [
        'workload E (95% scan, 5% update)',
        '30,388',
        '20,532',
        '53,092',
        '21,220',
        '98,808',
        '"similar results on all cluster sizes"',
        'Section 4.2.3',
      ],
      ['pagination', '51,952', '36,392', '60,680', '35,325', '65,228', '29,300', 'Section 4.3.3'],
      ['JOIN', '34,448', '884', '', '"decreased on a 9-node cluster"', '56,828', '60', 'Section 4.4.3'],
    ],
  },
  {
    id: 'latency',
    title: 'Latency at the median number of client threads, per cluster size',
    where: 'Sections 4.1.4, 4.2.4, 4.3.4, 4.4.4',
    provenance: 'stated in the text',
    statistic: `${AT_THE_MEDIAN}; which latency statistic (mean or a percentile) the text does not say`,
    unit: 'ms',
    note: NOTE,
    header: [
      'workload',
      'Capella 6 nodes',
      'Atlas 6 nodes',
      'Capella 9 nodes',
      'Atlas 9 nodes',
      'Capella 18 nodes',
      'Atlas 18 nodes',
      'where',
    ],
    rows: [
      ['workload A', '1.5 ms', '15 ms', 'less than 1 ms', '', 'less than 1 ms', '7 ms', 'Section 4.1.4'],
      ['workload E (95% scan, 5% update)', '7 ms', '29 ms', '', '', '3.2 ms', '21 ms', 'Section 4.2.4'],
      ['pagination', '3 ms', '11 ms', '', '12.4 ms', '6 ms', '14.4 ms', 'Section 4.3.4'],
      ['JOIN', 'about 9 ms', '', 'about 9 ms', '', 'about 9 ms', 'about 10,400 ms', 'Section 4.4.4'],
    ],
  },
  {
    id: 'clients',
    title: 'Client threads',
    where: 'Section 2.1',
    provenance: 'stated in the text',
    statistic: 'threads per YCSB client instance, and in total',
    unit: 'threads',
    header: ['workloads', 'client instances', 'threads per instance', 'in total', 'the figures at'],
    rows: [
      [
        'E, pagination, JOIN',
        '4 instances',
        '25 to 175 in 25-thread increments',
        '100 to 700 threads',
        'the median, 400',
      ],
      ['A', '10 instances', '10 to 70 in 10-thread increments', '100 to 700 threads', 'the median, 400'],
    ],
  },
  {
    id: 'pricing',
    title: 'Approximate monthly cost of each cluster',
    where: 'Sections 1 and 2.4',
    provenance: 'stated in the text',
    statistic: 'US dollars a month',
    unit: '$',
    header: ['service', '6 nodes', '9 nodes', '18 nodes', 'the report says'],
    rows: [
      [
        'Couchbase Capella',
        '$5,284',
        '$7,926',
        '$15,851',
        '"the operating costs of Capella were over 40% less than MongoDB Atlas" (Section 1)',
      ],
      ['MongoDB Atlas', '$9,756', '$14,292', '$28,050', ''],
    ],
  },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => from + i * step);

export const ALTOROS_CHECKS: readonly ArithmeticCheck[] = [
  ...(['E, pagination, JOIN', 'A'] as const).flatMap((row): ArithmeticCheck[] => [
    {
      claim: `${row}: instances × the fewest threads each = the fewest in total`,
      where: 'Section 2.1',
      printed: (c) => c('clients', row, 'in total', 0),
      computed: (c) => c('clients', row, 'client instances') * c('clients', row, 'threads per instance', 0),
      tolerance: 0,
    },
    {
      claim: `${row}: instances × the most threads each = the most in total`,
      where: 'Section 2.1',
      printed: (c) => c('clients', row, 'in total', 1),
      computed: (c) => c('clients', row, 'client instances') * c('clients', row, 'threads per instance', 1),
      tolerance: 0,
    },
    {
      claim: `${row}: the median of the thread counts run is the one the figures are at`,
      where: 'Section 2.1',
      printed: (c) => c('clients', row, 'the figures at'),
      computed: (c) => median(range(c('clients', row, 'in total', 0), c('clients', row, 'in total', 1), 100)),
      tolerance: 0,
    },
  ]),
  ...(['6 nodes', '9 nodes', '18 nodes'] as const).map((size): ArithmeticCheck => ({
    claim: `${size}: Capella costs over 40% less than Atlas`,
    where: 'Sections 1 and 2.4',
    printed: () => 40,
    computed: (c) => (1 - c('pricing', 'Couchbase Capella', size) / c('pricing', 'MongoDB Atlas', size)) * 100,
    tolerance: 0,
    relation: 'at least',
  })),
  {
    claim: 'workload A: Atlas latency "halved from 15 ms on a 6-node cluster to 7 ms on an 18-nodes cluster"',
    where: 'Section 4.1.4',
    printed: () => 0.5,
    computed: (c) => c('latency', 'workload A', 'Atlas 18 nodes') / c('latency', 'workload A', 'Atlas 6 nodes'),
    tolerance: 0.05,
  },
  {
    claim:
      'pagination: "the size of the data set and indexes being doubled, while the cluster size increased by only 50%" (6 → 9 nodes)',
    where: 'Sections 4.3.1 and 4.3.4',
    printed: () => 2,
    // Section 4.3.1: 5 million customers on 6 nodes, 25 million on 9, 100 million on 18.
    computed: () => 25 / 5,
    tolerance: 0,
    discrepancy:
      'Section 4.3.1 seeds 5 million customers on 6 nodes, 25 million on 9 and 100 million on 18: the data set grew 5× while the cluster grew 50%, and 4× while it doubled, not "doubled"',
  },
];
