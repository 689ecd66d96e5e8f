/**
 * Persons on CouchDB (HTTP API through nano): one JSON document per person, `_id` = the
 * person's id, loaded with `_bulk_docs` (every per-document result checked: CouchDB answers
 * 201 even when single documents fail).
 *
 * Two ways to query, both run:
 *   mango  POST /{db}/_find with a selector. Without indexes CouchDB scans every document (and
 *          says so: "no matching index found"); with indexes, a JSON `_index` on each queried
 *          field, built after the load (by a `_find` that uses it) and chosen by CouchDB's own
 *          planner. Nested arrays are matched with `$elemMatch`. `_find` returns 25 documents
 *          unless told otherwise, so the limit is the dataset's size: one response holds the
 *          whole answer, every matching document in full, as the thesis read its whole result.
 *   view   permanent map views in one design document, one per query: the map function tests
 *          the whole predicate and emits the matching ids, read with include_docs=true. The
 *          thesis used temporary views, which CouchDB 2.0 removed; permanent views are what a
 *          CouchDB user writes instead. CouchDB builds a view on its first query, so the build
 *          is run and timed before the queries (`view:BUILD`) and query times are reads of a
 *          built view. The map functions are generated from the query definitions for the
 *          dataset's shape: a flat `pet` is compared as a string, a nested one searched as an
 *          array (the thesis looped over a flat string's characters and matched nothing).
 *
 * Size: the database info's `sizes.file` (CouchDB 3), or `disk_size` where only that exists
 * (pouchdb-server: its LevelDB folder); after `POST /{db}/_compact`, waited for, again.
 */
import type nano from 'nano';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HandleOf } from '../../../src/stores/stores.ts';
import type { Compactor, DialectContext, DiskSize, IndexBuilder, PersonsDialect, QueryVariant, VariantBuilder, PersonsDialectDefinition } from '../dialect.ts';
import type { PersonRecord } from '../model.ts';
import { queriedFields, QUERIES, type Condition, type PersonsQuery } from '../queries.ts';

const DESIGN = 'persons';
const COMPACTION_WAIT_MS = 600_000;

type PersonDoc = Record<string, unknown> & { _id: string };

export const dialect: PersonsDialectDefinition<'couchdb'> = {
  store: 'couchdb',
  create: (couch, context) => new CouchdbPersons(couch, context),
};

/** A name usable in a design document id: `jedi power` -> `jedi-power`. */
const slug = (field: string) => field.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** The Mango operator object for one condition. */
function mangoOperators(c: Condition, nested: boolean): Record<string, unknown> {
  if (c.kind === 'range') return { ...(c.above !== undefined ? { $gt: c.above } : {}), ...(c.below !== undefined ? { $lt: c.below } : {}) };
  if (c.kind === 'exists') return { $exists: true };
  const match = c.values.length === 1 ? { $eq: c.values[0] } : { $in: [...c.values] };
  return nested ? { $elemMatch: match } : match;
}

/** The Mango selector of a query; conditions on one field are merged into one operator object. */
export function mangoSelector(query: PersonsQuery, nested: boolean): Record<string, Record<string, unknown>> {
  const selector: Record<string, Record<string, unknown>> = {};
  for (const c of query.where) {
    const ops = mangoOperators(c, nested);
    const existing = selector[c.field] ?? {};
    for (const op of Object.keys(ops)) if (op in existing) throw new Error(`${query.id}: two ${op} conditions on ${c.field}`);
    selector[c.field] = { ...existing, ...ops };
  }
  return selector;
}

/** A JavaScript test of one condition on `doc`, for a map function (ES5: CouchDB's JS engines). */
function jsTest(c: Condition, nested: boolean): string {
  const value = `doc[${JSON.stringify(c.field)}]`;
  if (c.kind === 'range') {
    const parts = [`typeof ${value} === 'number'`];
    if (c.above !== undefined) parts.push(`${value} > ${c.above}`);
    if (c.below !== undefined) parts.push(`${value} < ${c.below}`);
    return parts.join(' && ');
  }
  if (c.kind === 'exists') return `${value} !== undefined`;
  const wanted = JSON.stringify(c.values);
  if (nested) return `Array.isArray(${value}) && ${value}.some(function (x) { return ${wanted}.indexOf(x) !== -1; })`;
  return `typeof ${value} === 'string' && ${wanted}.indexOf(${value}) !== -1`;
}

/** The map function of a query's view: emit the id of every document the whole predicate holds for. */
export function mapFunction(query: PersonsQuery, nested: boolean): string {
  const tests = query.where.map((c) => `  if (!(${jsTest(c, nested)})) return;`);
  return `function (doc) {\n${tests.join('\n')}\n  emit(doc._id, null);\n}`;
}

