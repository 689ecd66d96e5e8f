/**
 * What each store implements to run a scenario file: how it keeps the collections, what the
 * file's `indexes` become, and each query translated into its own idiom, or refused with the
 * reason (UNSUPPORTED). One file per store under `stores/`, each exporting `dialect`, listed in
 * dialects.ts; the same method names in every one, so two stores read side by side.
 *
 * A dialect translates; it never decides whether an answer is right (run.ts checks every one
 * against the oracle) and never touches the clock (run.ts times every call). Answers come back
 * in the one shape of answers.ts: documents with `_id`, numbers as numbers, dates as ISO
 * strings, a field a document does not have absent (never null).
 *
 * Writes hand the dialect the document before and after: stores whose applications maintain
 * their own query structures (Redis, Cassandra query tables) update them in the same write.
 */
import type { StoreName } from '../../src/stores/stores.ts';
import type { DialectDefinition } from '../shared/dialects.ts';
import type { ScenarioPlan } from '../shared/plans.ts';
import type { Answer } from './answers.ts';
import type { Doc, Value } from './generator.ts';
import type { Collection, Query, Scenario } from './model.ts';

export interface FileDialectContext {
  scenario: Scenario;
}

/** How a store runs one query: its statement in one line, or why it cannot. */
export type Translation =
  { supported: true; description: string; usesIndex: boolean } | { supported: false; reason: string };

/** What the store holds of a scenario: written by the seed, checked before a run. */
export interface Manifest {
  scenario: string;
  datasetDigest: string;
  counts: Record<string, number>;
  seededAt: string;
  /** A run's writes are not yet undone (the run was interrupted): seed again. */
  dirty: boolean;
}

export interface FileDialect {
  /** Each query's translation (by query name). */
  readonly translations: ReadonlyMap<string, Translation>;
  /** What the file's indexes (and the structures the queries need) are on this store, in one line. */
  readonly structures: string;
  /** Remove the scenario's collections and everything built on them; fine when there is nothing. */
  drop(): Promise<void>;
  /** Create what must exist before the first write (collections, tables, query structures' homes). */
  prepare(): Promise<void>;
  /** Write documents with the store's bulk API (the seed). */
  insertMany(collection: Collection, docs: readonly Doc[]): Promise<void>;
  /** Build the file's indexes after the load (timed as INDEX-BUILD); returns what was built, in one line. */
  buildIndexes(): Promise<string>;
  /** Run a query; throws UnsupportedError when the translation says it cannot. */
  query(query: Query, params: Readonly<Record<string, Value>>): Promise<Answer>;
  /** How the store ran a query (taken once per query, outside the timed run). */
  explain(query: Query, params: Readonly<Record<string, Value>>): Promise<ScenarioPlan>;
  /** One document by id; null when there is none. */
  read(collection: Collection, id: string): Promise<Doc | null>;
  insert(collection: Collection, doc: Doc): Promise<void>;
  /** Set `paths` of a document to their values in `after` (a path absent from `after` is removed); false when it is not there. */
  update(collection: Collection, before: Doc, after: Doc, paths: readonly string[]): Promise<boolean>;
  /** False when the document is not there. */
  delete(collection: Collection, before: Doc): Promise<boolean>;
  readManifest(): Promise<Manifest | null>;
  writeManifest(manifest: Manifest): Promise<void>;
  close?(): Promise<void>;
}

/** Each store file's one export: `export const dialect: FileDialectDefinition<'redis'> = { store: 'redis', create: … }`. */
export type FileDialectDefinition<K extends StoreName> = DialectDefinition<K, FileDialectContext, FileDialect>;

/** A supported translation. */
export const runs = (description: string, usesIndex = true): Translation => ({
  supported: true,
  description,
  usesIndex,
});
/** A refused one, with the reason. */
export const refuses = (reason: string): Translation => ({ supported: false, reason });

/** The value at a dotted path of a document (undefined when absent). */
export function valueAt(doc: Doc, path: string): Value | undefined {
  let value: Value | undefined = doc;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Doc)[segment];
  }
  return value;
}

/** The manifest's key / document id in every store. */
export const MANIFEST_ID = 'manifest';

/** The scenario's prefix on a store: every collection, table, key and index it makes starts with it. */
export function prefixOf(scenario: Scenario): string {
  return scenario.name.replace(/-/g, '_');
}
