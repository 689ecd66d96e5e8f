/**
 * Carvalho, Sá, Bernardino (2023), "Performance Evaluation of NoSQL Document Databases:
 * Couchbase, CouchDB, and MongoDB", Algorithms 16(78): every figure its tables print, verbatim,
 * and the arithmetic that ties them together (Section 5). Runtime is YCSB's [OVERALL] RunTime,
 * the mean of three runs (Section 4, p. 9); one HP Pavilion laptop, Windows 10.
 */
import type { ArithmeticCheck, PublishedLookup, PublishedTable } from '../paper.ts';

const STATISTIC =
  'mean of 3 runs ("three executions were performed, and the average of these runtime values was used", Section 4, pp. 8–9)';
const NOTE =
  "The paper's figures from its hardware: one HP Pavilion laptop 15t-eg000, AMD Ryzen 5 4500U (6 cores), 15.4 GB RAM, 476 GB SSD, Windows 10 (Section 4, p. 9); YCSB, 20 fields × 500 B. Not comparable in value with this machine's: compare the shape.";
const RECORDS = ['100,000 Records', '1,000,000 Records', '10,000,000 Records'];

/** Tables 2, 4, 6: runtime per workload with 3 threads. */
function perWorkload(id: string, store: string, number: number, where: string, rows: string[][]): PublishedTable {
  return {
    id,
    title: `Table ${number}. Runtime of ${store} with 3 threads.`,
    where,
    provenance: 'printed in a table',
    statistic: STATISTIC,
    unit: 's',
    note: NOTE,
    header: [store, ...RECORDS],
    rows,
  };
}

/** Tables 3, 5, 7: runtime of all workloads per thread count. */
function perThreads(id: string, store: string, number: number, where: string, rows: string[][]): PublishedTable {
  return {
    id,
    title: `Table ${number}. Runtime of ${store}${number === 3 ? ' for all workloads' : ''}.`,
    where,
    provenance: 'printed in a table',
    statistic: `sum over workloads A–H of each workload's ${STATISTIC}`,
    unit: 's',
    note: NOTE,
    header: [store, ...RECORDS],
    rows,
  };
}

