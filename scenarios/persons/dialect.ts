/**
 * What each store implements for the persons scenario: how it stores the documents and how it
 * runs Q1–Q5 in its own idiom. One file per store under `stores/`, each exporting
 * `createDialect(store, context)` (same name everywhere, so two stores read side by side).
 *
 * The scenario owns the data (generator), the queries (queries.ts) and the right answers
 * (oracle.ts); a dialect only translates. It never touches the clock (run.ts times every call)
 * and never decides whether an answer is right (run.ts checks every one against the oracle).
 *
 * Optional abilities are separate small interfaces the runner detects (as go-ycsb's BatchDB),
 * so no dialect has a method that only throws "not implemented":
 *   IndexBuilder    secondary indexes built after the load (timed as INDEX-BUILD)
 *   VariantBuilder  per-variant structures built before querying (CouchDB views: VIEW-BUILD)
 *   Compactor       the store's compaction, then the size again
 *   QueryExplainer  how the store ran a query (its plan), taken once per query and variant
 * A query a store (or its local stand-in) cannot run throws `UnsupportedError`: it is reported
 * as UNSUPPORTED, never as a success.
 */
import type { StoreName } from '../../src/stores/stores.ts';
import type { DialectDefinition } from '../shared/dialects.ts';
import type { ScenarioPlan } from '../shared/plans.ts';
import type { PersonRecord, Shape } from './model.ts';
import type { PersonsQuery } from './queries.ts';

export interface DialectContext {
  shape: Shape;
  /** Build secondary indexes (and, where the application maintains them, write them with each document). */
  indexes: boolean;
  /** Documents the dataset holds: a bound for result sizes on stores whose queries need a limit. */
  size: number;
  /** Collection / table / database name for this shape (`persons`, `persons_nested`). */
  collection: string;
}

/** One way a store runs the queries, e.g. CouchDB's `mango` and `view`. */
export interface QueryVariant {
  name: string;
  /** One line: what runs, in the store's terms (shown under the store's table and kept in the result). */
  description: string;
  /** Needs `VariantBuilder.buildVariant` before its first query (timed as `<variant>:BUILD`). */
  build?: boolean;
  /** False when the secondary indexes (INDEX-BUILD) play no part in this variant, e.g. CouchDB's views. */
  usesIndexes?: boolean;
}

/** A size on disk and how the store reported it, or why there is no figure. */
export interface DiskSize {
  /** Absent when the store (or its local stand-in) cannot report one: never a guessed number. */
  bytes?: number;
  /** Where the figure comes from (e.g. `collStats storageSize`), or why there is none. */
  method: string;
}

export interface PersonsDialect {
  /** The ways this dialect runs queries, in the order they are run. */
  readonly variants: readonly QueryVariant[];
  /** Remove the collection and everything built on it; fine when there is nothing. */
  drop(): Promise<void>;
  /** Create the collection (and whatever must exist before the first write). */
  prepare(): Promise<void>;
  /** Write documents with the store's bulk API (`--insert-mode bulk`). */
  insertMany(records: readonly PersonRecord[]): Promise<void>;
  /**
   * Write one document alone, with the store's single-document write (insertOne, one PUT, one
   * INSERT, …): the thesis's insert time, one insert per document (`--insert-mode single`).
   */
  insertOne(record: PersonRecord): Promise<void>;
  /**
   * The documents matching `query`, every one fetched whole (result fully drained) and decoded
   * back to the model's shape (ids and bodies are both checked against the oracle).
   */
  query(variant: string, query: PersonsQuery): Promise<PersonRecord[]>;
  /** Bytes the dataset takes on disk after the load (data only, no secondary indexes). */
  sizeOnDisk(): Promise<DiskSize>;
  /** For a store without a Compactor: why there is nothing to compact, in one line. */
  readonly noCompaction?: string;
  /** Release anything the dialect opened itself (the store is closed by its owner). */
  close?(): Promise<void>;
}

export interface IndexBuilder {
  /** Build the secondary indexes for the queries on the loaded data; resolves when they are usable. Returns a one-line description. Throws UnsupportedError where the store (or its stand-in) cannot. */
  buildIndexes(): Promise<string>;
}

export interface VariantBuilder {
  /** Build what a variant marked `build` needs before its first query; resolves when built. Returns a one-line description. Throws UnsupportedError where the store (or its stand-in) cannot (its queries are then UNSUPPORTED). */
  buildVariant(variant: string): Promise<string>;
}

export interface Compactor {
  /** Run the store's compaction on the dataset and wait for it; returns the size afterwards. Throws UnsupportedError where the server refuses it. */
  compact(): Promise<DiskSize>;
}

export interface QueryExplainer {
  /**
   * How the store runs `query` in `variant`: its own evidence (explain, `_explain`, EXPLAIN,
   * tracing, the structures read) and whether an index was meant to serve it. Called once per
   * query and variant after the timed runs; it may run the query again. Throws UnsupportedError
   * where the store (or its stand-in) cannot say.
   */
  explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan>;
}

export function canExplain(d: PersonsDialect): d is PersonsDialect & QueryExplainer {
  return typeof (d as Partial<QueryExplainer>).explain === 'function';
}

export function canBuildIndexes(d: PersonsDialect): d is PersonsDialect & IndexBuilder {
  return typeof (d as Partial<IndexBuilder>).buildIndexes === 'function';
}

export function canBuildVariant(d: PersonsDialect): d is PersonsDialect & VariantBuilder {
  return typeof (d as Partial<VariantBuilder>).buildVariant === 'function';
}

export function canCompact(d: PersonsDialect): d is PersonsDialect & Compactor {
  return typeof (d as Partial<Compactor>).compact === 'function';
}

/** Each store file's one export: `export const dialect: PersonsDialectDefinition<'redis'> = { store: 'redis', create: … }`. */
export type PersonsDialectDefinition<K extends StoreName> = DialectDefinition<K, DialectContext, PersonsDialect>;
