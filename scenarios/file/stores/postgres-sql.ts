/**
 * A scenario file's conditions (filter.ts) as SQL over a JSONB document column `doc` beside the
 * key `id`, with MongoDB's meaning:
 *
 *   a path crossing no array   typed SQL the expression indexes serve: text (strings, dates, ids,
 *                              refs) as `(doc->'a'->>'b') COLLATE "C"` (code point order, as
 *                              MongoDB and the oracle compare strings, whatever the server's
 *                              default collation), numbers and booleans as the JSONB value
 *                              `(doc->'a'->'b')` compared with a JSONB parameter (numerically);
 *                              `$ne` and `$nin` as `(… = …) IS NOT TRUE` (a document without the
 *                              field matches, as in MongoDB)
 *   a path through an array    `$eq`/`$in` as containment, `doc @> '{"tags": ["db"]}'` (any
 *                              element, GIN-indexable); ranges as `jsonb_path_exists(doc,
 *                              '$."a"."b" ? (@ > $v)', vars)`, lax mode matching any element
 *   $exists                    `(doc #> '{a,b}') IS [NOT] NULL`; through arrays `doc @? '$."a"."b"'`
 *   $elemMatch                 `jsonb_path_exists(doc, '$."a"[*] ? (<conditions on @>)', vars)`:
 *                              every condition on the same element
 *   $and, $or                  AND, OR
 *
 * Type brackets: MongoDB compares a value only with values of its own type (a number never
 * matches a string), and so does a SQL/JSON path. A field's type is fixed by its generator, so a
 * parameter of another type can only match nothing (`$eq`, ranges, `$in`) or everything (`$ne`,
 * `$nin`): each call's statement is made for the types its parameters have (and cached), such a
 * comparison becoming the constant it is; a list keeps only the values of the field's type.
 */
import type { ResolvedPath, ScalarType } from '../fields.ts';
import type { CompareOp, Condition, Operand } from '../filter.ts';
import type { Scalar, Value } from '../generator.ts';

export type Params = Readonly<Record<string, Value>>;

/** How a field's values are compared in SQL: as "C"-collated text, or as JSONB numbers and booleans. */
type Kind = 'text' | 'jsonb';

const kindOf = (type: ScalarType): Kind => (type === 'int' || type === 'decimal' || type === 'bool' ? 'jsonb' : 'text');

/** A SQL string literal. */
export const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A key inside a SQL/JSON path, quoted. */
const pathKey = (key: string) => JSON.stringify(key);

/** The JSON type a field of this type holds. */
function fits(type: ScalarType, v: unknown): boolean {
  if (type === 'int' || type === 'decimal') return typeof v === 'number';
  if (type === 'bool') return typeof v === 'boolean';
  return typeof v === 'string';
}

const leafType = (path: ResolvedPath): ScalarType | undefined =>
  path.leaf.kind === 'scalar' ? path.leaf.type : undefined;

/** The SQL expression of a path crossing no array, on the row alias `t`. */
export function fieldExpression(path: string, type: ScalarType, alias = 't'): string {
  if (path === '_id') return `${alias}.id`;
  const segments = path.split('.');
  const last = segments.pop()!;
  const head = [`${alias}.doc`, ...segments.map(literal)].join('->');
  return kindOf(type) === 'text' ? `(${head}->>${literal(last)}) COLLATE "C"` : `(${head}->${literal(last)})`;
}

/** A path's JSONB value (no array on the way), as GROUP BY keys it: a string and a number never equal. */
export function valueExpression(path: string, alias = 't'): string {
  return `(${[`${alias}.doc`, ...path.split('.').map(literal)].join('->')})`;
}

/** The same expression as an expression index names it (no alias). */
export function indexExpression(path: string, type: ScalarType): string {
  if (path === '_id') return 'id';
  const segments = path.split('.');
  const last = segments.pop()!;
  const head = ['doc', ...segments.map(literal)].join('->');
  return kindOf(type) === 'text' ? `((${head}->>${literal(last)}) COLLATE "C")` : `((${head}->${literal(last)}))`;
}

/** Whether a path can be written as a plain expression (no array on the way, a scalar at the end). */
export const plainPath = (path: ResolvedPath) => path.arrays.length === 0 && path.leaf.kind === 'scalar';

/** A SQL/JSON path to a document path (lax: through arrays on the way). */
export const jsonPath = (path: string, root = '$') =>
  path === '' ? root : `${root}.${path.split('.').map(pathKey).join('.')}`;

