/**
 * A query's MongoDB filter, checked against the collection's fields and read into conditions
 * every store's translation works from: each condition knows its field's type (an array field
 * is matched element by element, as MongoDB does; a field not every document has needs care
 * with `$ne`, `$nin` and `$exists`) and whether its operand is a constant or a parameter.
 *
 * Supported: `$eq $ne $gt $gte $lt $lte $in $nin $and $or $exists $elemMatch`, a plain value
 * as `$eq`, dotted paths into nested documents and arrays. A string `"$name"` is the parameter
 * `name` (declared under the query's `params`).
 */
import { closestName } from '../../src/common/suggest.ts';
import {
  allPaths,
  resolvePath,
  type DocumentInfo,
  type FieldInfo,
  type ResolvedPath,
  type ScalarType,
} from './fields.ts';
import type { Scalar, Value } from './generator.ts';

export type CompareOp = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin';
const COMPARE_OPS = new Set<string>(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);
const OPERATORS = [...COMPARE_OPS, '$exists', '$elemMatch'];

export type Operand = { param: string } | { value: Scalar | Scalar[] };

export type Condition =
  | { kind: 'and' | 'or'; of: Condition[] }
  | { kind: 'compare'; path: ResolvedPath; op: CompareOp; operand: Operand }
  | { kind: 'exists'; path: ResolvedPath; exists: boolean }
  /** Conditions on one element of an array (their paths relative to the element; '' is the element itself). */
  | { kind: 'elemMatch'; path: ResolvedPath; of: Condition[] };

/** A mistake in the file at `path` (keys from the document root), reported with its line by load.ts. */
export class SpecError extends Error {
  constructor(
    readonly path: readonly (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

const isParam = (v: unknown): v is string => typeof v === 'string' && /^\$[A-Za-z][A-Za-z0-9_]*$/.test(v);
const isOperatorObject = (v: unknown): v is Record<string, unknown> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.keys(v).every((k) => k.startsWith('$'));

export interface FilterContext {
  doc: DocumentInfo;
  collection: string;
  /** Parameters the query declares: name -> whether it gives a list (for $in, $nin). */
  params: ReadonlyMap<string, { list: boolean }>;
  /** Parameters the filter uses (filled in). */
  used: Set<string>;
  /** Paths the filter reads (filled in). */
  paths: Set<string>;
}

/** The filter's conditions (implicitly ANDed); throws SpecError at the offending key. */
export function readFilter(
  filter: Readonly<Record<string, unknown>>,
  context: FilterContext,
  at: (string | number)[],
): Condition[] {
  return readDocument(filter, context.doc, context, at, '');
}

function readDocument(
  filter: Readonly<Record<string, unknown>>,
  doc: DocumentInfo,
  c: FilterContext,
  at: (string | number)[],
  prefix: string,
): Condition[] {
  const out: Condition[] = [];
  for (const [key, value] of Object.entries(filter)) {
    const here = [...at, key];
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0)
        throw new SpecError(here, `${key} expects a non-empty list of filters`);
      out.push({
        kind: key === '$and' ? 'and' : 'or',
        of: value.map((v, i) => ({ kind: 'and' as const, of: readObject(v, doc, c, [...here, i], prefix) })),
      });
      continue;
    }
    if (key.startsWith('$'))
      throw new SpecError(here, `${key} is not supported here; a filter's keys are field paths, $and or $or`);
    const resolved = resolvePath(doc, key);
    if (resolved === undefined) {
      const hint = closestName(key, allPaths(doc));
      throw new SpecError(
        here,
        `${prefix === '' ? c.collection : `the elements of ${prefix}`} have no field ${key}${hint ? ` (did you mean ${hint}?)` : ''}`,
      );
    }
    const path: ResolvedPath = prefix === '' ? resolved : { ...resolved, path: `${prefix}.${key}` };
    c.paths.add(path.path);
    out.push(...readField(path, value, c, here));
  }
  return out;
}

function readObject(
  value: unknown,
  doc: DocumentInfo,
  c: FilterContext,
  at: (string | number)[],
  prefix: string,
): Condition[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new SpecError(at, 'expected a filter (an object of field: condition)');
  return readDocument(value as Record<string, unknown>, doc, c, at, prefix);
}

function readField(path: ResolvedPath, value: unknown, c: FilterContext, at: (string | number)[]): Condition[] {
  if (!isOperatorObject(value))
    return [{ kind: 'compare', path, op: '$eq', operand: operand(path, '$eq', value, c, at) }];
  const out: Condition[] = [];
  for (const [op, arg] of Object.entries(value)) {
    const here = [...at, op];
    if (COMPARE_OPS.has(op)) {
      out.push({ kind: 'compare', path, op: op as CompareOp, operand: operand(path, op as CompareOp, arg, c, here) });
    } else if (op === '$exists') {
      if (typeof arg !== 'boolean') throw new SpecError(here, '$exists expects true or false');
      out.push({ kind: 'exists', path, exists: arg });
    } else if (op === '$elemMatch') {
      out.push(elemMatch(path, arg, c, here));
    } else {
      const hint = closestName(op, OPERATORS);
      throw new SpecError(
        here,
        `${op} is not supported${hint ? ` (did you mean ${hint}?)` : ''}; the operators are ${OPERATORS.join(' ')}`,
      );
    }
  }
  return out;
}

function elemMatch(path: ResolvedPath, arg: unknown, c: FilterContext, at: (string | number)[]): Condition {
  const container = elementOf(c.doc, path.path);
  if (container === undefined) throw new SpecError(at, `$elemMatch needs an array; ${path.path} is not one`);
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg))
    throw new SpecError(at, '$elemMatch expects an object of conditions');
  if (container.kind === 'object')
    return {
      kind: 'elemMatch',
      path,
      of: readDocument(arg as Record<string, unknown>, container.fields, c, at, path.path),
    };
  if (!isOperatorObject(arg))
    throw new SpecError(
      at,
      `the elements of ${path.path} are values: $elemMatch takes operators ({ $gte: 3, $lt: 5 })`,
    );
  const element: ResolvedPath = { path: '', leaf: container, arrays: [], required: true };
  return { kind: 'elemMatch', path, of: readField(element, arg, c, at) };
}

