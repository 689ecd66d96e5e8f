/**
 * The persons scenario's sizes and defaults alone: what its commands show and check before the
 * scenario's run code is loaded.
 */

/** The thesis's seed, docbench's default. */
export const DEFAULT_SEED = 1337;

/** The thesis's three dataset sizes. */
export const SIZE_PRESETS = [5000, 50_000, 500_000] as const;

/**
 * How the load writes: `single`, one insert per document with the store's single-document write
 * (the thesis's insert time: CouchDB commits each document, MongoDB does not wait for the disk),
 * or `bulk`, the store's bulk API in batches (a load, not what the thesis timed).
 */
export const INSERT_MODES = ['single', 'bulk'] as const;
export type InsertMode = (typeof INSERT_MODES)[number];

export const PERSONS_DEFAULTS = {
  size: 5000,
  insertMode: 'single' as InsertMode,
  /** Documents per bulk write (bulk mode). */
  batchSize: 1000,
  /** Bulk writes in flight at once (bulk mode). */
  concurrency: 4,
  /** Documents in flight at once in single mode: one after another, as the thesis's one client wrote them. */
  singleConcurrency: 1,
  /** Runs of each query; the thesis ran each three times and reported the mean. */
  repeat: 3,
};
