/**
 * A scenario file's queries in SQL++ (Couchbase Server 7), from the conditions of filter.ts, with
 * MongoDB's meaning kept where SQL++ says it otherwise:
 *
 *   a field of an array          ANY v IN d.tags SATISFIES v = $1 END (the variable `v`, as the
 *                                array indexes name it, so the planner matches them)
 *   $ne / $nin                   also true where the field is MISSING, and on an array true when no
 *                                element matches: (d.f IS MISSING OR NOT (ANY … END))
 *   $exists                      IS [NOT] MISSING
 *   $elemMatch                   one ANY over the array with every condition on the same element
 *   order                        ORDER BY the keys, then META(d).id (the tie rule)
 *   projection                   SELECT RAW an object constructor ({"_id": META(d).id, "stats":
 *                                {"views": d.stats.views}}): MISSING fields are left out, as
 *                                MongoDB leaves them; through an array, ARRAY … FOR … END
 *   join                         LEFT JOIN … ON KEYS d.author (a lookup by document key)
 *   group / count                GROUP BY with COUNT(*) and SUM(), SELECT RAW COUNT(*)
 *
 * Values are positional parameters ($1, $2, …), never spliced into the statement.
 */
import { identifier } from '../../../src/stores/couchbase/handle.ts';
import type { FieldInfo } from '../fields.ts';
import { operandValue, relativeTo, type Condition } from '../filter.ts';
import type { Value } from '../generator.ts';
import type { Query } from '../model.ts';

const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;

class Statement {
  readonly parameters: unknown[] = [];
  constructor(private readonly params: Readonly<Record<string, Value>>) {}

  param(value: unknown): string {
    this.parameters.push(value);
    return `$${this.parameters.length}`;
  }

  /** The variable of an ANY / ARRAY under `root`: `v` at the top (the array indexes' own), `vv`, … inside. */
  variable(root: string): string {
    return root === 'd' ? 'v' : `${root}v`;
  }

  value(c: Extract<Condition, { kind: 'compare' }>): string {
    return this.param(operandValue(c.operand, this.params));
  }
}

/** `d.stats.views` for a path under `root`. */
const access = (root: string, path: string) => [root, ...path.split('.').filter(Boolean).map(q)].join('.');

/**
 * A condition on `path` (relative to `root`), through the arrays it crosses: `test` is given the
 * expression of the value itself.
 */
function through(
  s: Statement,
  root: string,
  path: string,
  arrays: readonly string[],
  test: (expr: string) => string,
): string {
  if (arrays.length === 0) return test(access(root, path));
  const array = arrays[0]!;
  const v = s.variable(root);
  const rest = path === array ? '' : path.slice(array.length + 1);
  const inner = arrays.slice(1).map((a) => a.slice(array.length + 1));
  return `ANY ${v} IN ${access(root, array)} SATISFIES ${through(s, v, rest, inner, test)} END`;
}