/** The document `{a: {b: [v]}}` that contains a path's value (arrays where the path crosses them). */
function containing(path: ResolvedPath, value: Scalar): unknown {
  const segments = path.path.split('.');
  let inner: unknown = value;
  for (let i = segments.length - 1; i >= 0; i--) {
    const prefix = segments.slice(0, i + 1).join('.');
    for (const a of path.arrays) if (a === prefix) inner = [inner];
    inner = { [segments[i]!]: inner };
  }
  return inner;
}

const SQL_OPS: Partial<Record<CompareOp, string>> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
const PATH_OPS: Partial<Record<CompareOp, string>> = { $eq: '==', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** One statement being written: its parameters in order, each computed from a call's parameters. */
export class Statement {
  readonly values: ((params: Params) => unknown)[] = [];

  param(get: (params: Params) => unknown, cast: string): string {
    this.values.push(get);
    return `$${this.values.length}::${cast}`;
  }

  bind(params: Params): unknown[] {
    return this.values.map((get) => get(params));
  }
}

const operandValue = (o: Operand, params: Params): Scalar | Scalar[] =>
  'value' in o ? o.value : (params[o.param] as Scalar | Scalar[]);

/**
 * The type signature of a call: for each scalar operand, whether it fits its field. Statements are
 * made per signature (almost always one: every parameter of its field's type).
 */
export function signature(conditions: readonly Condition[], params: Params): string {
  let s = '';
  const visit = (list: readonly Condition[]) => {
    for (const c of list) {
      if (c.kind === 'compare' && c.op !== '$in' && c.op !== '$nin') {
        const type = leafType(c.path);
        s += type === undefined || fits(type, operandValue(c.operand, params)) ? '1' : '0';
      } else if (c.kind === 'and' || c.kind === 'or' || c.kind === 'elemMatch') visit(c.of);
    }
  };
  visit(conditions);
  return s;
}

/** Writes conditions for one call's types (`fit` answers for each scalar operand, in signature order). */
export class ConditionWriter {
  private position = 0;

  constructor(
    private readonly statement: Statement,
    private readonly sig: string,
    private readonly alias = 't',
  ) {}

  private fitsNext(): boolean {
    return this.sig[this.position++] === '1';
  }

  /** The values of a list operand of the field's type. */
  private listOf(o: Operand, type: ScalarType) {
    return (params: Params) => {
      const v = operandValue(o, params);
      return (Array.isArray(v) ? v : [v]).filter((x) => fits(type, x));
    };
  }

  where(conditions: readonly Condition[]): string {
    return conditions.length === 0 ? 'true' : conditions.map((c) => this.condition(c)).join(' AND ');
  }

  private condition(c: Condition): string {
    switch (c.kind) {
      case 'and':
        return `(${this.where(c.of)})`;
      case 'or':
        return `(${c.of.map((x) => this.condition(x)).join(' OR ')})`;
      case 'exists':
        if (c.path.path === '_id') return c.exists ? 'true' : 'false';
        if (c.path.arrays.length === 0) {
          const p = `${this.alias}.doc #> ${literal(
            `{${c.path.path
              .split('.')
              .map((s) => JSON.stringify(s))
              .join(',')}}`,
          )}`;
          return `(${p}) IS ${c.exists ? 'NOT ' : ''}NULL`;
        }
        return `${c.exists ? '' : 'NOT '}(${this.alias}.doc @? ${literal(jsonPath(c.path.path))})`;
      case 'elemMatch': {
        const vars = new PathVars();
        const predicate = this.pathPredicates(c.of, vars, '@', c.path.path);
        const path = `${jsonPath(c.path.path)}[*] ? (${predicate})`;
        return `jsonb_path_exists(${this.alias}.doc, ${literal(path)}, ${this.statement.param((p) => JSON.stringify(vars.bind(p)), 'jsonb')})`;
      }
      case 'compare':
        return this.compare(c.path, c.op, c.operand);
    }
  }

  private compare(path: ResolvedPath, op: CompareOp, operand: Operand): string {
    const type = leafType(path)!;
    const list = op === '$in' || op === '$nin';
    if (!list && !this.fitsNext()) return op === '$ne' ? 'true' : 'false';
    const negate = op === '$ne' || op === '$nin';
    if (plainPath(path)) {
      const e = fieldExpression(path.path, type, this.alias);
      const text = kindOf(type) === 'text';
      const one = (params: Params) => {
        const v = operandValue(operand, params);
        return text ? v : JSON.stringify(v);
      };
      if (list) {
        const values = this.listOf(operand, type);
        const p = text
          ? this.statement.param(values, 'text[]')
          : this.statement.param((params) => values(params).map((v) => JSON.stringify(v)), 'jsonb[]');
        return negate ? `(${e} = ANY(${p})) IS NOT TRUE` : `${e} = ANY(${p})`;
      }
      const p = this.statement.param(one, text ? 'text' : 'jsonb');
      if (op === '$eq') return `${e} = ${p}`;
      if (op === '$ne') return `(${e} = ${p}) IS NOT TRUE`;
      return `${e} ${SQL_OPS[op]} ${p}`;
    }
    // Through an array: equality by containment, ranges by a SQL/JSON path.
    if (op === '$eq' || op === '$ne' || list) {
      const p = list
        ? this.statement.param((params) => {
            const values = this.listOf(operand, type)(params);
            return values.map((v) => JSON.stringify(containing(path, v)));
          }, 'jsonb[]')
        : this.statement.param(
            (params) => JSON.stringify(containing(path, operandValue(operand, params) as Scalar)),
            'jsonb',
          );
      const test = list ? `${this.alias}.doc @> ANY(${p})` : `${this.alias}.doc @> ${p}`;
      return negate ? `NOT (${test})` : test;
    }
    const p = this.statement.param((params) => JSON.stringify({ v: operandValue(operand, params) }), 'jsonb');
    return `jsonb_path_exists(${this.alias}.doc, ${literal(`${jsonPath(path.path)} ? (@ ${PATH_OPS[op]} $v)`)}, ${p})`;
  }

  /** Conditions on one array element `at` as a SQL/JSON path predicate; parameters as path variables. */
  private pathPredicates(conditions: readonly Condition[], vars: PathVars, at: string, prefix: string): string {
    if (conditions.length === 0) return '1 == 1';
    return conditions.map((c) => this.pathPredicate(c, vars, at, prefix)).join(' && ');
  }

  /** Paths in conditions are the document's (`comments.author`); `prefix` is the element's array, `at` the element. */
  private pathPredicate(c: Condition, vars: PathVars, at: string, prefix: string): string {
    switch (c.kind) {
      case 'and':
        return `(${this.pathPredicates(c.of, vars, at, prefix)})`;
      case 'or':
        return `(${c.of.map((x) => this.pathPredicate(x, vars, at, prefix)).join(' || ')})`;
      case 'exists':
        return `${c.exists ? '' : '!'}exists(${jsonPath(below(c.path.path, prefix), at)})`;
      case 'elemMatch': {
        const inner = this.pathPredicates(c.of, vars, '@', c.path.path);
        return `exists(${jsonPath(below(c.path.path, prefix), at)}[*] ? (${inner}))`;
      }
      case 'compare': {
        const type = leafType(c.path)!;
        const lhs = jsonPath(below(c.path.path, prefix), at);
        const list = c.op === '$in' || c.op === '$nin';
        if (!list && !this.fitsNext()) return c.op === '$ne' ? '1 == 1' : '1 == 0';
        const operand = c.operand;
        const name = list
          ? vars.add((params) => this.listOf(operand, type)(params))
          : vars.add((params) => operandValue(operand, params));
        if (c.op === '$in') return `${lhs} == $${name}[*]`;
        if (c.op === '$nin') return `!(${lhs} == $${name}[*])`;
        if (c.op === '$ne') return `!(${lhs} == $${name})`;
        return `${lhs} ${PATH_OPS[c.op]} $${name}`;
      }
    }
  }
}

/** The variables of one SQL/JSON path, bound per call into its `vars` object. */
class PathVars {
  private readonly getters: [string, (params: Params) => unknown][] = [];

  add(get: (params: Params) => unknown): string {
    const name = `v${this.getters.length}`;
    this.getters.push([name, get]);
    return name;
  }

  bind(params: Params): Record<string, unknown> {
    return Object.fromEntries(this.getters.map(([name, get]) => [name, get(params)]));
  }
}

/** A path below an array's element, relative to it ('' is the element itself). */
function below(path: string, prefix: string): string {
  return path === prefix ? '' : path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : path;
}
