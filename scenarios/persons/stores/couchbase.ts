/**
 * Persons on Couchbase Server 7.x (the official `couchbase` SDK 4), written for the real server:
 * one JSON document per person, key = the person's id, loaded through the KV service (concurrent
 * inserts, which the SDK pipelines), queried with SQL++ through the query service.
 *
 * Where the documents live. With `couchbase.management` and `couchbase.query` on (the
 * defaults), each shape gets its own collection in the configured scope (`persons`,
 * `persons_nested`), Couchbase 7's unit for one kind of document, created and dropped with SQL++
 * DDL (`CREATE COLLECTION`, `DROP COLLECTION`, which also drops the collection's indexes), and a
 * primary index created before the load, so it is maintained during the load as an
 * application's would be. With either off (a user without DDL rights, a KV-only cluster, the
 * local stand-in) nothing is created: the documents go to the store's configured collection
 * (`-p couchbase.collection=…`, created beforehand), which `drop` empties with `DELETE` when
 * SQL++ is available (and otherwise cannot: the store's upsert setting then lets a load
 * overwrite what an earlier one left).
 *
 * Queries: `SELECT META(d).id AS id, d AS doc FROM <keyspace> AS d WHERE …`, every matching
 * document returned whole, positional parameters, a prepared statement (adhoc=false). Conditions
 * come from the query definitions, field names backtick-quoted (`jedi power` has a space):
 *   range   d.`salary` > $1 AND d.`salary` < $2
 *   exists  d.`fax` IS NOT MISSING
 *   anyOf   flat:   d.`pet` = $5, d.`jedi power` IN [$5, $6]
 *           nested: ANY v IN d.`pet` SATISFIES v = $5 END (and IN for several values)
 * Two variants, one per run:
 *   primary  no secondary index: the query service fetches every document through the primary
 *            index and filters it (what Couchbase does for a query no GSI index covers)
 *   gsi      a compound GSI index per query, value condition first (an array index key,
 *            DISTINCT ARRAY v FOR v IN … END, on an array field), then salary and age; "has a
 *            fax" as a partial index (WHERE fax IS NOT MISSING), so it holds only those persons;
 *            Q1 uses Q2's (salary, age) by its leading key. Created deferred and built together
 *            with one BUILD INDEX, as Couchbase recommends, then waited for until every one is
 *            online. The recorded plan (EXPLAIN, and a run with profile=phases) shows which
 *            index the query service chose and how many entries and documents it read.
 * Before the first timed query, each query runs once with request_plus consistency (timed as the
 * variant's BUILD step), so the indexes have caught up with the whole load; the timed queries then
 * run with the SDK's default (not_bounded) and must still return every document, which the oracle
 * checks.
 *
 * Size: Couchbase 7's per-collection statistic `kv_collection_data_size_bytes` ("data size on disk
 * for active vbuckets") from the statistics REST API, summed over the nodes and waited for until it
 * is steady (the statistics are sampled every 10 s, and documents are persisted asynchronously).
 * Compaction is automatic (fragmentation thresholds) and, run by hand, bucket-wide; not run here.
 *
 * On a cluster (or stand-in) without SQL++ (`couchbase.query=false`) the load runs through KV as
 * everywhere else, and every query and index build is UNSUPPORTED; without management there is no
 * statistics API, so the size is reported as unavailable, never guessed.
 */
import { QueryScanConsistency, type Collection } from 'couchbase';
import type { HandleOf } from '../../../src/stores/stores.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import { waitFor } from '../../../src/stores/wait.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  DialectContext,
  DiskSize,
  IndexBuilder,
  PersonsDialect,
  QueryExplainer,
  QueryVariant,
  VariantBuilder,
  PersonsDialectDefinition,
} from '../dialect.ts';
import type { Person, PersonRecord } from '../model.ts';
import { indexGroups, QUERIES, type Condition, type PersonsQuery } from '../queries.ts';

/** How long to wait for a new collection to answer, for index builds, and for a steady size figure. */
/** The statistics API samples every 10 s: a size is steady when it held over this long. */
const STEADY_SIZE_MS = 12_000;
/** The variable of every ANY … SATISFIES and array index: SQL++ matches a query to an array index by it. */
const ELEMENT = 'v';

export const dialect: PersonsDialectDefinition<'couchbase'> = {
  store: 'couchbase',
  create: (handle, context) => new CouchbasePersons(handle, context),
};

/** A backtick-quoted SQL++ identifier. */
const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

/** A SQL++ statement with its positional parameters ($1, $2, …). */
export interface SqlppStatement {
  statement: string;
  parameters: unknown[];
}

