/**
 * A scenario file on Apache CouchDB (nano, the official Node client): Mango `_find` for the
 * queries, with its JSON indexes; views for the aggregations; `_bulk_docs` for the load.
 *
 *   collections  one database per file collection (`<scenario>_<collection>`), `_id` the document's
 *   indexes      each declared index as a Mango JSON index (its field names: a Mango index serves a
 *                sort in either direction); and for an ordered query no declared index serves, one
 *                of its own
 *   find         `_find` { selector (couchdb-mango.ts), sort, skip, limit, fields, use_index }. An
 *                ordered query is forced onto the index whose fields are its equality fields, then
 *                its sort keys (the declared one when there is one): Mango sorts only through such
 *                an index, all keys in one direction (mixed directions are refused), and reads just
 *                the equality's key range in order. The sort given is the index's fields in the
 *                order's direction, without the `_id` the order ends with: a view's rows with
 *                equal keys come in document id order (byte order, the oracle's), forwards or
 *                backwards with the sort. Each sort key is given as a range (`$gt: null`) so the
 *                index is usable. Text sorts are refused unless the values collate alike under ICU
 *                and code points (couchdb-mango.ts)
 *   join         `_find` on the collection, then the joined documents by id (`_all_docs` with
 *                keys and include_docs): a CouchDB application's join
 *   group/count  a view per query: the map emits [equality parameters…, group value] for each
 *                document meeting the filter's constant conditions, reduce `_stats` (count and
 *                sum); read with group_level. A filter whose parameters cannot be a view key (a
 *                range before the grouping, a parameter inside $or or $elemMatch, …) runs as a
 *                `_find` of the matching ids (and the grouped fields), counted or grouped here
 *   writes       PUT (insert), GET then PUT with the revision (update), GET then DELETE
 *   plans        `_explain` and `_find` with execution_stats; views: the rows read
 */
import type nano from 'nano';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { HandleOf } from '../../../src/stores/stores.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import { explainKeys, explainView } from '../../../src/stores/couchdb/explain.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import { canonical, type Answer } from '../answers.ts';
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
import type { Collection, FindQuery, GroupQuery, Query, Scenario } from '../model.ts';
import { project } from '../oracle.ts';
import { JS_VALUES, jsCondition, mangoRefusal, mangoSortRefusal, selectorOf } from './couchdb-mango.ts';

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

/** A Mango JSON index: its design document, name and fields. */
interface MangoIndex {
  ddoc: string;
  name: string;
  fields: string[];
  /** One of the file's own indexes (else built for one query's order). */
  declared: boolean;
}

/**
 * How an ordered find runs: the index it is forced onto, the query's sort keys (without the
 * order's closing `_id`) and their one direction. Mango is given the index's every field as the
 * sort, in that direction: the equality fields first change nothing (each holds one value), and
 * a sort that begins as the index does is one every Mango takes (pouchdb-server's wants no less).
 */
