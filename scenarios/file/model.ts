/**
 * A scenario file as docbench runs it: every collection with its field types and generator,
 * every query read into conditions (filter.ts) with its order, every write, the mix and the run
 * settings, all checked (compile.ts). Store dialects translate from this, never from the raw file.
 */
import type { DocumentInfo, ResolvedPath } from './fields.ts';
import type { Condition } from './filter.ts';
import type { DocumentGenerator } from './generator.ts';
import type { ParamSpec } from './schema.ts';

export interface IndexField {
  path: string;
  descending: boolean;
  resolved: ResolvedPath;
}

export interface Collection {
  /** The name the file gives it. */
  name: string;
  /** Its name on the stores: `<scenario>_<collection>`, so two scenarios (or two test runs) never share one. */
  storeName: string;
  count: number;
  info: DocumentInfo;
  generator: DocumentGenerator;
  indexes: IndexField[][];
}

/** One key of a query's order; `_id` ends every order (the tie rule). */
export interface SortKey {
  path: string;
  descending: boolean;
  resolved: ResolvedPath;
}

export interface Join {
  /** The collection the ref field points into. */
  from: string;
  /** This collection's ref field. */
  on: ResolvedPath;
  as: string;
  project?: string[];
}

interface QueryBase {
  name: string;
  collection: string;
  /** The filter as the file wrote it (MongoDB's language, `"$name"` for parameters). */
  filter: Readonly<Record<string, unknown>>;
  /** The same, read into conditions (ANDed). */
  where: Condition[];
  params: ReadonlyMap<string, ParamSpec>;
  /** Every path the query reads (filter, order, grouping, projection, join key): a write to one of them changes its answer. */
  reads: ReadonlySet<string>;
  /** True when the query returns whole documents (no projection), reading every field. */
  readsAll: boolean;
  /** Collections whose documents it reads (its own, and a joined one). */
  collections: readonly string[];
}

/** Documents: filtered, ordered, paged, projected, optionally joined. */
export interface FindQuery extends QueryBase {
  kind: 'find';
  /**
   * The order the answer must come in: the file's sort keys, then `_id` in the direction of the
   * last key. Empty when the answer is a set: no sort, no skip and no limit.
   */
  order: SortKey[];
  /** Whether the file gave a sort (else the order, if any, is `_id` alone). */
  sorted: boolean;
  skip: number;
  limit?: number;
  project?: string[];
  join?: Join;
}

/** One row per value of `by`: how many documents, and the sum of `sum`. */
export interface GroupQuery extends QueryBase {
  kind: 'group';
  by: ResolvedPath;
  sum?: ResolvedPath;
}

/** How many documents match. */
export interface CountQuery extends QueryBase {
  kind: 'count';
}

export type Query = FindQuery | GroupQuery | CountQuery;

export type Write =
  | { name: string; kind: 'insert'; collection: string }
  | { name: string; kind: 'update'; collection: string; set: string[] }
  | { name: string; kind: 'delete'; collection: string };

export interface RunSettings {
  operationcount: number;
  threadcount: number;
  target: number;
  maxexecutiontime: number;
  warmuptime: number;
  readbacksample: number;
  parametersets: number;
}

export const RUN_DEFAULTS: RunSettings = {
  operationcount: 1000,
  threadcount: 4,
  target: 0,
  maxexecutiontime: 0,
  warmuptime: 0,
  readbacksample: 0.1,
  parametersets: 200,
};

export interface Scenario {
  name: string;
  /** The file it came from, for messages. */
  file: string;
  seed: number;
  /** A digest of what the stores hold (collections and their generators): a seeded store whose manifest has another is stale. */
  datasetDigest: string;
  collections: ReadonlyMap<string, Collection>;
  queries: ReadonlyMap<string, Query>;
  writes: ReadonlyMap<string, Write>;
  /** Operation (query or write name) and proportion, summing to 1. */
  mix: readonly [string, number][];
  run: RunSettings;
}

export function collectionOf(scenario: Scenario, name: string): Collection {
  return scenario.collections.get(name)!;
}

/**
 * Whether a declared index can serve the query: one whose first field is a condition of the
 * filter outside any $or, or the query's first sort key. A plan that reads everything while
 * one could is flagged.
 */
export function indexExpected(query: Query, collection: Collection): boolean {
  const lead = new Set(
    query.where.flatMap((c) =>
      c.kind === 'compare' || c.kind === 'exists' || c.kind === 'elemMatch'
        ? [c.path.path]
        : c.kind === 'and'
          ? c.of.flatMap((x) => ('path' in x ? [x.path.path] : []))
          : [],
    ),
  );
  if (query.kind === 'find' && query.order[0] !== undefined && query.order[0].path !== '_id')
    lead.add(query.order[0].path);
  return collection.indexes.some((index) => lead.has(index[0]!.path));
}
