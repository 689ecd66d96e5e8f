/**
 * Persons on Cassandra (CQL, cassandra-driver), in the store's own terms: a table with a column
 * per field, one partition per person (`id` is the partition key), every query a SELECT whose
 * pages are all read (the driver fetches the next page as the rows are iterated).
 *
 * Columns: the document's fields; in the nested shape pet / fax / jedi power are `list<text>`
 * (a list, not a set: a person may own two penguins, and the document must come back as it
 * went in). Column names are the field names with anything but letters, digits and `_`
 * replaced by `_` (`jedi power` -> `jedi_power`): CQL can quote any name, but SAI refuses to
 * index a column whose name has a space. The mapping is one function used for the DDL and every
 * query, so the thesis's own slip (querying `jedi_power` where documents held `jedi power`)
 * cannot happen by hand here, and the oracle would catch it if it did.
 *
 * "Has a fax": CQL has no "column is set" predicate (no IS NOT NULL in a SELECT, and SAI
 * indexes values only), so the table carries `has_fax boolean`, written with each row, the
 * query-first modelling Cassandra asks for. Which `has_*` columns exist comes from the
 * queries' exists-conditions.
 *
 * Without indexes (`allow-filtering`): the same WHERE clause with ALLOW FILTERING, so the
 * server reads every row and filters it (the unindexed work the thesis measured, done by the
 * database, not shipped to the client). With indexes (`sai`): a Storage-Attached Index (SAI,
 * Cassandra 5.0) on every queried column, built after the load, and the WHERE clause without
 * ALLOW FILTERING. CQL in 5.0 has no OR: "Force Choke or Force Insanity" is an IN on a flat
 * column under ALLOW FILTERING; SAI takes no IN and CONTAINS takes one value, so otherwise it is
 * one query per value, merged in the client with duplicates removed (a person may hold both).
 *
 * Size: `system_views.disk_usage`, which counts SSTables only and in whole MiB. CQL has no
 * FLUSH; Cassandra flushes a table's memtable on any schema change of that table, so the
 * dialect rewrites the table comment first (what `nodetool flush` would do over JMX).
 * Compaction runs in the background and has no CQL command (`nodetool compact`).
 *
 * Plans: each SELECT executed once more with query tracing; the trace says which SAI indexes
 * served it ("using indexes …", SAI intersects them: the compound of the query's columns) or
 * that the server read every row ("No applicable indexes found", a seq scan).
 */
import cassandra from 'cassandra-driver';
import { waitFor } from '../../../src/stores/wait.ts';
import { notYetOnTimeout } from '../../shared/cassandra-poll.ts';
import { cqlIdentifier as quote, type CassandraHandle } from '../../../src/stores/cassandra/handle.ts';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  DialectContext,
  DiskSize,
  IndexBuilder,
  PersonsDialect,
  QueryExplainer,
  QueryVariant,
  PersonsDialectDefinition,
} from '../dialect.ts';
import { FIELD, type Person, type PersonRecord } from '../model.ts';
import { queriedFields, type Condition, type PersonsQuery } from '../queries.ts';

/** Rows per page while draining a result. */
const FETCH_SIZE = 5000;
/**
 * INSERTs in flight per bulk write (the driver's executeConcurrent default). Several bulk writes
 * run at once, and the driver refuses requests beyond `pooling.maxRequestsPerConnection` (2048)
 * rather than queueing them.
 */
const INSERT_CONCURRENCY = 100;

export const dialect: PersonsDialectDefinition<'cassandra'> = {
  store: 'cassandra',
  create: (handle, context) => new CassandraPersons(handle, context),
};

