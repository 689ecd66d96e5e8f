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
 *                A range on another field than the order's (key-shape.ts refuses a second range:
 *                a key has one order) is a filter in the region server: the index row covers
 *                that field, `i:f<n>` = its value encoded as in the key, and the scan carries a
 *                SingleColumnValueFilter per bound (a binary comparison: the encoding's byte
 *                order is the value's order; a row without the column is skipped, as a missing
 *                field meets no range), so `limit` counts only rows that pass.
 *   counter row  group: `<query>/<partition values><group value as JSON>`, cells `i:c` (count)
 *                and `i:s` (the sum in whole units of the summed field's scale, so it stays
 *                exact): 8-byte counters changed by HBase's atomic Increment.
 */
import type { Cell, Row } from '../../../src/stores/hbase/cellset.ts';
import { filterString } from '../../../src/stores/hbase/handle.ts';
import type { ResolvedPath } from '../fields.ts';
import { operandValue, type CompareOp, type Condition } from '../filter.ts';
import { canonical, sumDecimals } from '../answers.ts';
import { valueAt } from '../dialect.ts';
import type { Doc, Scalar, Value } from '../generator.ts';
import type { Query } from '../model.ts';
import { after, keyPart } from './hbase-keys.ts';
import { boundsOf, partitionOf, partitionsOf, shapeOf, type Shape } from './key-shape.ts';

export const INDEX_FAMILY = 'i';
export const ID_COLUMN = `${INDEX_FAMILY}:id`;
export const COUNT_COLUMN = `${INDEX_FAMILY}:c`;
export const SUM_COLUMN = `${INDEX_FAMILY}:s`;

type Params = Readonly<Record<string, Value>>;

/** A range kept as a covered column of the index row and tested by a filter in the region server. */
export interface CoveredRange {
  path: ResolvedPath;
  column: string;
  bounds: { op: CompareOp; param: string }[];
}

/** A query the writer keeps rows for, with its shape. */
export interface Indexed {
  query: Query;
  shape: Shape;
  /** Ranges left to a filter (find and count only). */
  covered: CoveredRange[];
}

const RANGE_OPS = new Set<string>(['$gt', '$gte', '$lt', '$lte']);
const FILTER_OPS: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
const rangeParam = (c: Condition): c is Extract<Condition, { kind: 'compare' }> =>
  c.kind === 'compare' && 'param' in c.operand && RANGE_OPS.has(c.op);

/**
 * The rows a query needs, or why it has none: its key shape (key-shape.ts); when that is refused
 * for ranges on a field other than the order's, the shape without them, those ranges covered.
 */
export function indexedOf(q: Query): Indexed | { refused: string } {
  const shape = shapeOf(q, 'HBase');
  if (!('refused' in shape)) return { query: q, shape, covered: [] };
  if (q.kind === 'group') return shape;
  const ranges = q.where.filter(rangeParam);
  const lead = (q.kind === 'find' ? q.order.find((k) => k.path !== '_id')?.path : undefined) ?? ranges[0]?.path.path;
  const extra = ranges.filter((c) => c.path.path !== lead);
  if (extra.length === 0 || extra.some((c) => c.path.leaf.kind !== 'scalar' || c.path.arrays.length > 0)) return shape;
  const dropped = new Set<Condition>(extra);
  const rest = shapeOf({ ...q, where: q.where.filter((c) => !dropped.has(c)) }, 'HBase');
  if ('refused' in rest) return rest;
  const covered: CoveredRange[] = [];
  for (const c of extra) {
    let range = covered.find((r) => r.path.path === c.path.path);
    if (range === undefined)
      covered.push((range = { path: c.path, column: `${INDEX_FAMILY}:f${covered.length}`, bounds: [] }));
    range.bounds.push({ op: c.op, param: (c.operand as { param: string }).param });
  }
  return { query: q, shape: rest, covered };
}

/** The region-server filter of a query's covered ranges (undefined: none). */
export function coveredFilter({ covered }: Indexed, params: Params): string | undefined {
  const parts = covered.flatMap((r) => {
    const [family, qualifier] = r.column.split(':') as [string, string];
    return r.bounds.map(
      (b) =>
        `SingleColumnValueFilter(${filterString(family)},${filterString(qualifier)},${FILTER_OPS[b.op]},${filterString(`binary:${keyPart(operandValue({ param: b.param }, params) as Scalar)}`)},true,true)`,
    );
  });
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}

/** Whether a document meets a query's covered ranges, compared as the filter compares them. */
export function meetsCovered({ covered }: Indexed, doc: Doc, params: Params): boolean {
  return covered.every((r) => {
    const value = valueAt(doc, r.path.path);
    if (value === undefined || value === null || typeof value === 'object') return false;
    const have = Buffer.from(keyPart(value));
    return r.bounds.every((b) => {
      const cmp = Buffer.compare(have, Buffer.from(keyPart(operandValue({ param: b.param }, params) as Scalar)));
      return b.op === '$gt' ? cmp > 0 : b.op === '$gte' ? cmp >= 0 : b.op === '$lt' ? cmp < 0 : cmp <= 0;
    });
  });
}

/** The key prefix of one partition of a query. */
export function partitionPrefix(q: Query, partition: readonly Scalar[]): string {
  return `${q.name}/${partition.map((v) => keyPart(v)).join('')}`;
}

/** The order components of an index row: the sort keys (or the range's field), then `_id` when they lack it. */
function orderPart({ shape }: Indexed, doc: Doc): string | undefined {
  const keys = shape.order.some((k) => k.path === '_id')
    ? shape.order
    : [...shape.order, { path: '_id', descending: false }];
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
  const cells: Cell[] = [{ column: ID_COLUMN, value: String(doc._id) }];
  for (const r of indexed.covered) {
    const value = valueAt(doc, r.path.path);
    if (value !== undefined && value !== null && typeof value !== 'object')
      cells.push({ column: r.column, value: keyPart(value) });
  }
  return indexKeys(indexed, doc).map((key) => ({ key, cells }));
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
