/**
 * From a file that passed the schema to the scenario docbench runs (model.ts), checking what a
 * schema cannot say: every collection, field, parameter and operation a file names exists and
 * has the type its use needs; proportions sum to 1; and a mix never writes what its queries
 * read, because then their answers could not be checked (a query racing an insert has two right
 * answers). Every mistake is a SpecError at the key it concerns (load.ts adds file and line).
 */
import { createHash } from 'node:crypto';
import { closestName } from '../../src/common/suggest.ts';
import { documentInfo, overlaps, resolvePath, allPaths, type DocumentInfo, type ResolvedPath } from './fields.ts';
import { fakerType, FakerMethodError } from './faker.ts';
import { readFilter, SpecError, type Condition } from './filter.ts';
import { DocumentGenerator, MAX_ZIPFIAN_RANGE } from './generator.ts';
import { RUN_DEFAULTS, type Collection, type Query, type Scenario, type SortKey, type Write } from './model.ts';
import type { GeneratorSpec, ParamSpec, QuerySpec, ScenarioFileSpec } from './schema.ts';

type At = (string | number)[];

function resolveOrThrow(doc: DocumentInfo, collection: string, path: string, at: At): ResolvedPath {
  const resolved = resolvePath(doc, path);
  if (resolved !== undefined) return resolved;
  const hint = closestName(path, allPaths(doc));
  throw new SpecError(at, `${collection} has no field ${path}${hint ? ` (did you mean ${hint}?)` : ''}`);
}

function checkGenerator(spec: GeneratorSpec, counts: ReadonlyMap<string, number>, at: At): void {
  if ((spec.type === 'int' || spec.type === 'decimal') && spec.min > spec.max)
    throw new SpecError(at, `min ${spec.min} is above max ${spec.max}`);
  if (spec.type === 'int' && spec.distribution === 'zipfian' && spec.max - spec.min > MAX_ZIPFIAN_RANGE)
    throw new SpecError(
      [...at, 'max'],
      `a zipfian range may span at most ${MAX_ZIPFIAN_RANGE.toLocaleString('en-US')} values`,
    );
  if (spec.type === 'date' && Date.parse(spec.from) > Date.parse(spec.to))
    throw new SpecError([...at, 'from'], `${spec.from} is after ${spec.to}`);
  if (spec.type === 'array') {
    if (spec.min > spec.max) throw new SpecError([...at, 'min'], `min ${spec.min} is above max ${spec.max}`);
    if (spec.of.type === 'array')
      throw new SpecError(
        [...at, 'of'],
        'arrays of arrays are not supported (no store but MongoDB queries into them the same way)',
      );
    checkGenerator(spec.of, counts, [...at, 'of']);
  }
  if (spec.type === 'object')
    for (const [name, s] of Object.entries(spec.fields)) checkGenerator(s, counts, [...at, 'fields', name]);
  if (spec.type === 'ref' && !counts.has(spec.collection))
    throw new SpecError(
      [...at, 'collection'],
      `no collection ${spec.collection}${hintOf(spec.collection, counts.keys())}`,
    );
  if (spec.type === 'enum' && Array.isArray(spec.values) && new Set(spec.values.map((v) => typeof v)).size > 1)
    throw new SpecError([...at, 'values'], "an enum's values are all strings or all numbers");
  if (spec.type === 'faker') {
    try {
      fakerType(spec.method, spec.args);
    } catch (error) {
      if (error instanceof FakerMethodError) throw new SpecError([...at, 'method'], error.message);
      throw error;
    }
  }
}

const hintOf = (name: string, names: Iterable<string>) => {
  const hint = closestName(name, names);
  return hint ? ` (did you mean ${hint}?)` : '';
};

function compileCollections(spec: ScenarioFileSpec, scenarioName: string, seed: number): Map<string, Collection> {
  const counts = new Map(Object.entries(spec.collections).map(([name, c]) => [name, c.count]));
  const out = new Map<string, Collection>();
  for (const [name, c] of Object.entries(spec.collections)) {
    for (const [field, g] of Object.entries(c.fields))
      checkGenerator(g, counts, ['collections', name, 'fields', field]);
    const info = documentInfo(c.fields, (method, args) => fakerType(method, args));
    const indexes = (c.indexes ?? []).map((index, i) =>
      index.map((entry, j) => {
        const descending = entry.startsWith('-');
        const path = descending ? entry.slice(1) : entry;
        return { path, descending, resolved: resolveOrThrow(info, name, path, ['collections', name, 'indexes', i, j]) };
      }),
    );
    out.set(name, {
      name,
      storeName: `${scenarioName.replace(/-/g, '_')}_${name}`,
      count: c.count,
      info,
      generator: new DocumentGenerator(seed, name, c.fields, counts),
      indexes,
    });
  }
  return out;
}