const OPS: Record<string, string> = { $eq: '=', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=', $in: 'IN' };

export function condition(s: Statement, root: string, c: Condition): string {
  switch (c.kind) {
    case 'and':
    case 'or':
      return c.of.length === 0
        ? 'TRUE'
        : `(${c.of.map((x) => condition(s, root, x)).join(c.kind === 'and' ? ' AND ' : ' OR ')})`;
    case 'exists': {
      const has = through(s, root, c.path.path, c.path.arrays, (e) => `${e} IS NOT MISSING`);
      return c.exists ? has : `NOT (${has})`;
    }
    case 'elemMatch': {
      const v = s.variable(root);
      const arrays = c.path.arrays.filter((a) => a !== c.path.path);
      const inner = c.of.map((x) => condition(s, v, relativeTo(x, c.path.path))).join(' AND ');
      return through(s, root, c.path.path, arrays, (e) => `ANY ${v} IN ${e} SATISFIES ${inner} END`);
    }
    case 'compare': {
      const negated = c.op === '$ne' || c.op === '$nin';
      const op = negated ? (c.op === '$ne' ? '=' : 'IN') : OPS[c.op]!;
      const value = s.value(c);
      const test = through(s, root, c.path.path, c.path.arrays, (e) => `${e} ${op} ${value}`);
      // MongoDB: $ne / $nin also match documents without the field, and arrays with no such element.
      return negated ? `(${access(root, c.path.arrays[0] ?? c.path.path)} IS MISSING OR NOT (${test}))` : test;
    }
  }
}

/** The object constructor of a projection: `{"_id": META(d).id, "title": d.title, "stats": {"views": d.stats.views}}`. */
export function projection(
  root: string,
  idExpr: string,
  paths: readonly string[] | undefined,
  doc: ReadonlyMap<string, FieldInfo>,
): string {
  if (paths === undefined) return `OBJECT_PUT(${root}, "_id", ${idExpr})`;
  const tree = new Map<string, unknown>();
  for (const p of paths) {
    let node = tree;
    const segments = p.split('.');
    for (const [i, seg] of segments.entries()) {
      if (i === segments.length - 1) node.set(seg, true);
      else {
        if (!(node.get(seg) instanceof Map)) node.set(seg, new Map());
        node = node.get(seg) as Map<string, unknown>;
      }
    }
  }
  let n = 0;
  const build = (expr: string, t: Map<string, unknown>, fields: ReadonlyMap<string, FieldInfo> | undefined): string => {
    const parts = [...t].map(([seg, sub]) => {
      let info = fields?.get(seg);
      const e = `${expr}.${q(seg)}`;
      if (sub === true) return `${JSON.stringify(seg)}: ${e}`;
      if (info?.kind === 'array') {
        while (info.kind === 'array') info = info.element;
        const v = `p${++n}`;
        return `${JSON.stringify(seg)}: ARRAY ${build(v, sub as Map<string, unknown>, info.kind === 'object' ? info.fields : undefined)} FOR ${v} IN ${e} END`;
      }
      return `${JSON.stringify(seg)}: ${build(e, sub as Map<string, unknown>, info?.kind === 'object' ? info.fields : undefined)}`;
    });
    return `{${parts.join(', ')}}`;
  };
  const inner = build(root, tree, doc);
  return `OBJECT_PUT(${inner}, "_id", ${idExpr})`;
}

export interface SqlppStatement {
  statement: string;
  parameters: unknown[];
}

/** The SQL++ of a query on `keyspace` (joined collections' keyspaces by file name). */
export function sqlppOf(
  query: Query,
  params: Readonly<Record<string, Value>>,
  keyspaceOf: (collection: string) => string,
  docOf: (collection: string) => ReadonlyMap<string, FieldInfo>,
): SqlppStatement {
  const s = new Statement(params);
  const from = `${keyspaceOf(query.collection)} AS d`;
  const where = query.where.length > 0 ? ` WHERE ${query.where.map((c) => condition(s, 'd', c)).join(' AND ')}` : '';
  if (query.kind === 'count')
    return { statement: `SELECT RAW COUNT(*) FROM ${from}${where}`, parameters: s.parameters };
  if (query.kind === 'group') {
    const by = access('d', query.by.path);
    const sum = query.sum ? `, SUM(${access('d', query.sum.path)}) AS sum` : '';
    return {
      statement: `SELECT ${by} AS _id, COUNT(*) AS count${sum} FROM ${from}${where} GROUP BY ${by}`,
      parameters: s.parameters,
    };
  }
  let select = projection('d', 'META(d).id', query.project, docOf(query.collection));
  let join = '';
  if (query.join) {
    select = `OBJECT_PUT(${select}, ${JSON.stringify(query.join.as)}, ${projection('j', 'META(j).id', query.join.project, docOf(query.join.from))})`;
    join = ` LEFT JOIN ${keyspaceOf(query.join.from)} AS j ON KEYS ${access('d', query.join.on.path)}`;
  }
  const order =
    query.order.length > 0
      ? ` ORDER BY ${query.order.map((k) => `${k.path === '_id' ? 'META(d).id' : access('d', k.path)}${k.descending ? ' DESC' : ''}`).join(', ')}`
      : '';
  const page = `${query.skip > 0 ? ` OFFSET ${s.param(query.skip)}` : ''}${query.limit !== undefined ? ` LIMIT ${s.param(query.limit)}` : ''}`;
  return { statement: `SELECT RAW ${select} FROM ${from}${join}${where}${order}${page}`, parameters: s.parameters };
}

/** A declared index as GSI: array fields as `DISTINCT ARRAY v FOR v IN tags END` (the queries' variable), then `META().id`. */
export function gsiIndex(
  keyspace: string,
  name: string,
  fields: readonly { path: string; descending: boolean; arrays: readonly string[] }[],
): string {
  const keys = fields.map((f) => {
    if (f.arrays.length === 0) return `${f.path.split('.').map(q).join('.')}${f.descending ? ' DESC' : ''}`;
    const array = f.arrays[0]!;
    const rest =
      f.path === array
        ? ''
        : `.${f.path
            .slice(array.length + 1)
            .split('.')
            .map(q)
            .join('.')}`;
    return `DISTINCT ARRAY v${rest} FOR v IN ${array.split('.').map(q).join('.')} END`;
  });
  // The tie rule every order ends with (META(d).id in the last key's direction): without it in
  // the index, an ORDER BY … LIMIT sorts every entry of the filter's range instead of reading
  // the first ones in index order.
  const last = fields.at(-1);
  if (last !== undefined && !fields.some((f) => f.path === '_id'))
    keys.push(`META().id${last.descending ? ' DESC' : ''}`);
  return `CREATE INDEX ${identifier(name)} IF NOT EXISTS ON ${keyspace}(${keys.join(', ')}) WITH {"defer_build": true}`;
}