/** The SQL++ condition of one query condition on `d`; pushes its parameters. */
function sqlppCondition(c: Condition, nested: boolean, parameters: unknown[]): string {
  const field = `d.${quote(c.field)}`;
  const param = (value: unknown) => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  if (c.kind === 'range') {
    const parts: string[] = [];
    if (c.above !== undefined) parts.push(`${field} > ${param(c.above)}`);
    if (c.below !== undefined) parts.push(`${field} < ${param(c.below)}`);
    return parts.join(' AND ');
  }
  if (c.kind === 'exists') return `${field} IS NOT MISSING`;
  const test = (subject: string) =>
    c.values.length === 1 ? `${subject} = ${param(c.values[0])}` : `${subject} IN [${c.values.map(param).join(', ')}]`;
  return nested ? `ANY ${ELEMENT} IN ${field} SATISFIES ${test(ELEMENT)} END` : test(field);
}

/** The SELECT of one query: ids and whole documents of every match. */
export function sqlppQuery(keyspace: string, query: PersonsQuery, nested: boolean): SqlppStatement {
  const parameters: unknown[] = [];
  const where = query.where.map((c) => sqlppCondition(c, nested, parameters)).join(' AND ');
  return { statement: `SELECT META(d).id AS id, d AS doc FROM ${keyspace} AS d WHERE ${where}`, parameters };
}

/**
 * One compound GSI index per query, created deferred (built together by `BUILD INDEX`): value
 * conditions first (an array index key for an array), then the ranges; an existence condition
 * makes it a partial index. An index whose keys lead another's (Q1's salary in Q2's salary, age)
 * is left out: the longer one serves it.
 */
export function gsiIndexes(
  keyspace: string,
  collection: string,
  nested: boolean,
): { name: string; statement: string }[] {
  const slug = (field: string) => field.replace(/[^A-Za-z0-9]+/g, '_');
  const all = QUERIES.map((q) => {
    const { anyOf, ranges, exists } = indexGroups(q);
    const keys = [
      ...anyOf.map((c) =>
        nested ? `DISTINCT ARRAY ${ELEMENT} FOR ${ELEMENT} IN ${quote(c.field)} END` : quote(c.field),
      ),
      ...ranges.map((c) => quote(c.field)),
    ];
    const where = exists.map((c) => `${quote(c.field)} IS NOT MISSING`).join(' AND ');
    const name = `${collection}_${[...anyOf, ...ranges].map((c) => slug(c.field)).join('_')}${exists.map((c) => `_has_${slug(c.field)}`).join('')}`;
    return {
      name,
      keys,
      where,
      statement: `CREATE INDEX ${quote(name)} IF NOT EXISTS ON ${keyspace}(${keys.join(', ')})${where ? ` WHERE ${where}` : ''} WITH {"defer_build": true}`,
    };
  });
  const leads = (a: string[], b: string[]) => a.length < b.length && a.every((k, i) => b[i] === k);
  return all
    .filter(
      (i) => !all.some((other) => other !== i && i.where === '' && other.where === '' && leads(i.keys, other.keys)),
    )
    .map(({ name, statement }) => ({ name, statement }));
}

/** The statistics REST call for one collection's data size on disk, summed over the nodes. */
export function collectionSizePath(bucket: string, scope: string, collection: string): string {
  const labels = new URLSearchParams({ bucket, scope, collection, nodesAggregation: 'sum', start: '-30', step: '10' });
  return `/pools/default/stats/range/kv_collection_data_size_bytes?${labels.toString()}`;
}

class CouchbasePersons implements PersonsDialect, IndexBuilder, VariantBuilder, QueryExplainer {
  readonly variants: readonly QueryVariant[];
  readonly noCompaction =
    'not run: Couchbase compacts automatically (fragmentation thresholds), and compaction by hand is bucket-wide';
  private readonly caps: ReturnType<HandleOf<'couchbase'>['capabilities']>;
  private readonly nested: boolean;
  /** The dialect creates and drops its own collection per shape (needs management and SQL++). */
  private readonly ownCollection: boolean;
  /** That collection, or the store's configured one. */
  private readonly collectionName: string;
  private readonly keyspace: string;

  constructor(
    private readonly handle: HandleOf<'couchbase'>,
    context: DialectContext,
  ) {
    this.caps = handle.capabilities();
    this.nested = context.shape === 'nested';
    this.ownCollection = this.caps.management && this.caps.query;
    this.collectionName = this.ownCollection ? context.collection : this.caps.collection;
    this.keyspace = handle.keyspace(this.collectionName);
    this.variants = context.indexes
      ? [
          {
            name: 'gsi',
            description: `SQL++ SELECT on ${this.keyspace} with a compound GSI index per query (array index keys for arrays, a partial index for "has a fax")`,
            build: true,
          },
        ]
      : [
          {
            name: 'primary',
            description: `SQL++ SELECT on ${this.keyspace} with the primary index only: every document fetched and filtered by the query service`,
            build: true,
          },
        ];
  }