interface OrderedPlan {
  index: MangoIndex;
  keys: string[];
  descending: boolean;
}

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
  private readonly ordered = new Map<string, OrderedPlan>();
  /** Counts and groups run as a `_find` (their parameters cannot be a view key): the reason. */
  private readonly found = new Map<string, string>();

  constructor(
    private readonly handle: Handle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.translations = new Map([...this.scenario.queries.values()].map((q) => [q.name, this.translate(q)]));
    const declared = [...this.scenario.collections.values()].flatMap((c) =>
      c.indexes.map((index, n) => {
        const users = [...this.ordered]
          .filter(
            ([name, plan]) =>
              plan.index.declared &&
              plan.index.name === declaredIndex(n, []).name &&
              this.scenario.queries.get(name)!.collection === c.name,
          )
          .map(([name]) => name);
        return `${c.storeName} [${index.map((f) => f.path).join(', ')}]${users.length > 0 ? ` (sorts ${users.join(', ')})` : ''}`;
      }),
    );
    const own = [...this.ordered]
      .filter(([, plan]) => !plan.index.declared)
      .map(([n, plan]) => {
        const q = this.scenario.queries.get(n)!;
        return `${this.storeOf(q.collection)} [${plan.index.fields.join(', ')}] (${n}'s own: no declared index has its equality fields then its sort keys)`;
      });
    this.structures = `CouchDB Mango JSON indexes: ${[...declared, ...own].join('; ') || 'none'}; views (_stats) for ${[...this.views.keys()].join(', ') || 'no query'}${this.found.size > 0 ? `; _find counted here for ${[...this.found.keys()].join(', ')}` : ''}`;
  }

  /**
   * The index an ordered find is forced onto: the declared one whose fields are exactly the
   * query's equality fields (any order) then its sort keys, else one of its own with those fields.
   * Mango sorts only through an index whose fields before the sort keys are all fixed by `$eq`;
   * with all the equalities first, the query reads just its key range, in order.
   */
  private orderedPlan(q: FindQuery): OrderedPlan {
    // The order's closing `_id` is the view's own tie rule (rows with equal keys by document id).
    const keys = q.order.length > 1 && q.order.at(-1)!.path === '_id' ? q.order.slice(0, -1) : q.order;
    const sortPaths = keys.map((k) => k.path);
    const equalities = [...new Set(equalityPaths(q.where))].filter((p) => !sortPaths.includes(p));
    const collection = this.scenario.collections.get(q.collection)!;
    const at = collection.indexes.findIndex((index) => {
      const fields = index.map((f) => f.path);
      const lead = new Set(fields.slice(0, equalities.length));
      return (
        fields.length === equalities.length + sortPaths.length &&
        equalities.every((p) => lead.has(p)) &&
        sortPaths.every((p, i) => fields[equalities.length + i] === p)
      );
    });
    const index =
      at >= 0
        ? declaredIndex(
            at,
            collection.indexes[at]!.map((f) => f.path),
          )
        : {
            ddoc: `idx_order_${q.name}`,
            name: `order_${q.name}`,
            fields: [...equalities, ...sortPaths],
            declared: false,
          };
    return { index, keys: sortPaths, descending: keys[0]!.descending };
  }

  /**
   * Whether Mango has a declared index to use for an unordered query: one whose first field the
   * filter constrains outside `$or` and outside arrays (a JSON index holds an array whole, so it
   * serves no condition on its elements).
   */
  private declaredUsable(q: Query): boolean {
    const constrained = new Set(
      [...topLevel(q.where)].flatMap((c) =>
        (c.kind === 'compare' && !['$ne', '$nin'].includes(c.op)) || (c.kind === 'exists' && c.exists)
          ? c.path.arrays.length === 0
            ? [c.path.path]
            : []
          : [],
      ),
    );
    return this.scenario.collections.get(q.collection)!.indexes.some((index) => constrained.has(index[0]!.path));
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
      const view = this.viewPlan(q);
      if (typeof view === 'string') {
        this.found.set(q.name, view);
        const fields = q.kind === 'group' ? [q.by.path, ...(q.sum ? [q.sum.path] : [])] : [];
        return runs(
          `_find { selector, fields [_id${fields.map((f) => `, ${f}`).join('')}] }, ${q.kind === 'group' ? `grouped by ${q.by.path}` : 'counted'} here: no view (${view})`,
        );
      }
      this.views.set(q.name, view);
      const key = [
        ...view.keyParams.map((k) => k.path),
        ...(view.range ? [view.range.path] : []),
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
    for (const k of q.order) {
      const why = mangoSortRefusal(k);
      if (why) return refuses(why);
    }
    const deep = [...(q.project ?? []), ...(q.join?.project ?? [])].find(
      (p) =>
        p.includes('.') && this.scenario.collections.get(q.collection)!.info.get(p.split('.')[0]!)?.kind === 'array',
    );
    if (deep) return refuses(`Mango's fields do not reach into arrays (${deep})`);
    const plan = q.order.length > 0 ? this.orderedPlan(q) : undefined;
    if (plan) this.ordered.set(q.name, plan);
    return runs(
      `_find { selector, ${plan ? `sort [${plan.index.fields.join(', ')}] ${plan.descending ? 'desc' : 'asc'} on ${plan.index.declared ? 'the declared' : 'its own'} index, ` : ''}${q.skip ? `skip ${q.skip}, ` : ''}limit ${q.limit ?? 'all'}${q.project ? `, fields` : ''} }${q.join ? `, then ${this.storeOf(q.join.from)} by id (_all_docs keys)` : ''}`,
    );
  }

  /** A count or group as a view, or why its parameters cannot be a view key. */
  private viewPlan(q: Exclude<Query, FindQuery>): ViewPlan | string {
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
          return `ranges on ${range.path} and ${c.path.path}: a view key has one order`;
        if (c.op === '$gt' && c.path.leaf.type !== 'int')
          return `${c.path.path} $gt: a view's start key is inclusive, and ${c.path.path} is no whole number to start one past`;
        range ??= { path: c.path.path, bounds: [] };
        range.bounds.push(c);
        continue;
      }
      if (c.kind === 'compare' && 'param' in c.operand) {
        if (c.op !== '$eq' || c.path.leaf.kind !== 'scalar')
          return `${c.path.path} ${c.op} $${c.operand.param}: a view reads a key range, and only equalities make a key prefix; a range before the grouping is none`;
        keyParams.push({ path: c.path.path, condition: c });
      } else if ([...conditions([c])].some((x) => x.kind === 'compare' && 'param' in x.operand)) {
        return 'a parameter inside $or or $elemMatch cannot be part of a view key';
      } else constant.push(c);
    }
    return { keyParams, constant, ...(range ? { range } : {}) };
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
    const create = async (collection: string, index: MangoIndex) => {
      await this.db(collection).createIndex({
        index: { fields: index.fields },
        ddoc: index.ddoc,
        name: index.name,
        type: 'json',
      } as nano.CreateIndexRequest);
      built.push(`${this.storeOf(collection)}/${index.name}`);
    };
    // Field names alone: a Mango JSON index serves a sort in either direction (and no mixed one).
    for (const c of this.scenario.collections.values())
      for (const [i, index] of c.indexes.entries())
        await create(
          c.name,
          declaredIndex(
            i,
            index.map((f) => f.path),
          ),
        );
    for (const [name, plan] of this.ordered)
      if (!plan.index.declared) await create(this.scenario.queries.get(name)!.collection, plan.index);
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
    const plan = this.ordered.get(q.name);
    if (plan) {
      // Each sort key as a range, so the order's index is usable; every answer has them.
      // One flat $and: the same selector as a nested one, and the form every Mango reads alike.
      const parts =
        Object.keys(selector).length === 1 && Array.isArray(selector.$and) ? (selector.$and as unknown[]) : [selector];
      request.selector = {
        $and: [...parts, ...plan.keys.map((k) => ({ [k]: { $gt: null } }))],
      } as nano.MangoSelector;
      request.sort = plan.index.fields.map((f) => ({ [f]: plan.descending ? 'desc' : 'asc' })) as never;
      request.use_index = [plan.index.ddoc, plan.index.name];
    }
    if (q.skip > 0) request.skip = q.skip;
    if (q.project) request.fields = ['_id', ...q.project, ...(q.join ? [q.join.on.path] : [])];
    return request;
  }

  /** A count or group that runs as `_find`: the matching documents' ids, and the fields a group reads. */
  private foundRequest(q: Exclude<Query, FindQuery>, params: Params): nano.MangoQuery {
    return {
      selector: selectorOf(q.where, params) as nano.MangoSelector,
      fields: ['_id', ...(q.kind === 'group' ? [q.by.path, ...(q.sum ? [q.sum.path] : [])] : [])],
      limit: NO_LIMIT,
    };
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
    if (q.kind !== 'find' && this.found.has(q.name)) {
      const docs = (await this.db(q.collection).find(this.foundRequest(q, params))).docs as Doc[];
      return q.kind === 'count' ? { kind: 'count', count: docs.length } : { kind: 'rows', rows: grouped(q, docs) };
    }
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
    if (q.kind !== 'find' && this.found.has(q.name))
      return {
        ...(await this.handle.explainFind(this.storeOf(q.collection), this.foundRequest(q, params))),
        indexExpected: this.declaredUsable(q),
      };
    // An ordered find runs on an index made for it; else Mango picks one, when one is usable.
    const expected = this.ordered.has(q.name) || this.declaredUsable(q);
    if (q.kind !== 'find')
      return {
        ...(await explainView(this.db(q.collection), `${DDOC}_${q.name}`, q.name, this.viewParams(q, params))),
        indexExpected: true,
      };
    const main = await this.handle.explainFind(this.storeOf(q.collection), this.findRequest(q, params));
    if (!q.join) return { ...main, indexExpected: expected };
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
      indexExpected: expected,
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

/** A group's rows from the matching documents, as MongoDB's `$group` makes them (`$sum` adds numbers only). */
function grouped(q: GroupQuery, docs: readonly Doc[]): Doc[] {
  const groups = new Map<string, Doc>();
  for (const d of docs) {
    const value = valueAt(d, q.by.path)!;
    const key = canonical(value);
    let row = groups.get(key);
    if (row === undefined) groups.set(key, (row = { _id: value, count: 0, ...(q.sum ? { sum: 0 } : {}) }));
    row.count = (row.count as number) + 1;
    const add = q.sum ? valueAt(d, q.sum.path) : undefined;
    if (typeof add === 'number') row.sum = (row.sum as number) + add;
  }
  return [...groups.values()];
}

/** The declared index `n` of a collection, as buildIndexes creates it. */
function declaredIndex(n: number, fields: string[]): MangoIndex {
  return { ddoc: `idx_declared_${n}`, name: `declared_${n}`, fields, declared: true };
}

/** The conditions every answer meets (the filter's, and those of its `$and`s), not those under `$or` or `$elemMatch`. */
function* topLevel(where: readonly Condition[]): Generator<Condition> {
  for (const c of where) {
    if (c.kind === 'and') yield* topLevel(c.of);
    else yield c;
  }
}

/**
 * Fields the filter fixes to one value: `$eq` outside arrays, which Mango states as
 * `{ field: { $eq: v } }` and counts as constant when it picks an index for a sort.
 */
function equalityPaths(where: readonly Condition[]): string[] {
  return [...topLevel(where)].flatMap((c) =>
    c.kind === 'compare' && c.op === '$eq' && c.path.arrays.length === 0 && c.path.leaf.kind === 'scalar'
      ? [c.path.path]
      : [],
  );
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