/** A field's column name (see the header: SAI needs plain identifiers). */
export function columnOf(field: string): string {
  return field.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The derived column that says an optional field is present. */
export function presenceColumnOf(field: string): string {
  return `has_${columnOf(field)}`;
}

/** Fields whose presence a query asks about: each gets a has_<field> column. */
function presenceFields(): string[] {
  return queriedFields()
    .filter((c) => c.kind === 'exists')
    .map((c) => c.field);
}

const SCALAR_TYPES: Record<string, string> = {
  [FIELD.name]: 'text',
  [FIELD.salary]: 'int',
  [FIELD.age]: 'int',
  [FIELD.telephone]: 'text',
  [FIELD.pet]: 'text',
  [FIELD.fax]: 'text',
  [FIELD.jediPower]: 'text',
};
const ARRAY_FIELDS = new Set<string>([FIELD.pet, FIELD.fax, FIELD.jediPower]);

/** A row as the person it holds: the fields with a value (an absent field is a null column), presence columns left out. */
function personOf(row: cassandra.types.Row): Person {
  const person: Record<string, unknown> = {};
  for (const field of Object.keys(SCALAR_TYPES)) {
    const value: unknown = row.get(columnOf(field));
    if (value !== null && value !== undefined) person[field] = value;
  }
  return person as unknown as Person;
}

/** One CQL statement with its parameters. */
export interface CqlQuery {
  cql: string;
  params: unknown[];
}

/**
 * The SELECTs for one query: usually one. CQL 5.0 has no OR, and neither SAI nor CONTAINS takes
 * several values, so a condition "any of several values" becomes one SELECT per value (merged
 * by the caller), except on a flat column under ALLOW FILTERING, where IN works.
 * `filtering` appends ALLOW FILTERING.
 */
export function selectStatements(table: string, query: PersonsQuery, nested: boolean, filtering: boolean): CqlQuery[] {
  const clauses: string[] = [];
  const params: unknown[] = [];
  let fanOut: { clause: string; values: readonly string[] } | undefined;
  for (const c of query.where) {
    const column = quote(columnOf(c.field));
    if (c.kind === 'range') {
      if (c.above !== undefined) {
        clauses.push(`${column} > ?`);
        params.push(c.above);
      }
      if (c.below !== undefined) {
        clauses.push(`${column} < ?`);
        params.push(c.below);
      }
    } else if (c.kind === 'exists') {
      clauses.push(`${quote(presenceColumnOf(c.field))} = ?`);
      params.push(true);
    } else {
      const clause = nested ? `${column} CONTAINS ?` : `${column} = ?`;
      if (c.values.length === 1) {
        clauses.push(clause);
        params.push(c.values[0]);
      } else if (!nested && filtering) {
        clauses.push(`${column} IN (${c.values.map(() => '?').join(', ')})`);
        params.push(...c.values);
      } else {
        if (fanOut) throw new Error(`${query.id}: more than one condition with several values`);
        fanOut = { clause, values: c.values };
      }
    }
  }
  const text = (extra: string[]) =>
    `SELECT * FROM ${table} WHERE ${[...clauses, ...extra].join(' AND ')}${filtering ? ' ALLOW FILTERING' : ''}`;
  if (!fanOut) return [{ cql: text([]), params }];
  const { clause, values } = fanOut;
  return values.map((v) => ({ cql: text([clause]), params: [...params, v] }));
}

class CassandraPersons implements PersonsDialect, IndexBuilder, QueryExplainer {
  readonly variants: readonly QueryVariant[];
  readonly noCompaction = 'not available through CQL (nodetool compact); Cassandra compacts in the background';
  private readonly client: cassandra.Client;
  private readonly keyspace: string;
  private readonly table: string;
  private readonly nested: boolean;
  private readonly presence = presenceFields();

  constructor(
    private readonly handle: CassandraHandle,
    private readonly context: DialectContext,
  ) {
    this.client = handle.client;
    this.keyspace = handle.keyspace;
    this.table = handle.table(context.collection);
    this.nested = context.shape === 'nested';
    this.variants = context.indexes
      ? [{ name: 'sai', description: 'SELECT … WHERE on SAI-indexed columns (no ALLOW FILTERING); every page read' }]
      : [
          {
            name: 'allow-filtering',
            description: 'SELECT … WHERE … ALLOW FILTERING: the server reads and filters every row; every page read',
          },
        ];
  }

  private indexName(column: string): string {
    return `${this.context.collection}_${column}_sai`;
  }

  async drop(): Promise<void> {
    // The keyspace, with the replication the store is configured with (`cassandra.replication`).
    await this.handle.ensureKeyspace();
    await this.client.execute(`DROP TABLE IF EXISTS ${this.table}`);
  }

  async prepare(): Promise<void> {
    const columns = Object.entries(SCALAR_TYPES).map(
      ([field, type]) => `${quote(columnOf(field))} ${this.nested && ARRAY_FIELDS.has(field) ? `list<${type}>` : type}`,
    );
    for (const field of this.presence) columns.push(`${quote(presenceColumnOf(field))} boolean`);
    await this.client.execute(`CREATE TABLE IF NOT EXISTS ${this.table} (id text PRIMARY KEY, ${columns.join(', ')})`);
  }

  private insertStatement(): string {
    const names = ['id', ...Object.keys(SCALAR_TYPES).map(columnOf), ...this.presence.map(presenceColumnOf)];
    return `INSERT INTO ${this.table} (${names.map(quote).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
  }

  /**
   * Individual prepared INSERTs, a bounded number in flight, with the driver's own bulk helper
   * (`concurrent.executeConcurrent`): Cassandra advises against multi-partition batches for
   * loading. Absent fields are bound as `undefined`, which the driver sends as "unset", so no
   * tombstone is written for them. The first failed INSERT fails the bulk write.
   */
  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    const rows = records.map((r) => this.insertParameters(r));
    await cassandra.concurrent.executeConcurrent(this.client, this.insertStatement(), rows, {
      concurrencyLevel: INSERT_CONCURRENCY,
      raiseOnFirstError: true,
    });
  }

  /** One prepared INSERT, awaited before the next. */
  async insertOne(record: PersonRecord): Promise<void> {
    await this.client.execute(this.insertStatement(), this.insertParameters(record), { prepare: true });
  }

  private insertParameters({ id, person }: PersonRecord): unknown[] {
    const doc = person as unknown as Record<string, unknown>;
    const params: unknown[] = [id, ...Object.keys(SCALAR_TYPES).map((f) => doc[f])];
    for (const field of this.presence) params.push(doc[field] !== undefined);
    return params;
  }

  async buildIndexes(): Promise<string> {
    const columns = queriedFields().map((c: Condition) =>
      c.kind === 'exists' ? presenceColumnOf(c.field) : columnOf(c.field),
    );
    for (const column of columns) {
      await this.client.execute(
        `CREATE INDEX IF NOT EXISTS ${quote(this.indexName(column))} ON ${this.table} (${quote(column)}) USING 'sai'`,
      );
    }
    await this.waitFor(
      notYetOnTimeout(async () => {
        const rows = (
          await this.client.execute(
            'SELECT index_name, is_queryable FROM system_views.sai_column_indexes WHERE keyspace_name = ? AND table_name = ?',
            [this.keyspace, this.context.collection],
            { prepare: true },
          )
        ).rows;
        return columns.every((c) =>
          rows.some((r) => r.get('index_name') === this.indexName(c) && r.get('is_queryable') === true),
        );
      }),
      'SAI indexes to become queryable',
    );
    return `SAI on ${columns.join(', ')}${this.nested ? ' (list columns: index on their values)' : ''}`;
  }

  async query(variant: string, query: PersonsQuery): Promise<PersonRecord[]> {
    if (variant !== 'sai' && variant !== 'allow-filtering') throw new Error(`cassandra: unknown variant "${variant}"`);
    const statements = selectStatements(this.table, query, this.nested, variant === 'allow-filtering');
    const records: PersonRecord[] = [];
    const seen = statements.length > 1 ? new Set<string>() : undefined;
    for (const { cql, params } of statements) {
      const result = await this.client.execute(cql, params, { prepare: true, fetchSize: FETCH_SIZE });
      // Async iteration fetches every page.
      for await (const row of result) {
        const id = row.get('id') as string;
        if (seen) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        records.push({ id, person: personOf(row) });
      }
    }
    return records;
  }

  async explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan> {
    if (variant !== 'sai' && variant !== 'allow-filtering') throw new Error(`cassandra: unknown variant "${variant}"`);
    const statements = selectStatements(this.table, query, this.nested, variant === 'allow-filtering');
    const steps = [];
    for (const { cql, params } of statements)
      steps.push({ label: cql, plan: await this.handle.trace(cql, params, FETCH_SIZE) });
    // Several SELECTs (one per value) are one query: rows returned by all of them, before duplicates are merged.
    const returned = steps.reduce((sum, s) => sum + (s.plan.returned ?? 0), 0);
    return { ...combineEvidence(steps), returned, indexExpected: variant === 'sai' };
  }

  async sizeOnDisk(): Promise<DiskSize> {
    // Any schema change flushes the table's memtable; the comment is the harmless one to change.
    await this.client.execute(
      `ALTER TABLE ${this.table} WITH comment = 'docbench persons, flushed ${new Date().toISOString()}'`,
    );
    let last = -1;
    let stableSince = 0;
    let mib = 0;
    await this.waitFor(async () => {
      const rows = (
        await this.client.execute(
          'SELECT mebibytes FROM system_views.disk_usage WHERE keyspace_name = ? AND table_name = ?',
          [this.keyspace, this.context.collection],
          { prepare: true },
        )
      ).rows;
      mib = rows.reduce((sum, r) => sum + Number(r.get('mebibytes') ?? 0), 0);
      // The flush is asynchronous: done when the figure is non-zero and has held for a second.
      if (mib !== last) {
        last = mib;
        stableSince = performance.now();
        return false;
      }
      return mib > 0 && performance.now() - stableSince >= 1000;
    }, 'the flushed table to show on disk');
    return {
      bytes: mib * 1048576,
      method: 'system_views.disk_usage after a memtable flush (SSTables only, whole MiB, rounded up)',
    };
  }

  private waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
    return waitFor(what, done, { store: 'cassandra', intervalMs: 250 });
  }
}
