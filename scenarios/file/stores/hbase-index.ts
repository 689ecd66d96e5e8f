/**
 * The index rows and counter rows a scenario file's queries need on HBase (hbase.ts), derived
 * from each query's shape (key-shape.ts), all in one table, each query under its own row-key
 * prefix `<query>/`:
 *
 *   index row    find, count: `<query>/<partition values><order values><_id>` (hbase-keys.ts),
 *                one per partition the document belongs to (every element of an array field),
 *                when it meets the query's constant conditions; one cell `i:id`, the document's
 *                id. A partition's rows are one key range in the query's order; a range on the
 *                first sort key is a narrower key range.
 *   counter row  group: `<query>/<partition values><group value as JSON>`, cells `i:c` (count)
 *                and `i:s` (the sum in whole units of the summed field's scale, so it stays
 *                exact): 8-byte counters changed by HBase's atomic Increment.
 */
import type { Row } from '../../../src/stores/hbase/cellset.ts';
import { canonical, sumDecimals } from '../answers.ts';
import { valueAt } from '../dialect.ts';
import type { Doc, Scalar, Value } from '../generator.ts';
import type { Query } from '../model.ts';
import { after, keyPart } from './hbase-keys.ts';
import { boundsOf, partitionOf, partitionsOf, type Shape } from './key-shape.ts';

export const INDEX_FAMILY = 'i';
export const ID_COLUMN = `${INDEX_FAMILY}:id`;
export const COUNT_COLUMN = `${INDEX_FAMILY}:c`;
export const SUM_COLUMN = `${INDEX_FAMILY}:s`;

type Params = Readonly<Record<string, Value>>;

/** A query the writer keeps rows for, with its shape. */
export interface Indexed {
  query: Query;
  shape: Shape;
}

/** The key prefix of one partition of a query. */
export function partitionPrefix(q: Query, partition: readonly Scalar[]): string {
  return `${q.name}/${partition.map((v) => keyPart(v)).join('')}`;
}

/** The order components of an index row: the sort keys (or the range's field), then `_id` when they lack it. */
function orderPart({ shape }: Indexed, doc: Doc): string | undefined {
  const keys = shape.order.some((k) => k.path === '_id') ? shape.order : [...shape.order, { path: '_id', descending: false }];
  let out = '';
  for (const k of keys) {
    const value = valueAt(doc, k.path);
    // A document without the range's field cannot meet the range: it has no row.
    if (value === undefined || (value !== null && typeof value === 'object')) return undefined;
    out += keyPart(value as Scalar, k.descending);
  }
  return out;
}

/** The keys of a document's index rows for a find or count query. */
export function indexKeys(indexed: Indexed, doc: Doc): string[] {
  if (indexed.query.kind === 'group') return []; // counters, not index rows
  const order = orderPart(indexed, doc);
  if (order === undefined) return [];
  return partitionsOf(indexed.shape, doc).map((p) => partitionPrefix(indexed.query, p) + order);
}

export function indexRows(indexed: Indexed, doc: Doc): Row[] {
  return indexKeys(indexed, doc).map((key) => ({ key, cells: [{ column: ID_COLUMN, value: String(doc._id) }] }));
}

/** Counter changes, by row key: count and scaled sum. */
export type CounterDeltas = Map<string, { count: number; sum: number }>;

/** Add a document's contribution (sign +1) or remove it (-1) to a group query's counters. */
export function addCounters(deltas: CounterDeltas, { query: q, shape }: Indexed, doc: Doc, sign: 1 | -1): void {
  if (q.kind !== 'group') return;
  const scale = 10 ** sumDecimals(q);
  const summed = q.sum ? valueAt(doc, q.sum.path) : undefined;
  const sum = typeof summed === 'number' ? Math.round(summed * scale) : 0;
  for (const partition of partitionsOf(shape, doc)) {
    const key = partitionPrefix(q, partition) + canonical(valueAt(doc, q.by.path));
    const delta = deltas.get(key) ?? { count: 0, sum: 0 };
    delta.count += sign;
    delta.sum += sign * sum;
    deltas.set(key, delta);
  }
}

/** The row-key range a query reads for these parameters (null: the range is empty). */
export function rangeOf({ query: q, shape }: Indexed, params: Params): { startRow: string; stopRow: string } | null {
  const prefix = partitionPrefix(q, partitionOf(shape, params));
  let startRow = prefix;
  let stopRow = after(prefix);
  const first = shape.order[0];
  for (const b of boundsOf(shape, params)) {
    const key = prefix + keyPart(b.value, first!.descending);
    // A descending key turns the value's lower bound into the key's upper one.
    const lower = first!.descending ? b.op === '$lt' || b.op === '$lte' : b.op === '$gt' || b.op === '$gte';
    const inclusive = b.op === '$gte' || b.op === '$lte';
    if (lower) {
      const start = inclusive ? key : after(key);
      if (start > startRow) startRow = start;
    } else {
      const stop = inclusive ? after(key) : key;
      if (stop < stopRow) stopRow = stop;
    }
  }
  return startRow < stopRow ? { startRow, stopRow } : null;
}