function paramIsList(p: ParamSpec): boolean {
  return p.type === 'pick' ? p.count !== undefined : p.type === 'array';
}

function checkParam(
  name: string,
  p: ParamSpec,
  collections: ReadonlyMap<string, Collection>,
  counts: ReadonlyMap<string, number>,
  at: At,
): void {
  if (p.type !== 'pick') return checkGenerator(p, counts, at);
  const dot = p.from.indexOf('.');
  const collection = collections.get(p.from.slice(0, dot));
  if (collection === undefined)
    throw new SpecError(
      [...at, 'from'],
      `no collection ${p.from.slice(0, dot)}${hintOf(p.from.slice(0, dot), collections.keys())}`,
    );
  const resolved = resolveOrThrow(collection.info, collection.name, p.from.slice(dot + 1), [...at, 'from']);
  if (resolved.leaf.kind !== 'scalar')
    throw new SpecError(
      [...at, 'from'],
      `${p.from} holds ${resolved.leaf.kind === 'array' ? 'arrays of arrays' : 'objects'}; pick a field of scalar values for parameter ${name}`,
    );
}

/**
 * The paths the filter requires every answer to have, once: `$exists: true` or a comparison that
 * only a value meets (`$eq`, a range, `$in`: no literal or parameter is null), outside `$or`.
 */
function presentPaths(where: readonly Condition[]): Set<string> {
  const out = new Set<string>();
  for (const c of where) {
    if (c.kind === 'and') for (const p of presentPaths(c.of)) out.add(p);
    if (c.kind === 'exists' && c.exists) out.add(c.path.path);
    if (c.kind === 'compare' && !['$ne', '$nin'].includes(c.op)) out.add(c.path.path);
  }
  return out;
}

/**
 * The order of a find: the sort keys, then `_id` in the direction of the last key (ascending
 * without a sort). A sort key is a field every answer has once: one every document has, or one
 * the filter requires (stores disagree on where missing values and arrays sort).
 */
function orderOf(q: QuerySpec, doc: DocumentInfo, where: readonly Condition[], at: At): SortKey[] {
  const present = presentPaths(where);
  const keys: SortKey[] = Object.entries(q.sort ?? {}).map(([path, dir]) => {
    const resolved = resolveOrThrow(doc, q.collection, path, [...at, 'sort', path]);
    const inArray = resolved.leaf.kind !== 'scalar' || resolved.arrays.length > 0;
    if (inArray || !(resolved.required || present.has(resolved.path))) {
      throw new SpecError(
        [...at, 'sort', path],
        `${path} is ${inArray ? 'in an array' : 'not in every document'}: sort by a field every document has once, or require it in the filter (${path}: { $exists: true }): stores disagree on where missing values and arrays sort`,
      );
    }
    return { path, descending: dir === -1, resolved };
  });
  if (keys.length === 0 && q.skip === undefined && q.limit === undefined) return [];
  if (!keys.some((k) => k.path === '_id'))
    keys.push({ path: '_id', descending: keys.at(-1)?.descending ?? false, resolved: resolvePath(doc, '_id')! });
  return keys;
}