export const CARVALHO_PUBLISHED: readonly PublishedTable[] = [
  perWorkload('table2', 'Couchbase', 2, 'Table 2, Section 5.1, p. 9', [
    ['Workload A', '10.28 s', '1037.79 s', '85,910.67 s'],
    ['Workload B', '9.27 s', '687.31 s', '33,770.34 s'],
    ['Workload C', '6.72 s', '80.34 s', '3423.30 s'],
    ['Workload D', '12.01 s', '201.87 s', '29,839.63 s'],
    ['Workload E', '373.08 s', '3288.45 s', '34,028.25 s'],
    ['Workload F', '33.16 s', '2822.24 s', '47,416.49 s'],
    ['Workload G', '20.63 s', '523.50 s', '6905.86 s'],
    ['Workload H', '22.88 s', '83.78 s', '1078.91 s'],
    ['Total', '488.03 s (8.13 min)', '8725.28 s (145.42 min)', '242,373.45 s (4039.56 min)'],
  ]),
  perThreads('table3', 'Couchbase', 3, 'Table 3, Section 5.1, p. 10', [
    ['1 Thread', '1094.68 s', '18,951.37 s', '384,101.63 s'],
    ['3 Threads', '488.03 s', '8725.28 s', '242,373.45 s'],
    ['6 Threads', '256.29 s', '6066.70 s', '148,339.99 s'],
    ['Total', '1839.00 s (30.65 min)', '33,743.33 s (562.39 min)', '774,815.06 s (12.913.58 min)'],
  ]),
  perWorkload('table4', 'CouchDB', 4, 'Table 4, Section 5.2, p. 10', [
    ['Workload A', '10.58 s', '1278.84 s', '18,513.14 s'],
    ['Workload B', '14.83 s', '790.41 s', '28,537.45 s'],
    ['Workload C', '17.20 s', '145.05 s', '4150.06 s'],
    ['Workload D', '19.00 s', '194.48 s', '9021.59 s'],
    ['Workload E', '181.30 s', '2806.93 s', '45,257.58 s'],
    ['Workload F', '22.58 s', '734.97 s', '8988.81 s'],
    ['Workload G', '26.41 s', '789.59 s', '12,043.40 s'],
    ['Workload H', '22.37 s', '356.89 s', '6058.88 s'],
    ['Total', '314.27 s (5.24 min)', '7097.16 s (118.29 min)', '132,570.91 s (2209.52 min)'],
  ]),
  perThreads('table5', 'CouchDB', 5, 'Table 5, Section 5.2, p. 11', [
    ['1 Thread', '742.38 s', '12,233.93 s', '222,046.97 s'],
    ['3 Threads', '314.27 s', '7097.16 s', '132,570.91 s'],
    ['6 Threads', '243.09 s', '3937.96 s', '66,041.70 s'],
    ['Total', '1299.74 s (20.50 min)', '23,269.05 s (387.82 min)', '420,659.55 s (7010.99 min)'],
  ]),
  perWorkload('table6', 'MongoDB', 6, 'Table 6, Section 5.3, p. 11', [
    ['Workload A', '10.65 s', '297.41 s', '4950.83 s'],
    ['Workload B', '7.15 s', '122.37 s', '2564.01 s'],
    ['Workload C', '6.61 s', '111.58 s', '2305.59 s'],
    ['Workload D', '7.31 s', '81.03 s', '1427.47 s'],
    ['Workload E', '78.82 s', '4491.09 s', '126,310.74 s'],
    ['Workload F', '13.52 s', '296.36 s', '4756.72 s'],
    ['Workload G', '12.22 s', '541.20 s', '6765.96 s'],
    ['Workload H', '12.22 s', '463.96 s', '7034.36 s'],
    ['Total', '137.85 s (2.30 min)', '6107.59 s (101.79 min)', '151,164.85 s (2519.41 min)'],
  ]),
  perThreads('table7', 'MongoDB', 7, 'Table 7, Section 5.3, p. 12', [
    ['1 Thread', '297.30 s', '8883.50 s', '197,138.39 s'],
    ['3 Threads', '137.85 s', '6107.59 s', '151,164.85 s'],
    ['6 Threads', '115.41 s', '5609.53 s', '141,708.75 s'],
    ['Total', '550.56 s (9.18 min)', '20,600.62 s (343.34 min)', '490,011.99 s (8166.87 min)'],
  ]),
  {
    id: 'table8',
    title: 'Table 8. Runtime of all records used of Couchbase, CouchDB, and MongoDB.',
    where: 'Table 8, Section 5.4, p. 14',
    provenance: 'printed in a table',
    statistic: 'sum over workloads A–H, 1/3/6 threads and 100k/1M/10M records of the means of 3 runs',
    unit: 's',
    note: NOTE,
    header: ['', 'Couchbase', 'CouchDB', 'MongoDB'],
    rows: [['Total', '810,397.40 s (13,506.62 min)', '445,228.30 s (7420.47 min)', '510,909.90 s (8515.16 min)']],
  },
  {
    id: 'table9',
    title: 'Table 9. Total runtime of workload E.',
    where: 'Table 9, Section 5.4, p. 14',
    provenance: 'printed in a table',
    statistic: 'sum over 1/3/6 threads and 100k/1M/10M records of the means of 3 runs',
    unit: 's',
    note: NOTE,
    header: ['Workload E', 'Couchbase', 'CouchDB', 'MongoDB'],
    rows: [['Total', '147,909.45 s (2465.16 min)', '134,837.95 s (2247.30 min)', '417,344.15 s (6955.74 min)']],
  },
  {
    id: 'table10',
    title: 'Table 10. Runtime, in seconds, of all workloads except workload E.',
    where: 'Table 10, Section 5.4, p. 15',
    provenance: 'printed in a table',
    statistic: 'sum over workloads A–D and F–H, 1/3/6 threads and 100k/1M/10M records of the means of 3 runs',
    unit: 's',
    note: NOTE,
    header: ['', 'Couchbase', 'CouchDB', 'MongoDB'],
    rows: [['Total', '662,487.95 s (11,041.47 min)', '310,390.35 s (5173.17 min)', '94,575.80 s (1576.26 min)']],
  },
  {
    id: 'ratios',
    title: 'Ratios the text states (Sections 5.1–5.4)',
    where: 'Sections 5.1 (p. 10), 5.2 (p. 11), 5.3 (p. 12), 5.4 (pp. 14–15)',
    provenance: 'stated in the text',
    statistic: 'ratios of the totals of Tables 3, 5, 7, 9 and 10',
    unit: '×',
    header: ['claim', 'the paper says', 'where'],
    rows: [
      ['Couchbase 100k → 1M records', 'an increase of 18.3 times', 'Section 5.1, p. 10'],
      ['Couchbase 1M → 10M records', 'a 23 times increase', 'Section 5.1, p. 10'],
      ['Couchbase 100k → 10M records', 'increases 421.3 times', 'Section 5.1, p. 10'],
      ['CouchDB 100k → 1M records', 'an increase of 17.9 times', 'Section 5.2, p. 11'],
      ['CouchDB 1M → 10M records', 'increase 18.1 times', 'Section 5.2, p. 11'],
      ['CouchDB 100k → 10M records', 'increases by 323.7 times', 'Section 5.2, p. 11'],
      ['MongoDB 100k → 1M records', 'a 37.4 times increase', 'Section 5.3, p. 12'],
      ['MongoDB 1M → 10M records', 'an increase in a runtime of 23.8 times', 'Section 5.3, p. 12'],
      ['MongoDB 100k → 10M records', 'increases by 890 times', 'Section 5.3, p. 12'],
      ['workload E, CouchDB vs MongoDB', 'a runtime of 3.10 times faster than MongoDB', 'Section 5.4, p. 14'],
      ['all but E, MongoDB vs CouchDB', 'a 3.28 times faster runtime than CouchDB', 'Section 5.4, p. 15'],
      ['all but E, MongoDB vs Couchbase', 'a 7.00 times faster runtime than Couchbase', 'Section 5.4, p. 15'],
      ['all but E, CouchDB vs Couchbase', 'a 2.13 times faster runtime than Couchbase', 'Section 5.4, p. 15'],
    ],
  },
];

