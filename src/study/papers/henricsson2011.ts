/**
 * Henricsson 2011 (BTH bachelor thesis): MongoDB against CouchDB from Python on one laptop. The
 * persons dataset (seed 1337) at 5,000 / 50,000 / 500,000 documents, inserted one at a time;
 * the size on disk; five ad-hoc queries, each run three times and averaged, CouchDB's through
 * temporary views (the map function built over every document on each query).
 */
import type { Result } from '../../results/schema.ts';
import type { FigureTable } from '../../report/html-page.ts';
import { figure, present } from '../docbench-tables.ts';
import { storeLabel } from '../../report/groups.ts';
import type { PublishedTable } from '../paper.ts';
import { by, differs, list, same, scenarioStep, sizes, type Scale, type StudyPreset } from '../preset.ts';
import { ASSUMED_RATES } from '../estimate.ts';
import { STUDY_TITLES } from '../study-titles.ts';

const SIZES: Record<Scale, number[]> = { tiny: [50, 500], small: [500, 5_000, 50_000], full: [5_000, 50_000, 500_000] };
const QUERIES = ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'];
const NESTED = 'nested';
/** A flat person as JSON, with its id: about this many bytes. */
const PERSON_BYTES = 150;
/** The variants that time what the thesis timed: MongoDB's find drained, CouchDB's temporary view. */
const THESIS_WAY: Record<string, string> = {
  find: "the thesis's: find(), drained",
  'temp-view': "the thesis's: a temporary view, build + query",
};

const PUBLISHED: readonly PublishedTable[] = [
  {
    id: 'findings',
    title: 'Findings at 5,000 / 50,000 / 500,000 documents',
    where: 'Sections 8.1–8.3 and 9.1, Figures 4–10',
    provenance: 'stated in the text',
    statistic:
      'inserts timed once; each query run three times, "The spent time has been added and divided by three" (Section 6.4)',
    unit: 's and bytes (the figures are charts; the text gives no values, and none are read off here)',
    note: 'Hardware: HP ProBook, Intel Celeron P4500 dual core (1.86 GHz), i386, 2 GB RAM, Ubuntu 11.04 32-bit; Apache CouchDB v1.01.1, MongoDB v1.6.3, pymongo 1.10.1, couchdb-python 0.8, Python 2.7.1 (Section 7).',
    header: ['measure', 'the thesis says', 'where'],
    rows: [
      [
        'insert time',
        'MongoDB is a whole lot faster than CouchDB at inserting documents. The increase in time for both DBMS seem to be linear.',
        'Section 8.1, Figure 4',
      ],
      [
        'size on disk',
        'CouchDB uses quite a bit more secondary memory than MongoDB (Section 9.1); "CouchDB contains only one revision for every document. The higher sizes for CouchDB thus is not because of multiple revisions" (Section 8.2)',
        'Sections 8.2 and 9.1, Figure 5',
      ],
      ...QUERIES.map((q, i) => [
        `${q} read time`,
        `MongoDB is faster than CouchDB at processing the ${['first', 'second', 'third', 'fourth', 'fifth'][i]} query. Linear increase in time.`,
        `Section 8.3.${i + 1}, Figure ${6 + i}`,
      ]),
    ],
  },
];

/** The mean [min–max] of a query's repetitions, in ms, from its row. */
function queryText(run: Result, variant: string, query: string): string {
  const row = run.operations.find((o) => o.name === `${variant}:${query}`);
  if (!row || row.latency.operations === 0)
    return run.operations.some((o) => o.name === `${variant}:${query}` && o.returns?.UNSUPPORTED) ? 'UNSUPPORTED' : '';
  const ms = (us: number) => figure(us / 1000, us < 10_000 ? 2 : 0);
  return row.latency.operations > 1
    ? `${ms(row.latency.averageUs)} [${ms(row.latency.minUs)}–${ms(row.latency.maxUs)}]`
    : ms(row.latency.averageUs);
}

