/**
 * Tang & Fan 2016, "Performance Comparison between Five NoSQL Databases": the paper draws its
 * results as charts (Figures 1–4) and states in its text one figure per chart and ratios between
 * the stores. Those are kept verbatim; the seconds they imply are derived (a base times the
 * ratio the text gives) and marked so.
 */
import type { ArithmeticCheck, PublishedTable } from '../paper.ts';

const NOTE =
  'Hardware: a 4-node cluster per store on Ubuntu server VMs with 12 GB RAM, 256 GB HDD and quad-core CPUs, YCSB on a fifth VM (Section IV); 10 fields × 100 B records. Not comparable in value with one machine: compare the order of the stores and how figures grow with the record count.';

export const TANG_PUBLISHED: readonly PublishedTable[] = [
  {
    id: 'fig1',
    title: 'Fig. 1. Loading time for 100,000 records with five databases.',
    where: 'Figure 1 and Section V.A.1',
    provenance: 'derived from the text',
    statistic: 'one load (repetitions not stated)',
    unit: 's',
    note: `${NOTE} The chart's bars carry no printed values: Redis's "nearly 8 seconds" is stated, the other stores' seconds are 8 × the ratio the text states.`,
    header: ['store', 'the paper says', 'where', 'load time (s), derived'],
    rows: [
      ['Redis', 'a loading time of nearly 8 seconds', 'Section V.A.1', '≈ 8 (stated)'],
      ['MongoDB', '[Redis] is 1.31 times faster than MongoDB', 'Section V.A.1', '≈ 10.48 (8 × 1.31)'],
      [
        'Cassandra',
        'Cassandra and HBase, were 1.71 times and 1.86 times slower than Redis',
        'Section V.A.1',
        '≈ 13.68 (8 × 1.71)',
      ],
      [
        'HBase',
        'Cassandra and HBase, were 1.71 times and 1.86 times slower than Redis',
        'Section V.A.1',
        '≈ 14.88 (8 × 1.86)',
      ],
      ['Couchbase', 'Couchbase, which was 2.49 times slower than Redis', 'Section V.A.1', '≈ 19.92 (8 × 2.49)'],
    ],
  },
  {
    id: 'fig2',
    title: 'Fig. 2. Executing time for 100,000 records with five databases.',
    where: 'Figure 2 and Section V.A.2',
    provenance: 'derived from the text',
    statistic:
      'the average execution time over workloads A, C and H, 10,000 operations each (one run each; repetitions not stated)',
    unit: 's',
    note: `${NOTE} Redis's 1.1 s average is stated; the other stores' averages are 1.1 × the ratio the text states.`,
    header: ['store', 'the paper says', 'where', 'mean of A, C, H (s), derived'],
    rows: [
      [
        'Redis',
        'Redis showed the best performance with the average execution time of 1.1 seconds',
        'Section V.A.2',
        '≈ 1.1 (stated)',
      ],
      ['MongoDB', 'which was 1.56 times better than MongoDB', 'Section V.A.2', '≈ 1.72 (1.1 × 1.56)'],
      ['Couchbase', '2.02 times faster than Couchbase', 'Section V.A.2', '≈ 2.22 (1.1 × 2.02)'],
      [
        'HBase',
        'HBase and Cassandra were the slowest, 3.61 times and 4.90 times slower than Redis',
        'Section V.A.2',
        '≈ 3.97 (1.1 × 3.61)',
      ],
      [
        'Cassandra',
        'HBase and Cassandra were the slowest, 3.61 times and 4.90 times slower than Redis',
        'Section V.A.2',
        '≈ 5.39 (1.1 × 4.90)',
      ],
      [
        'HBase vs Cassandra, workload C',
        'In workload C test … HBase was 1.58 times faster than Cassandra',
        'Section V.A.2',
        '1.58 (a ratio; no seconds given)',
      ],
    ],
  },
  {
    id: 'fig3',
    title: 'Fig. 3. Throughput of loading data with increasing recordcount.',
    where: 'Figure 3 and Section V.B.1',
    provenance: 'stated in the text',
    statistic: 'load throughput (ops/s) at each record count: 10k, 100k, 1M, 5M, 10M (one load each)',
    unit: 'ops/s',
    note: `${NOTE} The chart's points carry no printed values; the text states these.`,
    header: ['store', 'the paper says', 'where'],
    rows: [
      [
        'all five',
        'the five curves have the same trend where the throughput increases firstly and goes to a relatively stable condition as the record count increases',
        'Section V.B.1',
      ],
      ['Redis', 'Redis was increasing at the fastest pace to over 2w ops / sec throughput finally', 'Section V.B.1'],
      [
        'Redis',
        'When the record size reached 1000w, Redis failed to handle the load requests since it had only 12GB of memory available, so that the curve of Redis had only 4 points',
        'Section V.B.1',
      ],
      [
        'Cassandra, Couchbase',
        'the throughput of Cassandra and Couchbase grew more rapidly compared to HBase and MongoDB',
        'Section V.B.1',
      ],
    ],
  },
  {
    id: 'fig4',
    title: 'Fig. 4. Throughput of executing workload A with increasing recordcount.',
    where: 'Figure 4 and Section V.B.2',
    provenance: 'stated in the text',
    statistic: 'workload A throughput (ops/s), operations 10% of the records, at each record count (one run each)',
    unit: 'ops/s',
    note: `${NOTE} The chart's points carry no printed values; the text states these ratios (at which record count, it does not say).`,
    header: ['store', 'the paper says', 'where'],
    rows: [
      ['Redis', 'Redis still showed the best throughput performance when the record was under 1000w', 'Section V.B.2'],
      ['Redis vs HBase', 'it was 3.42 times better than HBase', 'Section V.B.2'],
      ['Redis vs Couchbase', '1.55 times better than Couchbase', 'Section V.B.2'],
      [
        'MongoDB',
        'throughput and efficiency of MongoDB decreased when the record exceeded a certain count limit (100w)',
        'Section V.B.2',
      ],
    ],
  },
];

