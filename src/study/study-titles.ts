/**
 * Each study preset's name and one-line title, apart from the presets themselves (papers/): the
 * CLI's help lists them without loading a paper's tables and charts. Same order as STUDIES.
 */
export const STUDY_TITLES = {
  carvalho2023: 'Carvalho, Sá, Bernardino 2023: YCSB A–H on document stores, records × threads, 3 runs averaged',
  tang2016:
    'Tang & Fan 2016: load time; A, C, H at 10,000 operations; load and workload A throughput as the record count grows',
  altoros2022:
    "Altoros 2022: workload A, the study's workload E, pagination and JOIN, throughput and latency at the median of 100–700 client threads",
  henricsson2011:
    "Henricsson 2011: persons inserts one at a time, size on disk, ad-hoc queries Q1–Q5 (CouchDB's temporary views)",
  dzone2016: "DZone 2016: YCSB's workload E unmodified (95% scan, 5% insert), throughput against client threads",
} as const;
