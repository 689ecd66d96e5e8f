/**
 * A scenario file on Apache Cassandra 5 (cassandra-driver): query-first modelling, one table per
 * query that the writer maintains, as Cassandra asks (key-shape.ts says which queries have one).
 *
 *   documents    `<scenario>_<collection>` (id text PRIMARY KEY, doc text): the document as JSON,
 *                read by id (reads, read-backs, joins: SELECT … WHERE id IN ?)
 *   query table  `<scenario>_q_<query>`: partition key the query's equality parameters (a
 *                constant `bucket` when it has none), clustering columns the sort keys (or the
 *                range's field) then `id`, WITH CLUSTERING ORDER BY the query's directions, so a
 *                partition is read in the answer's order; a document is written to each partition
 *                it belongs to (every element of an array field), when it meets the constant
 *                conditions. find: SELECT doc … WHERE partition = ? [AND range] LIMIT skip+limit
 *                (CQL has no OFFSET: the first `skip` rows are passed over, as paging would);
 *                count: SELECT COUNT(*); group: clustering `g` (the group value) then id, a column
 *                `s` to sum: SELECT g, COUNT(*), SUM(s) … GROUP BY g
 *   writes       the document and its query-table rows in one logged BATCH (old rows deleted first)
 *   seed         executeConcurrent of the same statements
 *   plans        each SELECT once more with query tracing
 *
 * The file's `indexes` are not used: a query table is the index Cassandra's modelling prescribes
 * (storage-attached indexes serve filters but no order across partitions, and a variant on them,
 * or ALLOW FILTERING, would have to say so: neither is run here). Queries without a query table
 * are UNSUPPORTED with the reason.
 */
import cassandra from 'cassandra-driver';
import type { CassandraHandle } from '../../../src/stores/cassandra/handle.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
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
import type { FieldInfo, ScalarType } from '../fields.ts';
import type { Doc, Scalar, Value } from '../generator.ts';
import type { Collection, Query, Scenario } from '../model.ts';
import { project } from '../oracle.ts';
import { boundsOf, partitionOf, partitionsOf, shapeOf, type Shape } from './key-shape.ts';

export const dialect: FileDialectDefinition<'cassandra'> = {
  store: 'cassandra',
  create: (handle, context) => new CassandraFile(handle, context),
};

type Params = Readonly<Record<string, Value>>;
/** A statement; `row` names the query-table row it writes or deletes (table and key). */
type Statement = { query: string; params: unknown[]; row?: string };
const CQL_TYPES: Record<ScalarType, string> = {
  string: 'text',
  ref: 'text',
  int: 'bigint',
  decimal: 'double',
  date: 'timestamp',
  bool: 'boolean',
};
const typeOf = (info: FieldInfo): ScalarType => (info.kind === 'scalar' ? info.type : 'string');
/** A value as its column takes it (dates as Date). */
const toCql = (value: Value | undefined, type: ScalarType): unknown =>
  value === undefined ? null : type === 'date' ? new Date(String(value)) : value;
/** A column's value as the document holds it. */
const fromCql = (value: unknown): Value =>
  value instanceof Date
    ? value.toISOString()
    : cassandra.types.Long.isLong(value)
      ? (value as cassandra.types.Long).toNumber()
      : (value as Value);

interface Table {
  name: string;
  shape: Shape;
  /** Partition columns (`bucket` when the query has no equality parameter). */
  partition: { column: string; path?: string; type: ScalarType }[];
  clustering: { column: string; path: string; type: ScalarType; descending: boolean }[];
}

class CassandraFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  private readonly prefix: string;
  private readonly tables = new Map<string, Table>();

  constructor(
    private readonly handle: CassandraHandle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.prefix = prefixOf(this.scenario);
    this.translations = new Map([...this.scenario.queries.values()].map((q) => [q.name, this.translate(q)]));
    this.structures = `Cassandra: a table per collection (id, doc as JSON); query tables ${[...this.tables.values()].map((t) => t.name).join(', ') || 'none'} (the file's indexes are not used: no storage-attached-index variant runs)`;
  }

  private translate(q: Query): Translation {
    const shape = shapeOf(q, 'Cassandra');
    if ('refused' in shape) return refuses(shape.refused);
    const name = `${this.prefix}_q_${q.name.replace(/-/g, '_')}`.slice(0, 48);
    const partition =
      shape.partition.length > 0
        ? shape.partition.map((p, i) => ({ column: `p${i}`, path: p.path.path, type: typeOf(p.path.leaf) }))
        : [{ column: 'bucket', type: 'int' as ScalarType }];
    const clustering =
      q.kind === 'group'
        ? [
            { column: 'g', path: q.by.path, type: typeOf(q.by.leaf), descending: false },
            { column: 'id', path: '_id', type: 'string' as ScalarType, descending: false },
          ]
        : (shape.order.length > 0
            ? shape.order
            : [
                {
                  path: '_id',
                  descending: false,
                  resolved: { leaf: { kind: 'scalar', type: 'string', required: true } },
                },
              ]
          ).map((k, i) => ({
            column: k.path === '_id' ? 'id' : `c${i}`,
            path: k.path,
            type: typeOf(k.resolved.leaf as FieldInfo),
            descending: k.descending,
          }));
    this.tables.set(q.name, { name, shape, partition, clustering });
    const where = partition.map((p) => `${p.column} = ?`).join(' AND ');
    if (q.kind === 'group')
      return runs(`SELECT g, COUNT(*), SUM(s) FROM ${name} WHERE ${where} GROUP BY g (a query table the writer keeps)`);
    if (q.kind === 'count')
      return runs(
        `SELECT COUNT(*) FROM ${name} WHERE ${where}${shape.range ? ' AND a range on c0' : ''} (a query table the writer keeps)`,
      );
    return runs(
      `SELECT doc FROM ${name} WHERE ${where}${shape.range ? ' AND a range on c0' : ''}${q.limit !== undefined ? ` LIMIT ${q.skip + q.limit}` : ''} (a query table the writer keeps, clustered in the answer's order)${q.join ? `, then ${this.scenario.collections.get(q.join.from)!.storeName} WHERE id IN ?` : ''}`,
    );
  }

  async drop(): Promise<void> {
    for (const c of this.scenario.collections.values())
      await this.handle.client.execute(`DROP TABLE IF EXISTS ${this.handle.table(c.storeName)}`);
    for (const t of this.tables.values())
      await this.handle.client.execute(`DROP TABLE IF EXISTS ${this.handle.table(t.name)}`);
    await this.handle.client.execute(`DROP TABLE IF EXISTS ${this.handle.table(`${this.prefix}__manifest`)}`);
  }

  async prepare(): Promise<void> {
    await this.handle.ensureKeyspace();
    const ddl = (name: string, columns: string) =>
      this.handle.client.execute(`CREATE TABLE IF NOT EXISTS ${this.handle.table(name)} (${columns})`);
    for (const c of this.scenario.collections.values()) await ddl(c.storeName, 'id text PRIMARY KEY, doc text');
    await ddl(`${this.prefix}__manifest`, 'id text PRIMARY KEY, doc text');
    for (const [queryName, t] of this.tables) {
      const q = this.scenario.queries.get(queryName)!;
      const columns = [
        ...t.partition.map((p) => `${p.column} ${CQL_TYPES[p.type]}`),
        ...t.clustering.filter((c) => c.column !== 'id').map((c) => `${c.column} ${CQL_TYPES[c.type]}`),
        'id text',
      ];
      if (q.kind === 'group') columns.push(`s ${q.sum ? CQL_TYPES[typeOf(q.sum.leaf)] : 'bigint'}`);
      else columns.push('doc text');
      const key = `PRIMARY KEY ((${t.partition.map((p) => p.column).join(', ')}), ${t.clustering.map((c) => c.column).join(', ')})`;
      const order = t.clustering.map((c) => `${c.column} ${c.descending ? 'DESC' : 'ASC'}`).join(', ');
      await this.handle.client.execute(
        `CREATE TABLE IF NOT EXISTS ${this.handle.table(t.name)} (${columns.join(', ')}, ${key}) WITH CLUSTERING ORDER BY (${order})`,
      );
    }
  }

  /** The statements that write (or, `remove`, delete) a document and its query-table rows. */
  private statements(collection: Collection, doc: Doc, remove: boolean): Statement[] {
    const out: Statement[] = [];
    const id = String(doc._id);
    out.push(
      remove
        ? { query: `DELETE FROM ${this.handle.table(collection.storeName)} WHERE id = ?`, params: [id] }
        : {
            query: `INSERT INTO ${this.handle.table(collection.storeName)} (id, doc) VALUES (?, ?)`,
            params: [id, JSON.stringify(doc)],
          },
    );
    for (const [queryName, t] of this.tables) {
      const q = this.scenario.queries.get(queryName)!;
      if (q.collection !== collection.name) continue;
      for (const partition of partitionsOf(t.shape, doc)) {
        const keyValues = [
          ...(t.partition[0]!.column === 'bucket' ? [0] : partition.map((v, i) => toCql(v, t.partition[i]!.type))),
          ...t.clustering.map((c) => toCql(c.path === '_id' ? id : valueAt(doc, c.path), c.type)),
        ];
        const keyColumns = [...t.partition.map((p) => p.column), ...t.clustering.map((c) => c.column)];
        if (remove) {
          out.push({
            query: `DELETE FROM ${this.handle.table(t.name)} WHERE ${keyColumns.map((c) => `${c} = ?`).join(' AND ')}`,
            params: keyValues,
            row: `${t.name} ${JSON.stringify(keyValues)}`,
          });
        } else {
          const extra =
            q.kind === 'group'
              ? ['s', q.sum ? toCql(valueAt(doc, q.sum.path), typeOf(q.sum.leaf)) : 0]
              : ['doc', JSON.stringify(doc)];
          out.push({
            query: `INSERT INTO ${this.handle.table(t.name)} (${[...keyColumns, extra[0]].join(', ')}) VALUES (${[...keyColumns, extra[0]].map(() => '?').join(', ')})`,
            params: [...keyValues, extra[1]],
            row: `${t.name} ${JSON.stringify(keyValues)}`,
          });
        }
      }
    }
    return out;
  }

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    const statements = docs.flatMap((d) => this.statements(collection, d, false));
    await cassandra.concurrent.executeConcurrent(this.handle.client, statements, {
      concurrencyLevel: 64,
      raiseOnFirstError: true,
    });
  }

  async buildIndexes(): Promise<string> {
    return `none to build: the writer keeps ${this.tables.size} query tables as it writes`;
  }

  private table(q: Query): Table {
    const t = this.translations.get(q.name)!;
    if (!t.supported) throw new UnsupportedError(q.name, t.reason);
    return this.tables.get(q.name)!;
  }

  /** The SELECT of a query with its parameters bound. */
  private select(q: Query, params: Params): Statement {
    const t = this.table(q);
    const values: unknown[] =
      t.partition[0]!.column === 'bucket'
        ? [0]
        : partitionOf(t.shape, params).map((v, i) => toCql(v as Scalar, t.partition[i]!.type));
    const where = t.partition.map((p) => `${p.column} = ?`);
    const ops: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
    for (const b of boundsOf(t.shape, params)) {
      where.push(`${t.clustering[0]!.column} ${ops[b.op]} ?`);
      values.push(toCql(b.value, t.clustering[0]!.type));
    }
    const from = `FROM ${this.handle.table(t.name)} WHERE ${where.join(' AND ')}`;
    if (q.kind === 'group')
      return { query: `SELECT g, COUNT(*) AS count, SUM(s) AS sum ${from} GROUP BY g`, params: values };
    if (q.kind === 'count') return { query: `SELECT COUNT(*) AS count ${from}`, params: values };
    return { query: `SELECT doc ${from}${q.limit !== undefined ? ` LIMIT ${q.skip + q.limit}` : ''}`, params: values };
  }

  async query(q: Query, params: Params): Promise<Answer> {
    const { query, params: values } = this.select(q, params);
    const rows: cassandra.types.Row[] = [];
    for await (const row of this.handle.client.stream(query, values, {
      prepare: true,
      fetchSize: 5000,
    }) as unknown as AsyncIterable<cassandra.types.Row>)
      rows.push(row);
    if (q.kind === 'count') return { kind: 'count', count: fromCql(rows[0]?.get('count')) as number };
    if (q.kind === 'group')
      return {
        kind: 'rows',
        rows: rows.map((r) => ({
          _id: fromCql(r.get('g')),
          count: fromCql(r.get('count')),
          ...(q.sum ? { sum: fromCql(r.get('sum')) } : {}),
        })),
      };
    const docs = rows.slice(q.skip).map((r) => JSON.parse(r.get('doc') as string) as Doc);
    let out = q.project ? project(docs, q.project) : docs;
    if (q.join) {
      const join = q.join;
      const refs = docs.map((d) => valueAt(d, join.on.path));
      const ids = [...new Set(refs.filter((r): r is string => typeof r === 'string'))];
      const from = this.scenario.collections.get(join.from)!;
      const fetched =
        ids.length === 0
          ? []
          : (
              await this.handle.client.execute(
                `SELECT doc FROM ${this.handle.table(from.storeName)} WHERE id IN ?`,
                [ids],
                { prepare: true },
              )
            ).rows;
      const targets = new Map(
        fetched.map((r) => JSON.parse(r.get('doc') as string) as Doc).map((d) => [String(d._id), d]),
      );
      out = out.map((row, i) => {
        const target = targets.get(refs[i] as string);
        return target === undefined
          ? row
          : { ...row, [join.as]: join.project ? project([target], join.project)[0]! : target };
      });
    }
    return { kind: 'rows', rows: out };
  }

  async explain(q: Query, params: Params): Promise<ScenarioPlan> {
    const { query, params: values } = this.select(q, params);
    return { ...(await this.handle.trace(query, values)), indexExpected: false };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    const row = (
      await this.handle.client.execute(
        `SELECT doc FROM ${this.handle.table(collection.storeName)} WHERE id = ?`,
        [id],
        { prepare: true },
      )
    ).first();
    return row ? (JSON.parse(row.get('doc') as string) as Doc) : null;
  }

  private async batch(statements: Statement[]): Promise<void> {
    await this.handle.client.batch(
      statements.map(({ query, params }) => ({ query, params })),
      { prepare: true, logged: true },
    );
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.batch(this.statements(collection, doc, false));
  }

  async update(collection: Collection, before: Doc, after: Doc): Promise<boolean> {
    if ((await this.read(collection, String(before._id))) === null) return false;
    // The rows the document leaves are deleted, the others overwritten: a batch gives its
    // statements one timestamp, and a delete and an insert of one row at one timestamp delete it.
    const writes = this.statements(collection, after, false);
    const kept = new Set(writes.map((w) => w.row));
    await this.batch([
      ...this.statements(collection, before, true)
        .slice(1)
        .filter((d) => !kept.has(d.row)),
      ...writes,
    ]);
    return true;
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    if ((await this.read(collection, String(before._id))) === null) return false;
    await this.batch(this.statements(collection, before, true));
    return true;
  }

  async readManifest(): Promise<Manifest | null> {
    try {
      const row = (
        await this.handle.client.execute(
          `SELECT doc FROM ${this.handle.table(`${this.prefix}__manifest`)} WHERE id = ?`,
          [MANIFEST_ID],
          { prepare: true },
        )
      ).first();
      return row ? (JSON.parse(row.get('doc') as string) as Manifest) : null;
    } catch (error) {
      if (/unconfigured table|does not exist|Keyspace .* does not exist/i.test(String((error as Error).message)))
        return null;
      throw error;
    }
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.handle.client.execute(
      `INSERT INTO ${this.handle.table(`${this.prefix}__manifest`)} (id, doc) VALUES (?, ?)`,
      [MANIFEST_ID, JSON.stringify(manifest)],
      { prepare: true },
    );
  }
}