/** Figures 4–10 in shape: insert time, size, and Q1–Q5 per store, size and variant, the thesis's way marked. */
function personsTable(results: readonly Result[]): FigureTable | undefined {
  const runs = results.filter((r) => r.kind === 'persons' && r.phase === 'run');
  if (runs.length === 0) return undefined;
  const loads = results.filter((r) => r.kind === 'persons' && r.phase === 'load');
  const ordered = [...runs].sort(
    (a, b) =>
      Number(a.workload.properties.size ?? 0) - Number(b.workload.properties.size ?? 0) ||
      a.store.name.localeCompare(b.store.name),
  );
  const rows = ordered.flatMap((r) => {
    const load = loads.find((l) => l.store.name === r.store.name && l.workload.name === r.workload.name);
    const build = (variant: string) => r.operations.find((o) => o.name === `${variant}:BUILD`);
    // The thesis's own way first, then docbench's others.
    return String(r.workload.properties.variants ?? '')
      .split(',')
      .filter(Boolean)
      .sort((a, b) => Number(THESIS_WAY[b] !== undefined) - Number(THESIS_WAY[a] !== undefined))
      .map((variant) => [
        storeLabel(r),
        String(r.workload.properties.size ?? ''),
        `${variant}${THESIS_WAY[variant] ? ` (${THESIS_WAY[variant]})` : ''}`,
        load ? figure(load.overall.runtimeMs / 1000, 2) : '',
        r.store.diskBytes !== undefined ? figure(r.store.diskBytes / 2 ** 20, 2) : '',
        build(variant) ? figure(build(variant)!.latency.averageUs / 1e6, 2) : '',
        ...QUERIES.map((q) => queryText(r, variant, q)),
      ]);
  });
  return {
    title: 'docbench: persons insert time, size on disk and Q1–Q5 per store, size and variant (Figures 4–10 in shape)',
    note: "this machine; inserts timed once, one document at a time; size as the store reports it after the load; each query the mean [min–max] of its 3 runs in ms, every answer checked against the oracle. The rows marked as the thesis's time what it timed: MongoDB's find() drained, and CouchDB's temporary view, whose time is the view's build plus the query (a permanent view's build is the 'build s' column, for all five views at once, its query times reads of the built view).",
    header: ['store', 'documents', 'variant', 'insert s', 'size MiB', 'build s', ...QUERIES.map((q) => `${q} ms`)],
    rows,
  };
}