const WORKLOADS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((w) => `Workload ${w}`);
const THREADS = ['1 Thread', '3 Threads', '6 Threads'];
const STORES = ['Couchbase', 'CouchDB', 'MongoDB'] as const;
/** Rounding of a total of n figures, each and the total rounded to the printed cent once. */
const sumTolerance = (n: number) => (n + 1) * 0.005 + 1e-6;
/** Minutes printed to 2 decimals from seconds printed to 2 decimals. */
const MINUTES = 0.005 + 0.005 / 60 + 1e-9;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
type Cell = PublishedLookup;

/** A total's minutes (the second number of its cell) from its seconds (the first). */
function minutes(table: string, row: string, column: string, name: string, discrepancy?: string): ArithmeticCheck {
  return {
    claim: `${name}, ${column}: seconds in minutes`,
    where: name,
    printed: (cell) => cell(table, row, column, 1),
    computed: (cell) => cell(table, row, column) / 60,
    tolerance: MINUTES,
    ...(discrepancy ? { discrepancy } : {}),
  };
}

/** Table 2/4/6: the total is the sum of the eight workloads. */
function workloadTotals(
  table: string,
  name: string,
  discrepancy: Partial<Record<string, string>> = {},
): ArithmeticCheck[] {
  return RECORDS.flatMap((column) => [
    {
      claim: `${name} total, ${column}: the sum of workloads A–H`,
      where: name,
      printed: (cell: Cell) => cell(table, 'Total', column),
      computed: (cell: Cell) => sum(WORKLOADS.map((w) => cell(table, w, column))),
      tolerance: sumTolerance(8),
      ...(discrepancy[column] ? { discrepancy: discrepancy[column] } : {}),
    },
    minutes(table, 'Total', column, name),
  ]);
}

