/**
 * A scenario file on Apache CouchDB (nano, the official Node client): Mango `_find` for the
 * queries, with its JSON indexes; views for the aggregations; `_bulk_docs` for the load.
 *
 *   collections  one database per file collection (`<scenario>_<collection>`), `_id` the document's
 *   indexes      each declared index as a Mango JSON index; and for each query with an order, one on
 *                its sort keys (`_id` last): Mango sorts only through an index with those fields,
 *                all in one direction (a sort mixing directions is refused), and each sort key is
 *                given as a range (`$gt: null`) so the index is usable
 *   find         `_find` { selector (couchdb-mango.ts), sort, skip, limit, fields, use_index }
 *   join         `_find` on the collection, then the joined documents by id (`_all_docs` with
 *                keys and include_docs): a CouchDB application's join
 *   group/count  a view per query: the map emits [equality parameters…, group value] for each
 *                document meeting the filter's constant conditions, reduce `_stats` (count and
 *                sum); read with group_level. A filter whose parameters are not equalities on
 *                fields every document has once is refused: a view reads a key prefix, not a range
 *                before the grouping
 *   writes       PUT (insert), GET then PUT with the revision (update), GET then DELETE
 *   plans        `_explain` and `_find` with execution_stats; views: the rows read
 */
import type nano from 'nano';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { HandleOf } from '../../../src/stores/stores.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import { explainKeys, explainView } from '../../../src/stores/couchdb/explain.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { Answer } from '../answers.ts';
import {
  MANIFEST_ID,
  prefixOf,
  refuses,
  runs,
  valueAt,
  type FileDialect,
  type FileDialectContext,
  type FileDialectDefinition,
  type Manifest,
  type Translation,
} from '../dialect.ts';
import { conditions, operandValue, type Condition } from '../filter.ts';
import type { Doc, Value } from '../generator.ts';
import { indexExpected, type Collection, type FindQuery, type Query, type Scenario } from '../model.ts';
import { project } from '../oracle.ts';
import { JS_VALUES, jsCondition, mangoRefusal, selectorOf } from './couchdb-mango.ts';

export const dialect: FileDialectDefinition<'couchdb'> = {
  store: 'couchdb',
  create: (handle, context) => new CouchdbFile(handle, context),
};

type Handle = HandleOf<'couchdb'>;
type Params = Readonly<Record<string, Value>>;
type Db = nano.DocumentScope<Doc>;
/** `_find` answers every match up to its limit: the largest the API takes, for queries without one. */
const NO_LIMIT = 2 ** 31 - 1;
const DDOC = 'docbench';

/** How a group or count query runs as a view: its key's parameters (equalities), the rest constant. */
interface ViewPlan {
  keyParams: { path: string; condition: Extract<Condition, { kind: 'compare' }> }[];
  /** A count's one range: the key's last part, read as a key range. */
  range?: { path: string; bounds: Extract<Condition, { kind: 'compare' }>[] };
  constant: Condition[];
}

class CouchdbFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  private readonly views = new Map<string, ViewPlan>();

  constructor(
    private readonly handle: Handle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.translations = new Map([...this.scenario.queries.values()].map((q) => [q.name, this.translate(q)]));
    const declared = [...this.scenario.collections.values()].flatMap((c) =>
      c.indexes.map((i) => `${c.storeName} [${i.map((f) => f.path).join(', ')}]`),
    );
    const sorted = [...this.scenario.queries.values()].filter(
      (q): q is FindQuery => q.kind === 'find' && q.order.length > 0 && this.translations.get(q.name)!.supported,
    );
    this.structures = `CouchDB Mango JSON indexes: ${[...declared, ...sorted.map((q) => `${this.storeOf(q.collection)} [${q.order.map((k) => k.path).join(', ')}] (${q.name}'s order)`)].join('; ') || 'none'}; views (_stats) for ${[...this.views.keys()].join(', ') || 'no query'}`;
  }

  private storeOf(collection: string): string {
    return this.scenario.collections.get(collection)!.storeName;
  }

  private db(collection: Collection | string): Db {
    return this.handle.database<Doc>(typeof collection === 'string' ? this.storeOf(collection) : collection.storeName);
  }

  private translate(q: Query): Translation {
    for (const c of q.where) {
      const why = mangoRefusal(c);
      if (why) return refuses(why);
    }
    if (q.kind !== 'find') {
      const keyParams: ViewPlan['keyParams'] = [];
      const constant: Condition[] = [];
      let range: ViewPlan['range'];
      for (const c of q.where) {
        if (
          c.kind === 'compare' &&
          'param' in c.operand &&
          q.kind === 'count' &&
          ['$gte', '$lt', '$lte', '$gt'].includes(c.op) &&
          c.path.arrays.length === 0 &&
          c.path.leaf.kind === 'scalar'
        ) {
          // A count over a range of one field: the key's last part. A view's start key is always
          // inclusive: `$gt` only on whole numbers (as $gte n + 1).
          if (range !== undefined && range.path !== c.path.path)
            return refuses(`ranges on ${range.path} and ${c.path.path}: a view key has one order`);
          if (c.op === '$gt' && c.path.leaf.type !== 'int')
            return refuses(
              `${c.path.path} $gt: a view's start key is inclusive, and ${c.path.path} is no whole number to start one past`,
            );
          range ??= { path: c.path.path, bounds: [] };
          range.bounds.push(c);
          continue;
        }
        if (c.kind === 'compare' && 'param' in c.operand) {
          if (c.op !== '$eq' || c.path.leaf.kind !== 'scalar')
            return refuses(
              `${c.path.path} ${c.op} $${c.operand.param}: a view reads a key range, and only equalities make a key prefix; a range before the grouping is none`,
            );
          keyParams.push({ path: c.path.path, condition: c });
        } else if ([...conditions([c])].some((x) => x.kind === 'compare' && 'param' in x.operand)) {
          return refuses('a parameter inside $or or $elemMatch cannot be part of a view key');
        } else constant.push(c);
      }
      this.views.set(q.name, { keyParams, constant, ...(range ? { range } : {}) });
      const key = [
        ...keyParams.map((k) => k.path),
        ...(range ? [range.path] : []),
        ...(q.kind === 'group' ? [q.by.path] : []),
      ].join(', ');
      return runs(
        `view ${DDOC}_${q.name}/${q.name}: map emits [${key}] (an array's each element) for documents meeting the constant conditions, reduce _stats (count${q.kind === 'group' && q.sum ? `, sum of ${q.sum.path}` : ''}), read with group_level`,
      );
    }
    if (q.order.length > 0 && new Set(q.order.map((k) => k.descending)).size > 1)
      return refuses(
        `Mango sorts every key in one direction; ${q.name} sorts ${q.order.map((k) => `${k.path} ${k.descending ? 'descending' : 'ascending'}`).join(', ')} (ties by _id follow the last key)`,
      );
    const deep = [...(q.project ?? []), ...(q.join?.project ?? [])].find(
      (p) =>
        p.includes('.') && this.scenario.collections.get(q.collection)!.info.get(p.split('.')[0]!)?.kind === 'array',
    );
    if (deep) return refuses(`Mango's fields do not reach into arrays (${deep})`);
    return runs(
      `_find { selector, ${q.order.length > 0 ? `sort [${q.order.map((k) => k.path).join(', ')}] ${q.order[0]!.descending ? 'desc' : 'asc'} with its index, ` : ''}${q.skip ? `skip ${q.skip}, ` : ''}limit ${q.limit ?? 'all'}${q.project ? `, fields` : ''} }${q.join ? `, then ${this.storeOf(q.join.from)} by id (_all_docs keys)` : ''}`,
    );
  }

  async drop(): Promise<void> {
    for (const c of this.scenario.collections.values())
      await this.handle.destroyDatabase(this.handle.databaseName(c.storeName));
    await this.handle.destroyDatabase(this.handle.databaseName(`${prefixOf(this.scenario)}__manifest`));
  }

  async prepare(): Promise<void> {
    for (const c of this.scenario.collections.values())
      await this.handle.createDatabase(this.handle.databaseName(c.storeName));
    await this.handle.createDatabase(this.handle.databaseName(`${prefixOf(this.scenario)}__manifest`));
  }

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    await this.handle.bulkDocs(this.db(collection), docs);
  }

  async buildIndexes(): Promise<string> {
    const built: string[] = [];
    const create = async (collection: string, fields: { path: string; descending: boolean }[], name: string) => {
      // Field names alone: a Mango JSON index serves a sort in either direction, and refuses mixed directions.
      await this.db(collection).createIndex({
        index: { fields: fields.map((f) => f.path) },
        ddoc: `idx_${name}`,
        name,
        type: 'json',
      } as nano.CreateIndexRequest);
      built.push(`${this.storeOf(collection)}/${name}`);
    };
    for (const c of this.scenario.collections.values())
      for (const [i, index] of c.indexes.entries()) await create(c.name, index, `declared_${i}`);
    for (const q of this.scenario.queries.values()) {
      if (q.kind === 'find' && q.order.length > 0 && this.translations.get(q.name)!.supported)
        await create(q.collection, q.order, `order_${q.name}`);
    }
    for (const [name, plan] of this.views) {
      const q = this.scenario.queries.get(name)!;
      await this.handle.putDesignDocument(this.db(q.collection), `_design/${DDOC}_${name}`, {
        language: 'javascript',
        views: { [name]: { map: this.mapFunction(q, plan), reduce: '_stats' } },
      });
      // Built now, not on the first timed query.
      await this.db(q.collection).view(`${DDOC}_${name}`, name, { limit: 1 });
      built.push(`${this.storeOf(q.collection)}/_design/${DDOC}_${name}`);
    }
    return built.length > 0 ? `Mango indexes and views: ${built.join(', ')}` : 'none';
  }

  private mapFunction(q: Query, plan: ViewPlan): string {
    // One row per combination of the key fields' values: an array field emits each distinct element
    // (MongoDB matches any element), a missing one none (no equality matches it).
    const fields = plan.keyParams.map((k) => JSON.stringify(k.path.split('.')));
    const group =
      q.kind === 'group'
        ? `v(doc, ${JSON.stringify(q.by.path.split('.'))})[0]`
        : plan.range
          ? `v(doc, ${JSON.stringify(plan.range.path.split('.'))})[0]`
          : undefined;
    const value =
      q.kind === 'group' && q.sum
        ? `(function (s) { return typeof s === 'number' ? s : 0; })(v(doc, ${JSON.stringify(q.sum.path.split('.'))})[0])`
        : '0';
    const test = plan.constant.length > 0 ? plan.constant.map((c) => jsCondition(c, {})).join(' && ') : 'true';
    const keys = `var keys = [[]]; [${fields.join(', ')}].forEach(function (p) { var vals = v(doc, p).filter(function (x, i, a) { return a.indexOf(x) === i; }); var next = []; keys.forEach(function (k) { vals.forEach(function (x) { next.push(k.concat([x])); }); }); keys = next; });`;
    const present = plan.range
      ? ` if (v(doc, ${JSON.stringify(plan.range.path.split('.'))}).length === 0) return;`
      : '';
    return `function (doc) { ${JS_VALUES} if (!(${test})) return;${present} ${keys} keys.forEach(function (k) { emit(${group ? `k.concat([${group}])` : 'k'}, ${value}); }); }`;
  }

  private findRequest(q: FindQuery, params: Params): nano.MangoQuery {
    const selector = selectorOf(q.where, params);
    const request: nano.MangoQuery = { selector: selector as nano.MangoSelector, limit: q.limit ?? NO_LIMIT };
    if (q.order.length > 0) {
      // Each sort key as a range, so the order's index is usable; every document has them.
      // One flat $and: the same selector as a nested one, and the form every Mango reads alike.
      const parts =
        Object.keys(selector).length === 1 && Array.isArray(selector.$and) ? (selector.$and as unknown[]) : [selector];
      request.selector = {
        $and: [...parts, ...q.order.map((k) => ({ [k.path]: { $gt: null } }))],
      } as nano.MangoSelector;
      request.sort = q.order.map((k) => ({ [k.path]: k.descending ? 'desc' : 'asc' })) as never;
      request.use_index = [`idx_order_${q.name}`, `order_${q.name}`];
    }
    if (q.skip > 0) request.skip = q.skip;
    if (q.project) request.fields = ['_id', ...q.project, ...(q.join ? [q.join.on.path] : [])];
    return request;
  }

  private viewParams(q: Query, params: Params): nano.DocumentViewParams {
    const plan = this.views.get(q.name)!;
    const prefix = plan.keyParams.map((k) => operandValue(k.condition.operand, params));
    if (plan.range === undefined)
      return {
        startkey: prefix,
        endkey: [...prefix, {}],
        group_level: prefix.length + (q.kind === 'group' ? 1 : 0),
        reduce: true,
      } as nano.DocumentViewParams;
    let start: unknown = null;
    let end: unknown = {};
    let inclusiveEnd = true;
    for (const b of plan.range.bounds) {
      const value = operandValue(b.operand, params);
      if (b.op === '$gte') start = value;
      if (b.op === '$gt') start = (value as number) + 1;
      if (b.op === '$lte') end = value;
      if (b.op === '$lt') {
        end = value;
        inclusiveEnd = false;
      }
    }
    return {
      startkey: [...prefix, start],
      endkey: [...prefix, end],
      inclusive_end: inclusiveEnd,
      group_level: prefix.length,
      reduce: true,
    } as nano.DocumentViewParams;
  }

  async query(q: Query, params: Params): Promise<Answer> {
    const translation = this.translations.get(q.name)!;
    if (!translation.supported) throw new UnsupportedError(q.name, translation.reason);
    if (q.kind !== 'find') {
      const rows = (await this.db(q.collection).view(`${DDOC}_${q.name}`, q.name, this.viewParams(q, params)))
        .rows as unknown as { key: Value[]; value: { sum: number; count: number } }[];
      if (q.kind === 'count') return { kind: 'count', count: rows.reduce((n, r) => n + r.value.count, 0) };
      return {
        kind: 'rows',
        rows: rows.map((r) => ({ _id: r.key.at(-1)!, count: r.value.count, ...(q.sum ? { sum: r.value.sum } : {}) })),
      };
    }
    const found = (await this.db(q.collection).find(this.findRequest(q, params))).docs.map(strip);
    if (!q.join) return { kind: 'rows', rows: found };
    return { kind: 'rows', rows: await this.joined(q, found) };
  }

  private async joined(q: FindQuery, found: Doc[]): Promise<Doc[]> {
    const join = q.join!;
    const ids = [
      ...new Set(found.map((d) => valueAt(d, join.on.path)).filter((v): v is string => typeof v === 'string')),
    ];
    const fetched = ids.length === 0 ? [] : (await this.db(join.from).fetch({ keys: ids })).rows;
    const byId = new Map<string, Doc>();
    for (const row of fetched) if ('doc' in row && row.doc) byId.set(row.id, strip(row.doc as unknown as Doc));
    return found.map((d) => {
      const target = byId.get(valueAt(d, join.on.path) as string);
      const row = q.project && !q.project.includes(join.on.path) ? withoutPath(d, join.on.path) : d;
      return target === undefined
        ? row
        : { ...row, [join.as]: join.project ? project([target], join.project)[0]! : target };
    });
  }

  async explain(q: Query, params: Params): Promise<ScenarioPlan> {
    const expected = indexExpected(q, this.scenario.collections.get(q.collection)!);
    if (q.kind !== 'find')
      return {
        ...(await explainView(this.db(q.collection), `${DDOC}_${q.name}`, q.name, this.viewParams(q, params))),
        indexExpected: true,
      };
    const main = await this.handle.explainFind(this.storeOf(q.collection), this.findRequest(q, params));
    if (!q.join) return { ...main, indexExpected: expected || q.order.length > 0 };
    const found = (await this.db(q.collection).find(this.findRequest(q, params))).docs;
    const ids = [
      ...new Set(
        found.map((d) => valueAt(d as Doc, q.join!.on.path)).filter((v): v is string => typeof v === 'string'),
      ),
    ];
    return {
      ...combineEvidence([
        { label: '_find', plan: main },
        { label: 'join by id', plan: await explainKeys(this.db(q.join.from), ids) },
      ]),
      indexExpected: expected || q.order.length > 0,
    };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    const doc = await this.handle.getOrNull(this.db(collection), id);
    return doc === null ? null : strip(doc as unknown as Doc);
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.db(collection).insert(doc as nano.MaybeDocument & Doc);
  }

  async update(collection: Collection, before: Doc, after: Doc, paths: readonly string[]): Promise<boolean> {
    const db = this.db(collection);
    const current = (await this.handle.getOrNull(db, String(before._id))) as (Doc & { _rev: string }) | null;
    if (current === null) return false;
    const next = structuredClone(current) as Doc;
    for (const p of paths) setPath(next, p, valueAt(after, p));
    await db.insert(next as nano.MaybeDocument & Doc);
    return true;
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    const db = this.db(collection);
    const current = (await this.handle.getOrNull(db, String(before._id))) as { _rev: string } | null;
    if (current === null) return false;
    await db.destroy(String(before._id), current._rev);
    return true;
  }

  private manifestDb(): Db {
    return this.handle.database<Doc>(`${prefixOf(this.scenario)}__manifest`);
  }

  async readManifest(): Promise<Manifest | null> {
    if (!(await this.handle.databaseExists(this.handle.databaseName(`${prefixOf(this.scenario)}__manifest`))))
      return null;
    const doc = await this.handle.getOrNull(this.manifestDb(), MANIFEST_ID);
    if (doc === null) return null;
    const { _id, _rev, ...manifest } = doc as unknown as Record<string, unknown>;
    return manifest as unknown as Manifest;
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    const db = this.manifestDb();
    const current = (await this.handle.getOrNull(db, MANIFEST_ID)) as { _rev?: string } | null;
    await db.insert({ ...manifest, _id: MANIFEST_ID, ...(current?._rev ? { _rev: current._rev } : {}) } as never);
  }
}

/** The document as the file describes it: CouchDB's `_rev` removed. */
function strip(doc: Doc): Doc {
  const { _rev, ...rest } = doc as Doc & { _rev?: string };
  return rest;
}

function setPath(doc: Doc, path: string, value: Value | undefined): void {
  const segments = path.split('.');
  let node = doc;
  for (const s of segments.slice(0, -1)) {
    if (node[s] === undefined || typeof node[s] !== 'object' || Array.isArray(node[s])) node[s] = {};
    node = node[s] as Doc;
  }
  if (value === undefined) delete node[segments.at(-1)!];
  else node[segments.at(-1)!] = value;
}

function withoutPath(doc: Doc, path: string): Doc {
  const out = structuredClone(doc);
  setPath(out, path, undefined);
  return out;
}
