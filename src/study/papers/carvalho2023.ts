/**
 * Carvalho, Sá, Bernardino 2023: YCSB A–H on Couchbase, CouchDB and MongoDB, each workload at
 * 100k / 1M / 10M records of 10 KB with 1, 3 and 6 threads, three runs averaged, on one laptop.
 */
import { by, differs, list, same, sizes, sweepStep, type StudyPreset } from '../preset.ts';
import { CARVALHO_CHECKS, CARVALHO_PUBLISHED } from './carvalho2023-published.ts';
import { CARVALHO_RATIOS } from './carvalho2023-ratios.ts';
import { carvalhoCharts, carvalhoFigures } from './carvalho2023-shapes.ts';
import { STUDY_TITLES } from '../study-titles.ts';

const WORKLOADS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const RECORDS = { tiny: [100], small: [100, 1_000], full: [100_000, 1_000_000, 10_000_000] };
const THREADS = [1, 3, 6];
const REPETITIONS = { tiny: 2, small: 3, full: 3 };

export const carvalho2023: StudyPreset = {
  name: 'carvalho2023',
  title: STUDY_TITLES.carvalho2023,
  citation:
    'Carvalho, I.; Sá, F.; Bernardino, J. Performance Evaluation of NoSQL Document Databases: Couchbase, CouchDB, and MongoDB. Algorithms 2023, 16, 78.',
  paperStores: [
    { store: 'couchbase', product: 'Couchbase (Community or Server; version not stated)', where: 'Section 3.1' },
    {
      store: 'couchdb',
      product: 'CouchDB (version not stated; its documentation 3.2.0 is cited)',
      where: 'Section 3.2, ref. 16',
    },
    { store: 'mongodb', product: 'MongoDB (version not stated)', where: 'Section 3.3' },
  ],
  scales: {
    tiny: "a smoke run: A–H at 100 records (the paper's 100,000 ÷ 1,000), 1 / 3 / 6 threads, 2 runs each",
    small:
      "the paper's shape on fewer records: A–H at 100 and 1,000 records (its 100,000 and 1,000,000 ÷ 1,000; the 10,000,000 tier left out), 1 / 3 / 6 threads, 3 runs each",
    full: "the paper's sizes: A–H at 100,000 / 1,000,000 / 10,000,000 records, 1 / 3 / 6 threads, 3 runs each (the paper's own runs took 1,766,535.60 s, about 20 days, on its laptop: Table 8's three totals)",
  },
  variants: [],
  published: CARVALHO_PUBLISHED,
  checks: CARVALHO_CHECKS,
  steps: ({ scale, stores }) => [
    sweepStep('ycsb', `YCSB A–H, 20 × 500 B records, operations = records, runs to completion`, stores, {
      workloads: WORKLOADS,
      records: by(scale, RECORDS),
      threads: THREADS,
      repetitions: by(scale, REPETITIONS),
      extraFiles: ['record-10kb'],
      // The paper's runtime is the time to do every operation: no run stops at a time cap.
      operationsPerRecord: 1,
      overrides: ['maxexecutiontime=0'],
    }),
  ],
  design: ({ scale }) => [
    same('cluster', '"by using a single node" (Section 1, p. 2)', 'one node per store'),
    differs(
      'hardware',
      '"an HP Pavilion Laptop 15t-eg000 computer, with 476 GB of SSD disk, 15.4 GB of memory, an AMD Ryzen 5 4500U processor … six cores … in a Windows 10 environment" (Section 4, p. 9)',
      "this machine (its CPU, memory, OS and steal are in every result); client and servers share it, as on the paper's laptop",
    ),
    same(
      'workloads',
      'YCSB A–F and two of its own, "G—Update Mostly: Update 95%, Read 5%" and "H—Update Only: Update 100%" (Table 1, p. 8)',
      "YCSB's workloada … workloadf unchanged, and docbench's workloadg and workloadh as Table 1 defines them",
    ),
    same(
      'distributions',
      'Zipfian for A, B, C, F, G, H; Latest for D; "Zipfian / Uniform" (keys / scan lengths) for E (Table 1, p. 8)',
      "YCSB's: zipfian, latest for D, zipfian keys and uniform scan lengths (≤ 100) for E",
    ),
    same(
      'record',
      '"Field size = 500 bytes, Field number = 20, 500 bytes × 20 = 10 KB" (Table 1, p. 8)',
      'record-10kb: 20 fields × 500 B',
    ),
    sizes(
      scale,
      'records',
      '100,000, 1,000,000 and 10,000,000 records (Table 1, p. 8; Section 4, p. 9)',
      `${list(by(scale, RECORDS))} records`,
    ),
    same(
      'operations',
      'not stated in the paper; its published data (the spreadsheet its Section 5 links) count as many operations as records in every run (e.g. 50,111 READ + 49,889 UPDATE at 100,000 records)',
      'operationcount = recordcount in every run',
    ),
    same('threads', '"the number of threads also varied between 1, 3, and 6" (Section 4, p. 8)', '1 / 3 / 6 threads'),
    scale === 'tiny'
      ? differs(
          'repetitions',
          '"For each workload, three executions were performed" (Section 4, pp. 8–9)',
          '2 runs of each cell, in 2 interleaved rounds (--scale tiny; small and full run 3)',
        )
      : same(
          'repetitions',
          '"For each workload, three executions were performed" (Section 4, pp. 8–9)',
          '3 runs of each cell, in 3 interleaved rounds: every cell once per round, the stores at each record count in a fresh random order each round',
        ),
    same(
      'statistic',
      '"the average of these runtime values was used as the final result" (Section 4, p. 9); totals add those means (Tables 2–10)',
      'the mean runtime of the runs, with [min–max] beside it; totals add the means',
    ),
    same(
      'measure',
      "runtime: YCSB's [OVERALL] RunTime of the transaction phase (Tables 2–10)",
      "the run's measured time ([OVERALL] RunTime), no time cap: every operation done",
    ),
    differs(
      'loading',
      'not stated: when the records were loaded, and whether a run of D or E (which insert) started from a fresh load',
      'each record count loaded afresh in every round for the workloads that do not insert; every run of D and E on a fresh load of its own (YCSB inserts from recordcount up); loads are not timed figures',
    ),
    differs(
      'store settings',
      'not stated (durability, caches, YCSB binding and version)',
      "each store's defaults as docbench's adapters connect (recorded in every result)",
    ),
  ],
  figures: carvalhoFigures,
  ratios: CARVALHO_RATIOS,
  charts: carvalhoCharts,
};
