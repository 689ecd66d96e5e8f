/**
 * The shape of a query as a key-value store's application answers it: from structures its
 * writer maintains, one per query (Redis sorted sets and hashes, Cassandra query tables), not
 * from a query language. Such a structure is partitioned by the query's equality parameters,
 * ordered by its first sort key (or the one range it has), and holds only the documents meeting
 * the query's constant conditions, which the writer tests when it writes (with mingo: the
 * oracle's own evaluator, so the writer and the oracle read a condition alike).
 *
 *   partition   each `field: $param` (`$eq`): one partition per value; a document whose field is
 *               an array is in the partition of each of its elements
 *   range       at most one `$gt / $gte / $lt / $lte` with parameters, on the first sort key (or,
 *               unordered, on a number or date field): a range of the order
 *   order       the sort keys and `_id`
 *   constant    every condition without a parameter, any operator: tested by the writer
 *
 * Anything else with a parameter ($ne, $in, $exists, $or, $elemMatch over parameters, two ranges)
 * has no such structure: the query is refused with the reason.
 */
import { Query as MingoQuery } from 'mingo';
import type { ResolvedPath, ScalarType } from '../fields.ts';
import { operandValue, type CompareOp, type Condition } from '../filter.ts';
import { valuesAt, type Doc, type Scalar, type Value } from '../generator.ts';
import type { Query, SortKey } from '../model.ts';

export interface Shape {
  partition: { path: ResolvedPath; param: string }[];
  range?: { path: ResolvedPath; bounds: { op: CompareOp; param: string }[] };
  /** The order the structure keeps (the query's; for an unordered range, that field then `_id`). */
  order: SortKey[];
  /** Whether the answer's order matters (the query's own order). */
  ordered: boolean;
  /** A test of the constant conditions (null: none). */
  constant: MingoQuery | null;
}

const isParamValue = (v: unknown) => typeof v === 'string' && /^\$[A-Za-z][A-Za-z0-9_]*$/.test(v);

/** The filter without its parameter conditions (they are the structure's partition and range). */
function constantPart(filter: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (isParamValue(value)) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !key.startsWith('$')) {
      const kept = Object.entries(value).filter(([, v]) => !isParamValue(v));
      if (kept.length > 0) out[key] = Object.fromEntries(kept);
      continue;
    }
    out[key] = value;
  }
  return out;
}

const hasParam = (c: Condition): boolean =>
  c.kind === 'compare'
    ? 'param' in c.operand
    : c.kind === 'and' || c.kind === 'or' || c.kind === 'elemMatch'
      ? c.of.some(hasParam)
      : false;

const ordinal = (t: ScalarType) => t === 'int' || t === 'decimal' || t === 'date';

/** The query's shape, or why it has none. */
export function shapeOf(query: Query, store: string): Shape | { refused: string } {
  const partition: Shape['partition'] = [];
  let range: Shape['range'];
  for (const c of query.where) {
    if (!hasParam(c)) continue;
    if (c.kind !== 'compare')
      return {
        refused: `a parameter inside ${c.kind === 'elemMatch' ? '$elemMatch' : `$${c.kind}`} has no structure an application keeps on ${store} (one per query, partitioned by equalities)`,
      };
    const param = 'param' in c.operand ? c.operand.param : '';
    if (c.op === '$eq') {
      if (c.path.leaf.kind !== 'scalar') return { refused: `${c.path.path} holds no values to partition by` };
      partition.push({ path: c.path, param });
    } else if (['$gt', '$gte', '$lt', '$lte'].includes(c.op)) {
      if (range !== undefined && range.path.path !== c.path.path)
        return {
          refused: `ranges on ${range.path.path} and ${c.path.path}: a structure keeps one order to range over`,
        };
      if (c.path.leaf.kind !== 'scalar' || !ordinal(c.path.leaf.type) || c.path.arrays.length > 0)
        return {
          refused: `a range on ${c.path.path}, which is ${c.path.arrays.length > 0 ? 'in an array' : 'not a number or a date'}: a structure on ${store} orders by one number`,
        };
      range ??= { path: c.path, bounds: [] };
      range.bounds.push({ op: c.op, param });
    } else {
      return {
        refused: `${c.path.path} ${c.op} $${param}: only equalities and one range take parameters in a structure the writer keeps (${c.op} with a constant would be tested by the writer)`,
      };
    }
  }
  let order = query.kind === 'find' ? query.order : [];
  const ordered = order.length > 0;
  if (range !== undefined) {
    const first = order[0];
    if (first !== undefined && first.path !== '_id' && first.path !== range.path.path)
      return {
        refused: `the range on ${range.path.path} is not on the first sort key (${first.path}): a structure ordered by ${first.path} cannot range over ${range.path.path}`,
      };
    if (first === undefined || first.path === '_id')
      order = [
        { path: range.path.path, descending: false, resolved: range.path },
        ...(order.length > 0
          ? order
          : [
              {
                path: '_id',
                descending: false,
                resolved: {
                  path: '_id',
                  leaf: { kind: 'scalar', type: 'string', required: true },
                  arrays: [],
                  required: true,
                },
              } as SortKey,
            ]),
      ];
  }
  if (query.kind === 'group' && range !== undefined)
    return {
      refused: `a range on ${range.path.path} before grouping by ${query.by.path}: the structure groups by value, it keeps no order to range over`,
    };
  const constant = constantPart(query.filter);
  return {
    partition,
    ...(range ? { range } : {}),
    order,
    ordered,
    constant: Object.keys(constant).length > 0 ? new MingoQuery(constant) : null,
  };
}

/**
 * The partitions a document belongs to (each a list of values, in the shape's order); none when
 * it fails the constant test, or lacks a value to order it by: a query sorts only by a field its
 * answers all have (compile.ts), and no range takes a missing value.
 */
export function partitionsOf(shape: Shape, doc: Doc): Scalar[][] {
  if (shape.constant !== null && !shape.constant.test(doc)) return [];
  if (shape.order.some((k) => valuesAt(doc, k.path.split('.')).length === 0)) return [];
  let out: Scalar[][] = [[]];
  for (const p of shape.partition) {
    const values = [...new Set(valuesAt(doc, p.path.path.split('.')) as Scalar[])];
    out = out.flatMap((prefix) => values.map((v) => [...prefix, v]));
  }
  return out;
}

/** The partition a query's parameters name. */
export function partitionOf(shape: Shape, params: Readonly<Record<string, Value>>): Scalar[] {
  return shape.partition.map((p) => params[p.param] as Scalar);
}

/** A range bound's value with its operator, in the order's terms. */
export function boundsOf(shape: Shape, params: Readonly<Record<string, Value>>): { op: CompareOp; value: Scalar }[] {
  return (shape.range?.bounds ?? []).map((b) => ({
    op: b.op,
    value: operandValue({ param: b.param }, params) as Scalar,
  }));
}

/** An order key's value as a number (dates as epoch milliseconds), for a score. */
export function scoreOf(value: Value | undefined, type: ScalarType): number {
  if (type === 'date') return Date.parse(String(value));
  return Number(value);
}
