/**
 * A scenario file's filters as CouchDB Mango selectors and view map functions, keeping MongoDB's
 * meaning where Mango says it otherwise:
 *
 *   a field of an array     { tags: { $elemMatch: { $eq: v } } }: Mango compares an array field
 *                           as a whole, MongoDB element by element
 *   $ne / $nin              also true where the field is missing, and on an array when no element
 *                           matches: { $or: [{ f: { $exists: false } }, { $not: { f: { $elemMatch: … } } }] }
 *   ranges on strings       refused unless the field holds dates: Mango orders strings by ICU
 *                           collation (a < B < b), MongoDB and the oracle by code point; ISO dates
 *                           of one format order the same under both
 *   sorts on strings        the same collation: refused unless the field's values are known to
 *                           order alike under both (`mangoSortRefusal`)
 *
 * For views (the aggregations), the constant part of a filter becomes JavaScript in the map
 * function (`jsCondition`), with the same meaning.
 */
import type { ResolvedPath } from '../fields.ts';
import { operandValue, relativeTo, type Condition } from '../filter.ts';
import type { Value } from '../generator.ts';

type Selector = Record<string, unknown>;

/** Why Mango cannot state this condition as MongoDB means it, or undefined. */
export function mangoRefusal(c: Condition): string | undefined {
  if (c.kind === 'and' || c.kind === 'or' || c.kind === 'elemMatch') {
    for (const x of c.of) {
      const why = mangoRefusal(x);
      if (why) return why;
    }
    return undefined;
  }
  if (
    c.kind === 'compare' &&
    ['$gt', '$gte', '$lt', '$lte'].includes(c.op) &&
    c.path.leaf.kind === 'scalar' &&
    (c.path.leaf.type === 'string' || c.path.leaf.type === 'ref')
  ) {
    return `${c.path.path} is text: Mango orders strings by ICU collation (a < B < b), not by code point as MongoDB does, so ${c.op} on it would answer otherwise (dates and numbers compare the same)`;
  }
  return undefined;
}

/**
 * Text every character of which ICU's root collation (CouchDB's, for Mango indexes and views)
 * orders as code points do: one case of ASCII letters, digits, space, '-' and '.', which both
 * order space < '-' < '.' < digits < letters. Two such strings first differ at a character
 * ordered alike, or one is the other's prefix and comes first under both. Mixed case does not
 * hold (ICU: a < A < b, code points: A < B < a), nor '_' (ICU puts it before the digits).
 */
const LOWER_TEXT = /^[ .0-9a-z-]*$/;
const UPPER_TEXT = /^[ .0-9A-Z-]*$/;

/**
 * Whether Mango orders a field's values as the oracle does (by code point): numbers, booleans,
 * dates (ISO-8601 strings of one format, first differing at a digit), ids and refs
 * (`<collection>-<9 digits>` in one field: they first differ at a digit), and an enum whose
 * values are all text of one of the classes above. Any other text may collate otherwise.
 */
export function collatesAsCodePoints(path: ResolvedPath): boolean {
  const leaf = path.leaf;
  if (leaf.kind !== 'scalar') return false;
  if (leaf.type !== 'string') return true;
  if (path.path === '_id') return true;
  const values = leaf.values;
  if (values === undefined) return false;
  const texts = values.map(String);
  return texts.every((v) => LOWER_TEXT.test(v)) || texts.every((v) => UPPER_TEXT.test(v));
}

/** Why Mango cannot sort by this key as the oracle does (code point order), or undefined. */
export function mangoSortRefusal(key: { path: string; resolved: ResolvedPath }): string | undefined {
  if (collatesAsCodePoints(key.resolved)) return undefined;
  return `${key.path} is text: Mango sorts strings by ICU collation (apple < Banana < cherry), not by code point as MongoDB and the oracle do (Banana < apple < cherry), so the order would differ; a sort on numbers, dates, ids, refs or an enum of one-case ASCII words runs`;
}

/** `{ arr: { $elemMatch: inner } }` through every array the path crosses; `leaf` is the condition on the value. */
function through(path: ResolvedPath, leaf: (relative: string) => Selector | unknown): Selector {
  const build = (p: string, arrays: readonly string[], from: string): Selector => {
    const rel = from === '' ? p : p.slice(from.length + 1);
    if (arrays.length === 0) return { [rel]: leaf(rel) };
    const array = arrays[0]!;
    const arrayRel = from === '' ? array : array.slice(from.length + 1);
    const inner = p === array ? (leaf('') as Selector) : build(p, arrays.slice(1), array);
    return { [arrayRel]: { $elemMatch: inner } };
  };
  return build(path.path, path.arrays, '');
}

const POSITIVE: Record<string, string> = {
  $eq: '$eq',
  $gt: '$gt',
  $gte: '$gte',
  $lt: '$lt',
  $lte: '$lte',
  $in: '$in',
  $ne: '$eq',
  $nin: '$in',
};