/** Table 3/5/7: the 3-thread row is the per-workload table's total; the total sums the threads. */
function threadTotals(
  table: string,
  name: string,
  perWorkload: string,
  perWorkloadName: string,
  minutesOff: Partial<Record<string, string>> = {},
  sumOff: Partial<Record<string, string>> = {},
): ArithmeticCheck[] {
  return RECORDS.flatMap((column) => [
    {
      claim: `${name}, 3 threads, ${column}: ${perWorkloadName}'s total`,
      where: `${perWorkloadName} and ${name}`,
      printed: (cell: Cell) => cell(table, '3 Threads', column),
      computed: (cell: Cell) => cell(perWorkload, 'Total', column),
      tolerance: 1e-9,
    },
    {
      claim: `${name} total, ${column}: the sum of 1, 3 and 6 threads`,
      where: name,
      printed: (cell: Cell) => cell(table, 'Total', column),
      computed: (cell: Cell) => sum(THREADS.map((t) => cell(table, t, column))),
      tolerance: sumTolerance(3),
      ...(sumOff[column] ? { discrepancy: sumOff[column] } : {}),
    },
    minutes(table, 'Total', column, name, minutesOff[column]),
  ]);
}

/** A ratio the text states (the 'ratios' table), from two printed totals. */
function ratio(claim: string, where: string, computed: (cell: Cell) => number, digits: number): ArithmeticCheck {
  return {
    claim,
    where,
    printed: (cell) => cell('ratios', claim, 'the paper says'),
    computed,
    tolerance: 0.5 * 10 ** -digits + 1e-9,
  };
}

const total = (cell: Cell, table: string, column: string) => cell(table, 'Total', column);
const [R100K, R1M, R10M] = RECORDS as [string, string, string];