export const henricsson2011: StudyPreset = {
  name: 'henricsson2011',
  title: STUDY_TITLES.henricsson2011,
  citation:
    'Henricsson, R. Document Oriented NoSQL Databases: A comparison of performance in MongoDB and CouchDB using a Python interface. Bachelor thesis, Blekinge Institute of Technology, 2011.',
  paperStores: [
    { store: 'mongodb', product: 'MongoDB v1.6.3 (10gen)', where: 'Section 7.1' },
    { store: 'couchdb', product: 'Apache CouchDB v1.01.1', where: 'Section 7.1' },
  ],
  scales: {
    tiny: "a smoke run: 50 and 500 documents (the thesis's first two sizes ÷100)",
    small: "the thesis's shape ÷10: 500 / 5,000 / 50,000 documents",
    full: "the thesis's sizes: 5,000 / 50,000 / 500,000 documents",
  },
  variants: [
    {
      name: NESTED,
      description:
        'nested persons: pet, fax and Jedi power as arrays of 1–5 values (the insert scripts\' "nested" mode); the thesis does not say which mode its figures used',
    },
  ],
  published: PUBLISHED,
  checks: [],
  steps: ({ scale, stores, variant }) => {
    const sizesHere = by(scale, SIZES);
    const total = sizesHere.reduce((a, b) => a + b, 0);
    return [
      scenarioStep(
        'persons',
        `persons ${variant === NESTED ? 'nested' : 'flat'} at ${list(sizesHere)} documents: inserts one at a time, size on disk, Q1–Q5 3 times each in every variant`,
        {
          scenario: 'persons',
          stores,
          sizes: sizesHere,
          threads: [1],
          repetitions: 1,
          settings: ['repeat=3', ...(variant === NESTED ? ['nested=true'] : [])],
          reload: false,
        },
        {
          dataset: 'persons',
          records: Math.max(...sizesHere),
          bytesPerRecord: PERSON_BYTES,
          loaded: total,
          // Every query of every variant (up to 3 a store) reads the whole dataset, 3 times.
          runSeconds: (total * QUERIES.length * 3 * 3) / ASSUMED_RATES.documentsScannedPerSecond,
          runs: sizesHere.length,
        },
        // Q1–Q5 are ad-hoc queries.
        ['query'],
      ),
    ];
  },
  design: ({ scale, variant }) => [
    same('cluster', '"using a single server setup" (Sections 1.5, 1.8)', 'one server per store'),
    differs(
      'hardware',
      '"HP ProBook (laptop), Intel Celeron P4500, dual core (1.86Ghz total), i386, 2GB RAM"; Ubuntu 11.04 32-bit (Section 7)',
      "this machine (recorded in every result); client and servers share it, as on the thesis's laptop",
    ),
    differs(
      'client',
      'Python 2.7.1 with pymongo v1.10.1 and couchdb-python v0.8 (Section 7.1)',
      "Node.js with each store's official driver (mongodb, nano)",
    ),
    variant === NESTED
      ? differs(
          'dataset',
          'randPersons.py, seed 1337, flat by default or "nested" (Section 6.1, Appendix A.1–A.3); which mode the figures used is not stated',
          'nested persons, seed 1337 — variant nested',
        )
      : differs(
          'dataset',
          'randPersons.py, seed 1337, flat by default or "nested" (Section 6.1, Appendix A.1–A.3); which mode the figures used is not stated',
          "flat persons, seed 1337 (the scripts' default mode; variant nested runs the other)",
        ),
    sizes(
      scale,
      'documents',
      '"5,000 documents? 50,000 documents? 500,000 documents?" (Section 1.5)',
      `${list(by(scale, SIZES))} documents`,
    ),
    same(
      'inserts',
      '"continually insert document by document" in a for loop, collection.insert / db.create (Section 6.2, Appendices A.2, A.3)',
      'one insert per document, one at a time (--insert-mode single)',
    ),
    differs(
      'MongoDB write acknowledgement',
      "collection.insert(flatPerson()) through pymongo v1.10.1's Connection (Appendix A.2, Section 7.1), which did not wait for the server to acknowledge an insert unless asked (safe=True); the thesis does not ask",
      "insertOne with the driver's default acknowledgement (w: 1): each insert waits for the server's answer",
    ),
    differs(
      'store settings',
      'not stated (each server as installed)',
      "each store's defaults as docbench's adapters connect (recorded in every result)",
    ),
    same('indexes', '"no manual indexing on the data has been performed" (Section 6.1)', 'no secondary index'),
    same(
      'queries',
      'Q1 salary between 18500 and 35000; Q2 and age over 25; Q3 and a fax; Q4 and a penguin; Q5 and Jedi power Force Choke or Force Insanity (Sections 6.3.3–6.3.7)',
      'the same five predicates, every answer checked against the oracle',
    ),
    differs(
      "the thesis's code",
      "its Q5 reads jedi_power, a field randPersons never writes (it writes 'jedi power'), and CouchDB's Q4 loops over doc.pet.length, on flat data the letters of a string (Appendices A.1, A.4, A.5): both match nothing",
      'the queries as Section 6.3 describes them, not as the appendix code ran them',
    ),
    same(
      'CouchDB queries',
      '"couchBench utilizes CouchDB\'s temporary views" (Section 6.3.2)',
      "variant temp-view: a design document with the query's one view, read with include_docs, deleted: build + query timed together (CouchDB 2.0 removed _temp_view); docbench also runs Mango and permanent views, marked as not the thesis's",
    ),
    differs(
      'timing',
      '"the scripts have been run in a Linux command-line environment through the utility time" (Section 6.4): interpreter start, connection, the query, count() and iterating the result',
      'the query and draining its whole answer, timed inside one process (no interpreter start, no connection, no count())',
    ),
    same(
      'repetitions',
      '"Every query, however, has been run three times. The spent time has been added and divided by three" (Section 6.4); inserts measured once',
      'inserts once; each query 3 times, the mean [min–max]',
    ),
    same(
      'size on disk',
      'database sizes after inserting (Section 8.2, Figure 5)',
      'the size the store reports after the load (and after compaction where it has one)',
    ),
  ],
  figures: (results) => present([personsTable(results)]),
};