function compileQuery(name: string, q: QuerySpec, collections: ReadonlyMap<string, Collection>, at: At): Query {
  const collection = collections.get(q.collection);
  if (collection === undefined)
    throw new SpecError(
      [...at, 'collection'],
      `no collection ${q.collection}${hintOf(q.collection, collections.keys())}`,
    );
  const counts = new Map([...collections].map(([n, c]) => [n, c.count]));
  const params = new Map(Object.entries(q.params ?? {}));
  for (const [p, spec] of params) checkParam(p, spec, collections, counts, [...at, 'params', p]);
  const used = new Set<string>();
  const reads = new Set<string>();
  const where: Condition[] = readFilter(
    q.filter ?? {},
    {
      doc: collection.info,
      collection: q.collection,
      params: new Map([...params].map(([p, s]) => [p, { list: paramIsList(s) }])),
      used,
      paths: reads,
    },
    [...at, 'filter'],
  );
  for (const p of params.keys())
    if (!used.has(p))
      throw new SpecError(
        [...at, 'params', p],
        `parameter ${p} is not used in the filter (write "$${p}" where its value goes)`,
      );
  const base = {
    name,
    collection: q.collection,
    filter: q.filter ?? {},
    where,
    params,
    reads,
    readsAll: false,
    collections: [q.collection],
  };
  const findOnly = (['sort', 'skip', 'limit', 'project', 'join'] as const).filter((k) => q[k] !== undefined);
  if (q.group !== undefined || q.count !== undefined) {
    if (q.group !== undefined && q.count !== undefined)
      throw new SpecError([...at, 'count'], 'give group or count, not both');
    if (findOnly.length > 0)
      throw new SpecError(
        [...at, findOnly[0]!],
        `${findOnly[0]} applies to queries that return documents, not to ${q.group ? 'group' : 'count'}`,
      );
    if (q.count !== undefined) return { ...base, kind: 'count' };
    const by = resolveOrThrow(collection.info, q.collection, q.group!.by, [...at, 'group', 'by']);
    if (by.leaf.kind !== 'scalar' || !by.required)
      throw new SpecError(
        [...at, 'group', 'by'],
        `group by a field every document has once; ${q.group!.by} is ${by.arrays.length > 0 || by.leaf.kind !== 'scalar' ? 'in an array' : 'not in every document'}`,
      );
    reads.add(by.path);
    let sum: ResolvedPath | undefined;
    if (q.group!.sum !== undefined) {
      sum = resolveOrThrow(collection.info, q.collection, q.group!.sum, [...at, 'group', 'sum']);
      if (
        sum.leaf.kind !== 'scalar' ||
        (sum.leaf.type !== 'int' && sum.leaf.type !== 'decimal') ||
        sum.arrays.length > 0
      )
        throw new SpecError(
          [...at, 'group', 'sum'],
          `${q.group!.sum} is not a number field outside arrays: nothing to sum`,
        );
      reads.add(sum.path);
    }
    return { ...base, kind: 'group', by, ...(sum ? { sum } : {}) };
  }
  const order = orderOf(q, collection.info, where, at);
  for (const k of order) reads.add(k.path);
  for (const [i, path] of (q.project ?? []).entries())
    reads.add(resolveOrThrow(collection.info, q.collection, path, [...at, 'project', i]).path);
  let join: Extract<Query, { kind: 'find' }>['join'];
  if (q.join !== undefined) {
    const on = resolveOrThrow(collection.info, q.collection, q.join.on, [...at, 'join', 'on']);
    if (on.leaf.kind !== 'scalar' || on.leaf.type !== 'ref' || on.arrays.length > 0)
      throw new SpecError(
        [...at, 'join', 'on'],
        `${q.join.on} is not a ref field (type: ref) outside arrays: nothing to join on`,
      );
    if (on.leaf.ref !== q.join.from)
      throw new SpecError([...at, 'join', 'from'], `${q.join.on} refers to ${on.leaf.ref}, not ${q.join.from}`);
    const target = collections.get(q.join.from)!;
    for (const [i, path] of (q.join.project ?? []).entries())
      resolveOrThrow(target.info, q.join.from, path, [...at, 'join', 'project', i]);
    if (q.project !== undefined && q.project.includes(q.join.as))
      throw new SpecError(
        [...at, 'join', 'as'],
        `${q.join.as} is also projected; the joined document needs a name of its own`,
      );
    if (collection.info.has(q.join.as))
      throw new SpecError(
        [...at, 'join', 'as'],
        `${q.collection} already has a field ${q.join.as}; name the joined document otherwise`,
      );
    reads.add(on.path);
    join = { from: q.join.from, on, as: q.join.as, ...(q.join.project ? { project: q.join.project } : {}) };
  }
  return {
    ...base,
    kind: 'find',
    readsAll: q.project === undefined,
    collections: join ? [q.collection, join.from] : [q.collection],
    order,
    sorted: q.sort !== undefined,
    skip: q.skip ?? 0,
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    ...(q.project ? { project: q.project } : {}),
    ...(join ? { join } : {}),
  };
}

