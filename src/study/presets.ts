/**
 * Each study's design as docbench steps, scaled by `--scale` to fit the machine: `full` is the
 * paper's design, `small` keeps its shape (every workload, thread count and repetition, fewer
 * records) for a 2-core machine in minutes, `tiny` is a smoke run. Stores default to the paper's
 * stores (their local stand-ins, labelled as such, where the product is in no registry).
 */
import type { Result } from '../results/schema.ts';
import type { FigureTable } from '../report/html-page.ts';
import type { Cell } from '../report/groups.ts';
import type { SweepPlanInput } from './sweep-plan.ts';
import { loadTable, personsTable, pivotTable, present, runtimeOf, throughput } from './docbench-tables.ts';
import { PUBLISHED } from './published.ts';

export const SCALES = ['tiny', 'small', 'full'] as const;
export type Scale = (typeof SCALES)[number];

export type StudyStep =
  | { kind: 'sweep'; name: string; plan: SweepPlanInput }
  /** A docbench command run as its own process (scenario commands), `--out-dir` appended. */
  | { kind: 'command'; name: string; args: string[] };

export interface StudyPreset {
  name: string;
  title: string;
  stores: string[];
  steps(scale: Scale, stores: string[]): StudyStep[];
  /** The published figures, then docbench's in the same shape. */
  figures(results: readonly Result[]): FigureTable[];
}

const by = <T>(scale: Scale, values: Record<Scale, T>): T => values[scale];

function sweep(name: string, stores: string[], plan: Omit<SweepPlanInput, 'stores' | 'reload' | 'extraFiles' | 'overrides'> & Partial<SweepPlanInput>): StudyStep {
  return { kind: 'sweep', name, plan: { stores, reload: false, extraFiles: [], overrides: [], ...plan } };
}

const HERE = 'this machine; median [min–max] over repetitions';
const threadsOf3 = (c: Cell) => c.threads === 3 || c.threads === undefined;
/** Cells of the largest record count run: a per-thread table holds one record count. */
const largestRecords = (results: readonly Result[]) => {
  const most = Math.max(0, ...results.map((r) => Number(r.workload.properties.recordcount ?? 0)));
  return (c: Cell) => c.records === most;
};

const carvalho: StudyPreset = {
  name: 'carvalho2023',
  title: 'Carvalho, Sá, Bernardino 2023: YCSB A–H on document stores, records × threads, 3 repetitions',
  stores: ['couchbase', 'couchdb', 'mongodb'],
  steps: (scale, stores) => [
    sweep('ycsb', stores, {
      workloads: by(scale, { tiny: ['a', 'c', 'e'], small: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], full: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] }),
      records: by(scale, { tiny: [100], small: [100, 1000], full: [100_000, 1_000_000, 10_000_000] }),
      threads: by(scale, { tiny: [1, 3], small: [1, 3, 6], full: [1, 3, 6] }),
      repetitions: by(scale, { tiny: 2, small: 3, full: 3 }),
      extraFiles: ['record-10kb'],
      overrides: by(scale, { tiny: ['operationcount=100', 'maxexecutiontime=5'], small: ['operationcount=300', 'maxexecutiontime=10'], full: ['operationcount=100000', 'maxexecutiontime=0'] }),
    }),
  ],
  figures: (results) => [
    ...PUBLISHED.carvalho2023(),
    ...present([
      pivotTable(results, 'docbench: runtime in seconds with 3 threads (the shape of Tables 2, 4, 6)', HERE, runtimeOf, 'records', threadsOf3),
      pivotTable(results, 'docbench: runtime in seconds per thread count at the largest record count (the shape of Tables 3, 5, 7)', HERE, runtimeOf, 'threads', largestRecords(results)),
    ]),
  ],
};