export function mango(c: Condition, params: Readonly<Record<string, Value>>): Selector {
  switch (c.kind) {
    case 'and':
    case 'or':
      return { [`$${c.kind}`]: c.of.map((x) => mango(x, params)) };
    case 'exists': {
      // Outside arrays, Mango's own $exists says it; through an array, no element has it.
      if (c.path.arrays.length === 0) return { [c.path.path]: { $exists: c.exists } };
      const has = through(c.path, () => ({ $exists: true }));
      return c.exists ? has : { $not: has };
    }
    case 'elemMatch': {
      const relative = c.of.map((x) => relativeTo(x, c.path.path));
      const inner = relative.map((x) => mango(x, params));
      const arrays = c.path.arrays.filter((a) => a !== c.path.path);
      // Conditions on the element itself (an array of values) as its operators, `{ $gte: 3,
      // $lt: 5 }`: a field named '' means the element to CouchDB, but not to every Mango
      // (pouchdb-server reads it as a field and matches nothing).
      const onElement = relative.every((x) => 'path' in x && x.path.path === '');
      const selector = onElement
        ? Object.assign({}, ...inner.map((x) => x['']))
        : inner.length === 1
          ? inner[0]!
          : { $and: inner };
      return through({ ...c.path, arrays }, () => ({ $elemMatch: selector }));
    }
    case 'compare': {
      const value = operandValue(c.operand, params);
      const positive = through(c.path, () => ({ [POSITIVE[c.op]!]: value }));
      if (c.op !== '$ne' && c.op !== '$nin') return positive;
      // A field every document has once: Mango's $ne / $nin mean what MongoDB's do.
      if (c.path.arrays.length === 0 && c.path.required) return { [c.path.path]: { [c.op]: value } };
      // MongoDB: true where the field is missing, and where no element of an array matches.
      return c.path.required
        ? { $not: positive }
        : { $or: [{ [c.path.arrays[0] ?? c.path.path]: { $exists: false } }, { $not: positive }] };
    }
  }
}

/** The conditions as one selector (an empty filter selects every document: `_id` > null). */
export function selectorOf(where: readonly Condition[], params: Readonly<Record<string, Value>>): Selector {
  if (where.length === 0) return { _id: { $gt: null } };
  const parts = where.map((c) => mango(c, params));
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

/**
 * A condition as a JavaScript expression over `doc` (a view's map function), with MongoDB's
 * meaning: through arrays, any element; $ne / $nin, no element and a missing field.
 */
export function jsCondition(c: Condition, params: Readonly<Record<string, Value>>): string {
  const values = (path: ResolvedPath, root = 'doc') =>
    `v(${root}, ${JSON.stringify(path.path.split('.').filter(Boolean))})`;
  switch (c.kind) {
    case 'and':
    case 'or':
      return c.of.length === 0
        ? 'true'
        : `(${c.of.map((x) => jsCondition(x, params)).join(c.kind === 'and' ? ' && ' : ' || ')})`;
    case 'exists':
      return `${c.exists ? '' : '!'}(${values(c.path)}.length > 0)`;
    case 'elemMatch': {
      const inner = c.of
        .map((x) => jsCondition(relativeTo(x, c.path.path), params).replace(/v\(doc,/g, 'v(e,'))
        .join(' && ');
      return `${values(c.path)}.some(function (e) { return ${inner || 'true'}; })`;
    }
    case 'compare': {
      const value = JSON.stringify(operandValue(c.operand, params));
      const test: Record<string, string> = {
        $eq: `x === ${value}`,
        $ne: `x === ${value}`,
        $gt: `x > ${value}`,
        $gte: `x >= ${value}`,
        $lt: `x < ${value}`,
        $lte: `x <= ${value}`,
        $in: `${value}.indexOf(x) >= 0`,
        $nin: `${value}.indexOf(x) >= 0`,
      };
      const any = `${values(c.path)}.some(function (x) { return ${test[c.op]}; })`;
      return c.op === '$ne' || c.op === '$nin' ? `!${any}` : any;
    }
  }
}

/** The helper every map function starts with: the values at a path, through arrays (flattened). */
export const JS_VALUES = `function v(d, p) { var out = [d]; for (var i = 0; i < p.length; i++) { var next = []; for (var j = 0; j < out.length; j++) { var x = out[j]; if (Array.isArray(x)) { for (var k = 0; k < x.length; k++) { var y = x[k] && typeof x[k] === 'object' ? x[k][p[i]] : undefined; if (y !== undefined) next.push(y); } } else if (x && typeof x === 'object' && x[p[i]] !== undefined) next.push(x[p[i]]); } out = next; } var flat = []; for (var m = 0; m < out.length; m++) { if (Array.isArray(out[m])) flat = flat.concat(out[m]); else flat.push(out[m]); } return flat; }`;