function compileWrite(
  name: string,
  w: NonNullable<ScenarioFileSpec['writes']>[string],
  collections: ReadonlyMap<string, Collection>,
  at: At,
): Write {
  const [kind, collection] =
    'insert' in w
      ? (['insert', w.insert] as const)
      : 'update' in w
        ? (['update', w.update] as const)
        : (['delete', w.delete] as const);
  const c = collections.get(collection);
  if (c === undefined)
    throw new SpecError([...at, kind], `no collection ${collection}${hintOf(collection, collections.keys())}`);
  if (kind !== 'update') return { name, kind, collection };
  const set = (w as { set: string[] }).set;
  for (const [i, path] of set.entries()) {
    const resolved = resolveOrThrow(c.info, collection, path, [...at, 'set', i]);
    if (path === '_id') throw new SpecError([...at, 'set', i], '_id cannot be updated');
    if (resolved.arrays.length > 0 && !resolved.arrays.includes(path))
      throw new SpecError([...at, 'set', i], `${path} is inside an array; set the whole array (${resolved.arrays[0]})`);
  }
  return { name, kind, collection, set };
}

/** Why a write may not run beside a query, or undefined when it may. */
function conflict(write: Write, query: Query): string | undefined {
  if (!query.collections.includes(write.collection)) return undefined;
  if (write.kind !== 'update')
    return `${write.name} ${write.kind}s ${write.collection} documents, which ${query.name} reads`;
  if (query.collection !== write.collection) {
    // A joined collection: what the join returns of it is read.
    const joined = query.kind === 'find' ? query.join?.project : undefined;
    const hit = joined === undefined ? write.set[0] : write.set.find((p) => joined.some((r) => overlaps(p, r)));
    return hit === undefined
      ? undefined
      : `${write.name} updates ${write.collection}.${hit}, which ${query.name} joins${joined === undefined ? ' (whole documents)' : ''}`;
  }
  const hit = write.set.find((p) => query.readsAll || [...query.reads].some((r) => overlaps(p, r)));
  return hit === undefined
    ? undefined
    : `${write.name} updates ${write.collection}.${hit}, which ${query.name} ${query.readsAll ? 'returns (whole documents)' : 'reads'}`;
}

function compileMix(
  spec: ScenarioFileSpec,
  queries: ReadonlyMap<string, Query>,
  writes: ReadonlyMap<string, Write>,
): [string, number][] {
  if (spec.mix === undefined) {
    if (queries.size === 0) throw new SpecError([], 'the file has no queries and no mix: nothing to run');
    return [...queries.keys()].map((q) => [q, 1 / queries.size]);
  }
  const mix = Object.entries(spec.mix);
  for (const [op] of mix)
    if (!queries.has(op) && !writes.has(op))
      throw new SpecError(['mix', op], `no query or write ${op}${hintOf(op, [...queries.keys(), ...writes.keys()])}`);
  const total = mix.reduce((sum, [, p]) => sum + p, 0);
  if (Math.abs(total - 1) > 1e-6)
    throw new SpecError(['mix'], `the proportions sum to ${+total.toFixed(6)}, expected 1`);
  for (const [w] of mix.filter(([op]) => writes.has(op))) {
    for (const [q] of mix.filter(([op]) => queries.has(op))) {
      const why = conflict(writes.get(w)!, queries.get(q)!);
      if (why)
        throw new SpecError(
          ['mix', w],
          `${why}: a mix may not write what its queries read (their answers could not be checked); write other collections or fields`,
        );
    }
  }
  return mix;
}

/** The scenario a checked file describes; throws SpecError. `defaultName` is the file's name. */
export function compileScenario(spec: ScenarioFileSpec, file: string, defaultName: string): Scenario {
  const name = spec.name ?? defaultName;
  const seed = spec.seed ?? 1;
  const collections = compileCollections(spec, name, seed);
  const queries = new Map(
    Object.entries(spec.queries ?? {}).map(([n, q]) => [n, compileQuery(n, q, collections, ['queries', n])]),
  );
  const writes = new Map(
    Object.entries(spec.writes ?? {}).map(([n, w]) => [n, compileWrite(n, w, collections, ['writes', n])]),
  );
  for (const n of queries.keys())
    if (writes.has(n)) throw new SpecError(['writes', n], `${n} names a query too; give it another name`);
  const mix = compileMix(spec, queries, writes);
  const run = { ...RUN_DEFAULTS, ...spec.run };
  if (run.operationcount === 0 && run.maxexecutiontime === 0)
    throw new SpecError(['run'], 'a run needs operationcount > 0 or maxexecutiontime > 0');
  const datasetDigest = createHash('sha256')
    .update(JSON.stringify({ seed, collections: spec.collections }))
    .digest('hex')
    .slice(0, 16);
  return { name, file, seed, datasetDigest, collections, queries, writes, mix, run };
}