const tang: StudyPreset = {
  name: 'tang2016',
  title: 'Tang & Fan 2016: load time, workloads A, C, H at 10k operations, throughput vs record count',
  stores: ['redis', 'mongodb', 'cassandra', 'hbase', 'couchbase'],
  steps: (scale, stores) => [
    sweep('workloads', stores, {
      workloads: ['a', 'c', 'h'],
      records: by(scale, { tiny: [200], small: [2000], full: [100_000] }),
      threads: [1],
      repetitions: 1,
      extraFiles: ['record-1kb'],
      overrides: by(scale, { tiny: ['operationcount=100'], small: ['operationcount=1000'], full: ['operationcount=10000', 'maxexecutiontime=0'] }),
    }),
    sweep('record-scaling', stores, {
      workloads: ['a'],
      records: by(scale, { tiny: [100, 300], small: [1000, 3000, 10_000], full: [10_000, 100_000, 1_000_000, 5_000_000, 10_000_000] }),
      threads: [1],
      repetitions: 1,
      extraFiles: ['record-1kb'],
      operationsPerRecord: 0.1,
    }),
  ],
  figures: (results) => [
    ...PUBLISHED.tang2016(),
    ...present([
      loadTable(results.filter((r) => r.workload.name.startsWith('load-')), 'docbench: load time per store and record count (Figure 1 and 3 in shape)', HERE),
      pivotTable(results, 'docbench: execution time in seconds of A, C, H (Figure 2 in shape) and of A per record count', HERE, runtimeOf, 'records'),
      pivotTable(results, 'docbench: workload A throughput (ops/s) as the record count grows, operations 10% of records (Figure 4 in shape)', HERE, throughput, 'records', (c) => c.workload === 'workloada' && c.runs.every((r) => r.workload.properties.operationcount === Math.max(1, Math.round((c.records ?? 0) * 0.1))), 0),
    ]),
  ],
};

const altoros: StudyPreset = {
  name: 'altoros2022',
  title: 'Altoros 2022: workloads A and E, pagination and JOIN, throughput and latency vs client threads',
  stores: ['couchbase', 'mongodb'],
  steps: (scale, stores) => {
    const threads = by(scale, { tiny: [1, 4], small: [1, 2, 4, 8], full: [25, 50, 75, 100, 125, 150, 175] });
    const customers = by(scale, { tiny: 100, small: 1000, full: 100_000 });
    const seconds = by(scale, { tiny: 2, small: 5, full: 60 });
    return [
      sweep('ycsb', stores, {
        workloads: ['a', 'e'],
        records: by(scale, { tiny: [200], small: [2000], full: [1_000_000] }),
        threads,
        repetitions: 1,
        extraFiles: ['record-1kb'],
        overrides: [`operationcount=${by(scale, { tiny: 200, small: 2000, full: 1_000_000 })}`, `maxexecutiontime=${seconds}`],
      }),
      // The scenario seeds once, then runs pagination and JOIN at each thread count on the same data.
      ...threads.map((t, i): StudyStep => ({
        kind: 'command',
        name: `ecommerce-t${t}`,
        args: ['ecommerce', '--stores', stores.join(','), '--workloads', 'pagination,join', '--customers', String(customers), '--threads', String(t), '-p', `maxexecutiontime=${seconds}`, '-q', ...(i > 0 ? ['--skip-seed'] : [])],
      })),
    ];
  },
  figures: (results) => [
    ...PUBLISHED.altoros2022(),
    ...present([pivotTable(results, 'docbench: throughput (ops/s) per client thread count', HERE, throughput, 'threads', () => true, 0)]),
  ],
};

const henricsson: StudyPreset = {
  name: 'henricsson2011',
  title: 'Henricsson 2011: persons inserts, sizes on disk, ad-hoc queries Q1–Q5',
  stores: ['mongodb', 'couchdb'],
  steps: (scale, stores) => [{ kind: 'command', name: 'persons', args: ['persons', '--stores', stores.join(','), '--size', by(scale, { tiny: '200', small: '500,5000', full: '5k,50k,500k' }), '-q'] }],
  figures: (results) => [...PUBLISHED.henricsson2011(), ...present([personsTable(results)])],
};

const dzone: StudyPreset = {
  name: 'dzone2016',
  title: 'DZone 2016: workload E unchanged (95% scan, 5% insert), scans of 50, throughput vs client threads',
  stores: ['couchbase', 'mongodb'],
  steps: (scale, stores) => [
    sweep('workload-e', stores, {
      workloads: ['e'],
      records: by(scale, { tiny: [200], small: [2000], full: [1_000_000] }),
      threads: by(scale, { tiny: [1, 2], small: [1, 2, 4, 8], full: [8, 16, 32, 64, 128] }),
      repetitions: by(scale, { tiny: 1, small: 2, full: 3 }),
      // LIMIT 50: every scan asks for 50 records, as the Avalon runs did.
      overrides: ['minscanlength=50', 'maxscanlength=50', `operationcount=${by(scale, { tiny: 100, small: 500, full: 100_000 })}`, `maxexecutiontime=${by(scale, { tiny: 5, small: 10, full: 300 })}`],
    }),
  ],
  figures: (results) => [
    ...PUBLISHED.dzone2016(),
    ...present([pivotTable(results, 'docbench: workload E throughput (ops/s) per client thread count', HERE, throughput, 'threads', () => true, 0)]),
  ],
};

export const STUDIES: readonly StudyPreset[] = [carvalho, tang, altoros, henricsson, dzone];