const viewName = (query: PersonsQuery) => query.id.toLowerCase();

class CouchdbPersons implements PersonsDialect, IndexBuilder, VariantBuilder, Compactor {
  readonly variants: readonly QueryVariant[];
  private readonly name: string;
  private readonly db: nano.DocumentScope<PersonDoc>;
  private readonly nested: boolean;

  constructor(
    private readonly couch: HandleOf<'couchdb'>,
    private readonly context: DialectContext,
  ) {
    this.name = couch.databaseName(context.collection);
    this.db = couch.database<PersonDoc>(context.collection);
    this.nested = context.shape === 'nested';
    this.variants = [
      {
        name: 'mango',
        description: context.indexes
          ? '_find with a selector; a JSON _index on each queried field, CouchDB picks one ($elemMatch for arrays)'
          : '_find with a selector and no _index: CouchDB scans every document ($elemMatch for arrays)',
      },
      { name: 'view', description: `permanent map views in _design/${DESIGN}, one per query, read with include_docs=true`, build: true, usesIndexes: false },
    ];
  }

  async drop(): Promise<void> {
    await this.couch.destroyDatabase(this.name);
  }

  async prepare(): Promise<void> {
    await this.couch.createDatabase(this.name);
  }

  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    await this.couch.bulkDocs(
      this.db,
      records.map((r) => ({ _id: r.id, ...r.person }) as PersonDoc),
    );
  }

  async buildIndexes(): Promise<string> {
    const fields = queriedFields().map((c) => c.field);
    for (const field of fields) {
      const ddoc = `${DESIGN}-by-${slug(field)}`;
      await this.db.createIndex({ index: { fields: [field] }, ddoc, name: `by-${slug(field)}`, type: 'json' });
      // CouchDB builds an index on the first query that uses it; do that now, so query times are reads.
      // `$gte: null` (the lowest key in CouchDB collation) is a range CouchDB can run on the index.
      await this.db.find({ selector: { [field]: { $gte: null } }, use_index: [ddoc, `by-${slug(field)}`], limit: 1 });
    }
    return `Mango JSON indexes on ${fields.join(', ')}, each built by a _find that uses it`;
  }

  async buildVariant(variant: string): Promise<string> {
    if (variant !== 'view') throw new Error(`couchdb: variant "${variant}" has nothing to build`);
    const views: Record<string, { map: string }> = {};
    for (const q of QUERIES) views[viewName(q)] = { map: mapFunction(q, this.nested) };
    await this.db.insert({ _id: `_design/${DESIGN}`, language: 'javascript', views } as unknown as PersonDoc);
    // Querying a view brings it up to date first (CouchDB does all views of a design document together).
    for (const q of QUERIES) await this.db.view(DESIGN, viewName(q), { limit: 0 });
    return `${QUERIES.length} map views in _design/${DESIGN}, built by a first query of each`;
  }

  async query(variant: string, query: PersonsQuery): Promise<string[]> {
    if (variant === 'mango') {
      const response = await this.db.find({ selector: mangoSelector(query, this.nested) as nano.MangoSelector, limit: this.context.size });
      return response.docs.map((d) => d._id);
    }
    if (variant === 'view') {
      const response = await this.db.view<null>(DESIGN, viewName(query), { include_docs: true });
      return response.rows.filter((r) => r.doc).map((r) => r.id);
    }
    throw new Error(`couchdb: unknown variant "${variant}"`);
  }

  async sizeOnDisk(): Promise<DiskSize> {
    const info = (await this.db.info()) as unknown as { sizes?: { file?: number }; disk_size?: number };
    if (typeof info.sizes?.file === 'number') return { bytes: info.sizes.file, method: 'database info sizes.file (the database file)' };
    if (typeof info.disk_size === 'number') return { bytes: info.disk_size, method: 'database info disk_size (no sizes.file on this server)' };
    throw new Error(`couchdb: database ${this.name} reports no size`);
  }

  async compact(): Promise<DiskSize> {
    await this.db.compact();
    const deadline = performance.now() + COMPACTION_WAIT_MS;
    while (((await this.db.info()) as unknown as { compact_running?: boolean }).compact_running === true) {
      if (performance.now() > deadline) throw new Error(`couchdb: compaction of ${this.name} still running after ${COMPACTION_WAIT_MS / 1000} s`);
      await sleep(200);
    }
    const size = await this.sizeOnDisk();
    return { ...size, method: `${size.method} after POST /{db}/_compact` };
  }
}