/** A derived cell is its base times the stated ratio, to the two decimals shown. */
function derived(table: string, store: string, base: number, ratio: number): ArithmeticCheck {
  return {
    claim: `${table === 'fig1' ? 'Figure 1' : 'Figure 2'}, ${store}: ${base} × ${ratio} as derived`,
    where: table === 'fig1' ? 'Section V.A.1' : 'Section V.A.2',
    printed: (cell) => cell(table, store, table === 'fig1' ? 'load time (s), derived' : 'mean of A, C, H (s), derived'),
    computed: () => base * ratio,
    tolerance: 0.005 + 1e-9,
  };
}

/**
 * The paper has no totals; its ratios are all it computes, and they agree with its order "from
 * fast to slow" (Section V.A.1). The checks keep docbench's derived seconds true to them.
 */
export const TANG_CHECKS: readonly ArithmeticCheck[] = [
  derived('fig1', 'MongoDB', 8, 1.31),
  derived('fig1', 'Cassandra', 8, 1.71),
  derived('fig1', 'HBase', 8, 1.86),
  derived('fig1', 'Couchbase', 8, 2.49),
  derived('fig2', 'MongoDB', 1.1, 1.56),
  derived('fig2', 'Couchbase', 1.1, 2.02),
  derived('fig2', 'HBase', 1.1, 3.61),
  derived('fig2', 'Cassandra', 1.1, 4.9),
  {
    claim:
      'Figure 1: the stores in the order the text sorts them, "from fast to slow" (each ratio larger than the one before)',
    where: 'Section V.A.1',
    printed: () => 1,
    computed: (cell) => {
      const order = ['Redis', 'MongoDB', 'Cassandra', 'HBase', 'Couchbase'].map((s) =>
        cell('fig1', s, 'load time (s), derived'),
      );
      return order.every((v, i) => i === 0 || v > order[i - 1]!) ? 1 : 0;
    },
    tolerance: 0,
  },
];