export const CARVALHO_CHECKS: readonly ArithmeticCheck[] = [
  ...workloadTotals('table2', 'Table 2'),
  ...workloadTotals('table4', 'Table 4'),
  ...workloadTotals('table6', 'Table 6', {
    [R100K]:
      "the eight workloads printed sum to 148.50 s, not the 137.85 s printed (G and H are both 12.22 s in the paper's published data too); Table 7's 3-thread row repeats 137.85 s",
    [R1M]:
      "the eight workloads printed sum to 6405.00 s, not the 6107.59 s printed; Table 7's 3-thread row repeats 6107.59 s",
    [R10M]:
      "the eight workloads printed sum to 156,115.68 s, not the 151,164.85 s printed; Table 7's 3-thread row repeats 151,164.85 s",
  }),
  ...threadTotals('table3', 'Table 3', 'table2', 'Table 2', {
    [R10M]: 'printed as "12.913.58 min": 774,815.06 s is 12,913.58 min (a misplaced separator)',
  }),
  ...threadTotals(
    'table5',
    'Table 5',
    'table4',
    'Table 4',
    { [R100K]: '1299.74 s is 21.66 min; printed as 20.50 min' },
    {
      [R10M]:
        'the three thread counts sum to 420,659.58 s; printed 420,659.55 s (0.03 s off, more than rounding to the cent explains)',
    },
  ),
  ...threadTotals('table7', 'Table 7', 'table6', 'Table 6'),
  ...STORES.map((store, i): ArithmeticCheck => ({
    claim: `Table 8, ${store}: the sum of Table ${3 + 2 * i}'s totals`,
    where: `Tables ${3 + 2 * i} and 8`,
    printed: (cell) => cell('table8', 'Total', store),
    computed: (cell) => sum(RECORDS.map((r) => cell(`table${3 + 2 * i}`, 'Total', r))),
    tolerance: sumTolerance(3),
    ...(store === 'MongoDB'
      ? { discrepancy: "Table 7's totals sum to 511,163.17 s; Table 8 prints 510,909.90 s (253.27 s less)" }
      : {}),
    ...(store === 'CouchDB'
      ? {
          discrepancy:
            "Table 5's totals sum to 445,228.34 s; Table 8 prints 445,228.30 s (0.04 s off, more than rounding to the cent explains)",
        }
      : {}),
  })),
  ...STORES.map((store): ArithmeticCheck => ({
    claim: `Table 8, ${store}: Table 9 (workload E) plus Table 10 (all but E)`,
    where: 'Tables 8, 9 and 10',
    printed: (cell) => cell('table8', 'Total', store),
    computed: (cell) => cell('table9', 'Total', store) + cell('table10', 'Total', store),
    tolerance: sumTolerance(2),
    ...(store === 'MongoDB'
      ? {
          discrepancy:
            'Table 9 plus Table 10 is 511,919.95 s for MongoDB; Table 8 prints 510,909.90 s (1,010.05 s less)',
        }
      : {}),
  })),
  ...(['table8', 'table9', 'table10'] as const).flatMap((table) =>
    STORES.map((store) => minutes(table, 'Total', store, table.replace('table', 'Table '))),
  ),
  ratio(
    'Couchbase 100k → 1M records',
    'Section 5.1, p. 10',
    (c) => total(c, 'table3', R1M) / total(c, 'table3', R100K),
    1,
  ),
  ratio(
    'Couchbase 1M → 10M records',
    'Section 5.1, p. 10',
    (c) => total(c, 'table3', R10M) / total(c, 'table3', R1M),
    0,
  ),
  ratio(
    'Couchbase 100k → 10M records',
    'Section 5.1, p. 10',
    (c) => total(c, 'table3', R10M) / total(c, 'table3', R100K),
    1,
  ),
  ratio(
    'CouchDB 100k → 1M records',
    'Section 5.2, p. 11',
    (c) => total(c, 'table5', R1M) / total(c, 'table5', R100K),
    1,
  ),
  ratio('CouchDB 1M → 10M records', 'Section 5.2, p. 11', (c) => total(c, 'table5', R10M) / total(c, 'table5', R1M), 1),
  {
    ...ratio(
      'CouchDB 100k → 10M records',
      'Section 5.2, p. 11',
      (c) => total(c, 'table5', R10M) / total(c, 'table5', R100K),
      1,
    ),
    discrepancy:
      "Table 5's totals give 420,659.55 / 1299.74 = 323.65 (323.6 to the paper's one decimal); printed 323.7",
  },
  ratio(
    'MongoDB 100k → 1M records',
    'Section 5.3, p. 12',
    (c) => total(c, 'table7', R1M) / total(c, 'table7', R100K),
    1,
  ),
  ratio('MongoDB 1M → 10M records', 'Section 5.3, p. 12', (c) => total(c, 'table7', R10M) / total(c, 'table7', R1M), 1),
  ratio(
    'MongoDB 100k → 10M records',
    'Section 5.3, p. 12',
    (c) => total(c, 'table7', R10M) / total(c, 'table7', R100K),
    0,
  ),
  ratio(
    'workload E, CouchDB vs MongoDB',
    'Section 5.4, p. 14',
    (c) => total(c, 'table9', 'MongoDB') / total(c, 'table9', 'CouchDB'),
    2,
  ),
  ratio(
    'all but E, MongoDB vs CouchDB',
    'Section 5.4, p. 15',
    (c) => total(c, 'table10', 'CouchDB') / total(c, 'table10', 'MongoDB'),
    2,
  ),
  ratio(
    'all but E, MongoDB vs Couchbase',
    'Section 5.4, p. 15',
    (c) => total(c, 'table10', 'Couchbase') / total(c, 'table10', 'MongoDB'),
    2,
  ),
  ratio(
    'all but E, CouchDB vs Couchbase',
    'Section 5.4, p. 15',
    (c) => total(c, 'table10', 'Couchbase') / total(c, 'table10', 'CouchDB'),
    2,
  ),
];