  private collection(): Collection {
    return this.handle.collection(this.collectionName);
  }

  async drop(): Promise<void> {
    if (this.ownCollection) {
      await this.handle.queryRows(`DROP COLLECTION ${this.keyspace} IF EXISTS`);
      return;
    }
    // Without DDL rights: empty the configured collection (no SQL++: nothing can be deleted, and
    // the store's upsert setting lets the load overwrite what an earlier load left).
    if (this.caps.query)
      await this.handle.queryRows(`DELETE FROM ${this.keyspace}`, {
        scanConsistency: QueryScanConsistency.RequestPlus,
      });
  }

  async prepare(): Promise<void> {
    if (!this.ownCollection) return;
    await this.handle.createCollection(this.collectionName);
  }

  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    const collection = this.collection();
    await this.handle.writeAll(records.map((r) => ({ collection, key: r.id, value: r.person })));
  }

  /** One KV insert (upsert with couchbase.upsert=true), awaited before the next. */
  async insertOne(record: PersonRecord): Promise<void> {
    await this.handle.write({ collection: this.collection(), key: record.id, value: record.person });
  }

  async buildIndexes(): Promise<string> {
    this.handle.requireQuery('INDEX-BUILD');
    if (!this.caps.management)
      throw new UnsupportedError(
        'INDEX-BUILD',
        'couchbase.management=false: docbench creates no index; create them yourself',
      );
    const indexes = gsiIndexes(this.keyspace, this.collectionName, this.nested);
    await this.handle.buildDeferredIndexes(this.keyspace, this.collectionName, indexes);
    const names = indexes.map((i) => i.name);
    return `GSI indexes ${names.join(', ')}, created deferred and built with one BUILD INDEX`;
  }

  async buildVariant(variant: string): Promise<string> {
    this.checkVariant(variant);
    this.handle.requireQuery(`${variant}:BUILD`);
    for (const q of QUERIES) {
      const { statement, parameters } = sqlppQuery(this.keyspace, q, this.nested);
      await this.handle.queryRows(statement, {
        parameters,
        scanConsistency: QueryScanConsistency.RequestPlus,
        readOnly: true,
      });
    }
    return `each query once with request_plus consistency, so the ${variant === 'gsi' ? 'GSI' : 'primary'} indexes have caught up with the load`;
  }

  async query(variant: string, query: PersonsQuery): Promise<PersonRecord[]> {
    this.checkVariant(variant);
    this.handle.requireQuery(query.id);
    const { statement, parameters } = sqlppQuery(this.keyspace, query, this.nested);
    const rows = await this.handle.queryRows<{ id: string; doc: Person }>(statement, {
      parameters,
      adhoc: false,
      readOnly: true,
    });
    return rows.map((r) => ({ id: r.id, person: r.doc }));
  }

  async explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan> {
    this.checkVariant(variant);
    const { statement, parameters } = sqlppQuery(this.keyspace, query, this.nested);
    return { ...(await this.handle.explain(statement, parameters)), indexExpected: variant === 'gsi' };
  }

  async sizeOnDisk(): Promise<DiskSize> {
    if (!this.caps.management) {
      return {
        method:
          'unavailable: couchbase.management=false, so no statistics REST API (the local stand-in has none); no figure is reported',
      };
    }
    const path = collectionSizePath(this.caps.bucket, this.caps.scope, this.collectionName);
    let last = -1;
    let steadySince = 0;
    await waitFor(
      'a steady kv_collection_data_size_bytes',
      async () => {
        const bytes = latestValue(await this.handle.managementGet(path));
        if (bytes === undefined || bytes !== last) {
          last = bytes ?? -1;
          steadySince = performance.now();
          return false;
        }
        return bytes > 0 && performance.now() - steadySince >= STEADY_SIZE_MS;
      },
      { store: 'couchbase', intervalMs: 2000 },
    );
    return {
      bytes: last,
      method: `statistic kv_collection_data_size_bytes of ${this.caps.scope}.${this.collectionName} (data on disk, active vbuckets, summed over nodes)`,
    };
  }

  private checkVariant(variant: string): void {
    if (variant !== 'primary' && variant !== 'gsi') throw new Error(`couchbase: unknown variant "${variant}"`);
  }
}

/** The newest value of a statistics REST answer: {data: [{values: [[timestamp, "value"], …]}]}. */
export function latestValue(answer: unknown): number | undefined {
  const data = (answer as { data?: { values?: [number, string][] }[] } | null)?.data;
  const values = Array.isArray(data) ? data[0]?.values : undefined;
  const newest = Array.isArray(values) && values.length > 0 ? values[values.length - 1] : undefined;
  const n = newest ? Number(newest[1]) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}