/** The element of the array at `path` (undefined when the path is no array). */
function elementOf(doc: DocumentInfo, path: string): FieldInfo | undefined {
  const segments = path.split('.');
  let fields: ReadonlyMap<string, FieldInfo> | undefined = doc;
  let current: FieldInfo | undefined;
  for (let i = 0; i < segments.length; i++) {
    current = fields?.get(segments[i]!);
    if (current === undefined) return undefined;
    // Through arrays on the way (a path into an array's elements), not through the last one.
    if (i < segments.length - 1) while (current.kind === 'array') current = current.element;
    fields = current.kind === 'object' ? current.fields : undefined;
  }
  return current?.kind === 'array' ? current.element : undefined;
}

const typeOfScalar = (v: Scalar): string =>
  typeof v === 'number' ? 'a number' : typeof v === 'boolean' ? 'a boolean' : 'a string';

/** Whether a literal fits a field of this type. */
function fits(type: ScalarType, v: unknown): boolean {
  if (type === 'int' || type === 'decimal') return typeof v === 'number';
  if (type === 'bool') return typeof v === 'boolean';
  return typeof v === 'string';
}

function operand(
  path: ResolvedPath,
  op: CompareOp,
  value: unknown,
  c: FilterContext,
  at: (string | number)[],
): Operand {
  const list = op === '$in' || op === '$nin';
  if (isParam(value)) {
    const name = value.slice(1);
    const declared = c.params.get(name);
    if (declared === undefined)
      throw new SpecError(
        at,
        `${value} is no parameter of this query; declare it under params (or write the value without the $)`,
      );
    if (list !== declared.list)
      throw new SpecError(
        at,
        list
          ? `${op} needs a list: give ${name} a count (pick) or make it an array`
          : `${value} is a list; use $in or $nin`,
      );
    c.used.add(name);
    return { param: name };
  }
  if (path.leaf.kind !== 'scalar')
    throw new SpecError(
      at,
      `${path.path || 'the element'} holds ${path.leaf.kind === 'array' ? 'arrays' : 'objects'}: compare its fields (a dotted path) or use $elemMatch`,
    );
  const type = path.leaf.type;
  const values = list ? value : [value];
  if (!Array.isArray(values)) throw new SpecError(at, `${op} expects a list of values or a list parameter`);
  for (const v of values) {
    if (!fits(type, v))
      throw new SpecError(
        at,
        `${path.path || 'the element'} holds ${type === 'ref' ? 'ids (strings)' : `${type} values`}; got ${v === null || typeof v === 'object' ? JSON.stringify(v) : typeOfScalar(v as Scalar)}`,
      );
  }
  return { value: value as Scalar | Scalar[] };
}

/** The operand's value with the parameters bound. */
export function operandValue(o: Operand, params: Readonly<Record<string, Value>>): Scalar | Scalar[] {
  return 'value' in o ? o.value : (params[o.param] as Scalar | Scalar[]);
}

/** The filter with its parameters bound: the MongoDB filter as the file wrote it, `"$name"` replaced by the value. */
export function bindFilter(filter: unknown, params: Readonly<Record<string, Value>>): unknown {
  if (isParam(filter)) return params[filter.slice(1)];
  if (Array.isArray(filter)) return filter.map((f) => bindFilter(f, params));
  if (filter !== null && typeof filter === 'object')
    return Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, bindFilter(v, params)]));
  return filter;
}

/** Every condition of a tree, depth first. */
export function* conditions(list: readonly Condition[]): Generator<Condition> {
  for (const c of list) {
    yield c;
    if (c.kind === 'and' || c.kind === 'or' || c.kind === 'elemMatch') yield* conditions(c.of);
  }
}

/**
 * A condition inside `$elemMatch` with its paths made relative to the array's element (the
 * array's own path becomes ''), as a store states conditions on one element.
 */
export function relativeTo(c: Condition, prefix: string): Condition {
  const strip = (p: string) => (p === prefix ? '' : p.startsWith(`${prefix}.`) ? p.slice(prefix.length + 1) : p);
  const moved = (path: ResolvedPath): ResolvedPath => ({
    ...path,
    path: strip(path.path),
    arrays: path.arrays.map(strip).filter(Boolean),
  });
  switch (c.kind) {
    case 'and':
    case 'or':
      return { kind: c.kind, of: c.of.map((x) => relativeTo(x, prefix)) };
    case 'compare':
    case 'exists':
    case 'elemMatch':
      return { ...c, path: moved(c.path) };
  }
}
