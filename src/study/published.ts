/**
 * The studies' published figures, as the papers give them, from the papers' own hardware. They
 * are shown beside docbench's figures for their shape (which store and workload is slower, how a
 * figure grows with records or threads), never as something a run on another machine should match.
 */
import type { FigureTable } from '../report/html-page.ts';

const CARVALHO_WORKLOADS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
/** Runtime (s) with 3 threads at 100k / 1M / 10M records: Tables 2 (Couchbase), 4 (CouchDB), 6 (MongoDB). */
const CARVALHO_RUNTIME: Record<string, (readonly [number, number, number] | undefined)[]> = {
  'Couchbase': [[10.28, 1037.79, 85910.67], [9.27, 687.31, 33770.34], [6.72, 80.34, 3423.3], [12.01, 201.87, 29839.63], [373.08, 3288.45, 34028.25], [33.16, 2822.24, 47416.49], [20.63, 523.5, 6905.86], [22.88, 83.78, 1078.91]],
  'CouchDB': [[10.58, 1278.84, 18513.14], [14.83, 790.41, 28537.45], [17.2, 145.05, 4150.06], [19.0, 194.48, 9021.59], [181.3, 2806.93, 45257.58], [22.58, 734.97, 8988.81], [26.41, 789.59, 12043.4], undefined],
  'MongoDB': [[10.65, 297.41, 4950.83], [7.15, 122.37, 2564.01], [6.61, 111.58, 2305.59], [7.31, 81.03, 1427.47], [78.82, 4491.09, 126310.74], [13.52, 296.36, 4756.72], [12.22, 541.2, 6765.96], [12.22, 463.96, 7034.36]],
};

const seconds = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

export const PUBLISHED = {
  carvalho2023: (): FigureTable[] => [
    {
      title: "PUBLISHED (the paper's): Carvalho, Sá, Bernardino 2023, runtime in seconds with 3 threads, Tables 2, 4 and 6",
      note: "The paper's figures from its hardware: one HP Pavilion laptop, AMD Ryzen 5 4500U (6 cores), 15.4 GB RAM, SSD, Windows 10; YCSB, 20 fields × 500 B, average of 3 runs. CouchDB's workload H row is not in the table text we have. Not comparable in value with this machine's: compare the shape.",
      header: ['workload', ...Object.keys(CARVALHO_RUNTIME).flatMap((store) => ['100k', '1M', '10M'].map((n) => `${store} · ${n} records`))],
      rows: CARVALHO_WORKLOADS.map((w, i) => [`workload${w.toLowerCase()}`, ...Object.values(CARVALHO_RUNTIME).flatMap((rows) => (rows[i] ? rows[i]!.map(seconds) : ['', '', '']))]),
    },
  ],
  tang2016: (): FigureTable[] => [
    {
      title: "PUBLISHED (the paper's): Tang & Fan 2016, load time of 100,000 records and mean execution time of workloads A, C, H (10,000 operations)",
      note: "Derived from the paper's text (its figures are charts): Redis loaded in about 8 s; MongoDB, Cassandra, HBase and Couchbase were 1.31×, 1.71×, 1.86× and 2.49× slower. Redis averaged 1.1 s over A, C and H; MongoDB, Couchbase, HBase and Cassandra were 1.56×, 2.02×, 3.61× and 4.90× slower. Hardware: a 4-node cluster per store (Ubuntu VMs, 12 GB RAM, HDD, 4 cores) and a fifth VM for YCSB; 10 fields × 100 B. Workload A throughput grew with the record count (10k … 10M, operations 10% of records) to over 20,000 ops/s for Redis.",
      header: ['store', 'load 100k records (s)', 'mean of A, C, H (s)'],
      rows: [
        ['Redis', '≈ 8', '≈ 1.1'],
        ['MongoDB', '≈ 10.5 (1.31×)', '≈ 1.7 (1.56×)'],
        ['Cassandra', '≈ 13.7 (1.71×)', '≈ 5.4 (4.90×)'],
        ['HBase', '≈ 14.9 (1.86×)', '≈ 4.0 (3.61×)'],
        ['Couchbase', '≈ 19.9 (2.49×)', '≈ 2.2 (2.02×)'],
      ],
    },
  ],
  altoros2022: (): FigureTable[] => [
    {
      title: "PUBLISHED (the paper's): Altoros 2022, highest throughput (ops/s) per cluster size",
      note: 'From the report\'s text: Couchbase Capella vs MongoDB Atlas v5.0 as managed services on AWS, clusters of 6, 9 and 18 nodes, YCSB clients on 4 (workload A: 10) c5 instances with 25–175 threads each. A blank cell: the text gives no figure. Not comparable in value with one machine: compare the shape (which store gains from threads, which query is expensive).',
      header: ['workload', 'Capella 6 nodes', 'Atlas 6 nodes', 'Capella 9 nodes', 'Atlas 9 nodes', 'Capella 18 nodes', 'Atlas 18 nodes'],
      rows: [
        ['workloada', '355,520', '31,030', '417,980', '38,340', '523,020', '55,870'],
        ['workloade', '30,388', '20,532', '53,092', '21,220', '98,808', '(similar to 6 and 9 nodes)'],
        ['pagination', '51,952', '36,392', '60,680', '35,325', '65,228', '29,300'],
        ['join', '34,448', '884', '', '(lower)', '56,828', '60'],
      ],
    },
  ],
  henricsson2011: (): FigureTable[] => [
    {
      title: "PUBLISHED (the paper's): Henricsson 2011, findings at 5,000 / 50,000 / 500,000 documents",
      note: "The thesis gives its figures as charts (Figures 4–10); its text states the findings below. Hardware: HP ProBook, Intel Celeron P4500 (2 cores, 1.86 GHz), 2 GB RAM; MongoDB 1.6.3 via pymongo 1.10.1, CouchDB 1.0.1 via couchdb-python 0.8.",
      header: ['measure', 'finding (the thesis)'],
      rows: [
        ['insert time', 'MongoDB a whole lot faster than CouchDB at every size; both grow linearly'],
        ['size on disk', 'CouchDB larger than MongoDB for the same data (one revision per document); both grow linearly'],
        ['Q1–Q5 read time', 'MongoDB faster than CouchDB for every query; linear increase with size'],
      ],
    },
  ],
  dzone2016: (): FigureTable[] => [
    {
      title: "PUBLISHED (the paper's): DZone 2016 (Avalon report), workload E unchanged: 95% scan / 5% insert, range scan ORDER BY … LIMIT 50",
      note: 'Nine r3.8xlarge nodes (32 cores, 60 GB RAM, SSD), 150 million items. The text gives the peaks; throughput against client threads is a chart.',
      header: ['store', 'queries/s'],
      rows: [
        ['Couchbase Server 4.5 (global index)', 'more than 30,000'],
        ['MongoDB 3.2 (local indexes, scatter-gather)', 'more than 8,000'],
      ],
    },
  ],
};
