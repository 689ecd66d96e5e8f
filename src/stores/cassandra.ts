/**
 * Cassandra on the DataStax/Apache `cassandra-driver`, with the semantics of YCSB's CQL
 * binding: prepared statements for every operation, consistency ONE unless set, inserts and
 * updates are upserts (so an update of a missing row "succeeds", and a delete cannot tell
 * whether the row was there).
 *
 * Scans in key order. YCSB's binding scans with `token(y_id) >= token(?)`: Murmur3 token order,
 * which is not key order, so its "first N records from key K" are N pseudo-random records.
 * docbench keeps YCSB's meaning instead, the way a Cassandra developer designs a table for a
 * query: rows are partitioned by a key-prefix bucket and clustered by key,
 * `PRIMARY KEY ((bucket), y_id)`, bucket = the key's first `cassandra.scanbucketlength`
 * characters (default 6: YCSB's "user" + 2 digits gives ~110 partitions, each holding a
 * slice of the key space in order). Point operations address (bucket, y_id), so they stay
 * single-partition. A small `<table>_buckets` table lists the buckets in order; a scan reads
 * the buckets from the start key's on and pages through them until it has `count` rows.
 * Trade-off, stated plainly: with 10 M records a bucket holds ~100 k rows (~100 MB at 1 KB),
 * the upper end of what Cassandra recommends; raise the bucket length for larger loads.
 *
 * URL: `cassandra://[user:password@]host1[,host2…][:port]/[keyspace]?datacenter=<local dc>`.
 * Settings: cassandra.keyspace (default ycsb), cassandra.replication (CQL map, default
 * SimpleStrategy rf 1), cassandra.readconsistencylevel / writeconsistencylevel (default ONE,
 * as YCSB), cassandra.scanbucketlength (default 6).
 */
import cassandra from 'cassandra-driver';
import { packageVersion } from '../version.ts';
import {
  UnreachableError,
  type BatchInserter,
  type FieldMap,
  type KeyedRecord,
  type Store,
  type StoreFactory,
  type StoreStats,
  type YcsbSchema,
} from './store.ts';

const { consistencies } = cassandra.types;

interface CassandraUrl {
  contactPoints: string[];
  keyspace?: string;
  datacenter: string;
  username?: string;
  password?: string;
}

export function parseCassandraUrl(url: string): CassandraUrl {
  const parsed = new URL(url);
  if (parsed.protocol !== 'cassandra:') throw new Error(`expected a cassandra:// URL, got ${url}`);
  const port = parsed.port || '9042';
  // URL keeps only the first host; the rest of a host list stays in the raw authority.
  const authority = url.slice('cassandra://'.length).split(/[/?]/)[0]!.replace(/^[^@]*@/, '');
  const contactPoints = authority.split(',').map((h) => (h.includes(':') ? h : `${h}:${port}`));
  const keyspace = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || undefined;
  return {
    contactPoints,
    ...(keyspace ? { keyspace } : {}),
    datacenter: parsed.searchParams.get('datacenter') ?? 'datacenter1',
    ...(parsed.username ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) } : {}),
  };
}

function consistency(name: string | undefined, fallback: number): number {
  if (!name) return fallback;
  const key = name.replace(/_/g, '').toLowerCase();
  for (const [n, value] of Object.entries(consistencies)) if (n.toLowerCase() === key) return value as number;
  throw new Error(`unknown Cassandra consistency level "${name}"`);
}

const identifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class CassandraStore implements Store, BatchInserter {
  readonly name = 'cassandra';
  /** Transitional: scenario code uses the store itself until the handle moves to handle.ts. */
  get handle(): this {
    return this;
  }
  private readonly client: cassandra.Client;
  private readonly keyspace: string;
  private readonly replication: string;
  private readonly readConsistency: number;
  private readonly writeConsistency: number;
  private readonly bucketLength: number;
  /** Buckets this process has already registered, per table (saves a write per insert). */
  private readonly knownBuckets = new Map<string, Set<string>>();
  /** CQL text per (table, operation, field set); the driver caches the prepared statements. */
  private readonly statements = new Map<string, string>();

  constructor(
    private readonly url: string,
    settings: Record<string, string>,
  ) {
    const u = parseCassandraUrl(url);
    this.keyspace = settings['cassandra.keyspace'] ?? u.keyspace ?? 'ycsb';
    this.replication = settings['cassandra.replication'] ?? "{'class': 'SimpleStrategy', 'replication_factor': 1}";
    this.readConsistency = consistency(settings['cassandra.readconsistencylevel'], consistencies.one);
    this.writeConsistency = consistency(settings['cassandra.writeconsistencylevel'], consistencies.one);
    this.bucketLength = Number(settings['cassandra.scanbucketlength'] ?? 6);
    if (!Number.isInteger(this.bucketLength) || this.bucketLength < 1) throw new Error('cassandra.scanbucketlength must be a whole number >= 1');
    const threads = Number(settings['docbench.threadcount'] ?? 1);
    this.client = new cassandra.Client({
      contactPoints: u.contactPoints,
      localDataCenter: u.datacenter,
      ...(u.username ? { credentials: { username: u.username, password: u.password ?? '' } } : {}),
      socketOptions: { connectTimeout: 5000, readTimeout: 12000 },
      pooling: { coreConnectionsPerHost: { [cassandra.types.distance.local]: threads > 16 ? 2 : 1 } },
      queryOptions: { prepare: true },
    });
  }

  /** The connected driver client, for scenario code that runs its own CQL (query tables, SAI). */
  cqlClient(): cassandra.Client {
    return this.client;
  }

  /** The keyspace this store works in (created by prepare, settable by URL). */
  keyspaceName(): string {
    return this.keyspace;
  }

  async connect(): Promise<void> {
    try {
      await this.client.connect();
    } catch (error) {
      await this.client.shutdown().catch(() => {});
      throw new UnreachableError('cassandra', this.url, error);
    }
  }

  private table(name: string): string {
    return `${identifier(this.keyspace)}.${identifier(name)}`;
  }

  private bucketsTable(name: string): string {
    return `${identifier(this.keyspace)}.${identifier(`${name}_buckets`)}`;
  }

  private bucketOf(key: string): string {
    return key.length > this.bucketLength ? key.slice(0, this.bucketLength) : key;
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    await this.client.execute(`CREATE KEYSPACE IF NOT EXISTS ${identifier(this.keyspace)} WITH replication = ${this.replication}`);
    const columns = schema.fieldNames.map((f) => `${identifier(f)} text`).join(', ');
    await this.client.execute(
      `CREATE TABLE IF NOT EXISTS ${this.table(schema.table)} (bucket text, y_id text, ${columns}${columns ? ', ' : ''}PRIMARY KEY ((bucket), y_id))`,
    );
    await this.client.execute(`CREATE TABLE IF NOT EXISTS ${this.bucketsTable(schema.table)} (id int, bucket text, PRIMARY KEY ((id), bucket))`);
  }

  async drop(schema: YcsbSchema): Promise<void> {
    await this.client.execute(`CREATE KEYSPACE IF NOT EXISTS ${identifier(this.keyspace)} WITH replication = ${this.replication}`);
    await this.client.execute(`DROP TABLE IF EXISTS ${this.table(schema.table)}`);
    await this.client.execute(`DROP TABLE IF EXISTS ${this.bucketsTable(schema.table)}`);
    this.knownBuckets.delete(schema.table);
  }

  private statement(cacheKey: string, build: () => string): string {
    let cql = this.statements.get(cacheKey);
    if (cql === undefined) {
      cql = build();
      this.statements.set(cacheKey, cql);
    }
    return cql;
  }

  private columns(fields: readonly string[] | null): string {
    return fields === null ? '*' : fields.map(identifier).join(', ');
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const cql = this.statement(`read ${table} ${fields?.join(',') ?? '*'}`, () => `SELECT ${this.columns(fields)} FROM ${this.table(table)} WHERE bucket = ? AND y_id = ?`);
    const result = await this.client.execute(cql, [this.bucketOf(key), key], { prepare: true, consistency: this.readConsistency });
    const row = result.first();
    return row ? rowFields(row) : null;
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    const cols = fields === null ? '*' : `y_id, ${this.columns(fields)}`;
    const buckets = await this.client.execute(
      this.statement(`buckets ${table}`, () => `SELECT bucket FROM ${this.bucketsTable(table)} WHERE id = 0 AND bucket >= ?`),
      [this.bucketOf(startKey)],
      { prepare: true, consistency: this.readConsistency },
    );
    const first = this.statement(`scan-first ${table} ${fields?.join(',') ?? '*'}`, () => `SELECT ${cols} FROM ${this.table(table)} WHERE bucket = ? AND y_id >= ? LIMIT ?`);
    const next = this.statement(`scan-next ${table} ${fields?.join(',') ?? '*'}`, () => `SELECT ${cols} FROM ${this.table(table)} WHERE bucket = ? LIMIT ?`);
    const records: KeyedRecord[] = [];
    const startBucket = this.bucketOf(startKey);
    for (const row of buckets.rows) {
      const bucket = row.get('bucket') as string;
      const remaining = count - records.length;
      const result =
        bucket === startBucket
          ? await this.client.execute(first, [bucket, startKey, remaining], { prepare: true, consistency: this.readConsistency })
          : await this.client.execute(next, [bucket, remaining], { prepare: true, consistency: this.readConsistency });
      for (const r of result.rows) {
        const key = r.get('y_id') as string;
        // Keys shorter than the bucket length share no prefix bucket ordering issue, but a key
        // below the start can only sit in the start bucket, which the first query bounds.
        if (key >= startKey) records.push({ key, fields: rowFields(r) });
      }
      if (records.length >= count) break;
    }
    return records;
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const names = Object.keys(values);
    const cql = this.statement(`update ${table} ${names.join(',')}`, () => `UPDATE ${this.table(table)} SET ${names.map((n) => `${identifier(n)} = ?`).join(', ')} WHERE bucket = ? AND y_id = ?`);
    const params: string[] = names.map((n) => values[n]!);
    params.push(this.bucketOf(key), key);
    await this.client.execute(cql, params, { prepare: true, consistency: this.writeConsistency });
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.registerBucket(table, this.bucketOf(key));
    const names = Object.keys(values);
    await this.client.execute(this.insertStatement(table, names), this.insertParams(key, names, values), { prepare: true, consistency: this.writeConsistency });
  }

  /**
   * Bulk load: individual prepared inserts sent concurrently (the driver pipelines them over its
   * connection). Cassandra advises against multi-partition batches for loading, and a batch per
   * bucket would put a whole batch's rows on one replica set at once.
   */
  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const buckets = new Set(records.map((r) => this.bucketOf(r.key)));
    for (const bucket of buckets) await this.registerBucket(table, bucket);
    const names = Object.keys(records[0]!.fields);
    const cql = this.insertStatement(table, names);
    await Promise.all(records.map((r) => this.client.execute(cql, this.insertParams(r.key, names, r.fields), { prepare: true, consistency: this.writeConsistency })));
  }

  private insertStatement(table: string, names: readonly string[]): string {
    return this.statement(`insert ${table} ${names.join(',')}`, () => `INSERT INTO ${this.table(table)} (bucket, y_id${names.map((n) => `, ${identifier(n)}`).join('')}) VALUES (?, ?${', ?'.repeat(names.length)})`);
  }

  private insertParams(key: string, names: readonly string[], values: FieldMap): string[] {
    const params = [this.bucketOf(key), key];
    for (const n of names) params.push(values[n]!);
    return params;
  }

  private async registerBucket(table: string, bucket: string): Promise<void> {
    let known = this.knownBuckets.get(table);
    if (!known) this.knownBuckets.set(table, (known = new Set()));
    if (known.has(bucket)) return;
    await this.client.execute(this.statement(`bucket ${table}`, () => `INSERT INTO ${this.bucketsTable(table)} (id, bucket) VALUES (0, ?)`), [bucket], {
      prepare: true,
      consistency: this.writeConsistency,
    });
    known.add(bucket);
  }

  async delete(table: string, key: string): Promise<boolean> {
    const cql = this.statement(`delete ${table}`, () => `DELETE FROM ${this.table(table)} WHERE bucket = ? AND y_id = ?`);
    await this.client.execute(cql, [this.bucketOf(key), key], { prepare: true, consistency: this.writeConsistency });
    return true;
  }

  async stats(): Promise<StoreStats> {
    const local = (await this.client.execute('SELECT release_version, data_center FROM system.local')).first();
    const stats: StoreStats = {
      server: 'Apache Cassandra',
      serverVersion: String(local?.get('release_version') ?? 'unknown'),
      driver: `cassandra-driver ${packageVersion('cassandra-driver')}`,
      extra: {
        keyspace: this.keyspace,
        replication: this.replication,
        readConsistency: consistencyName(this.readConsistency),
        writeConsistency: consistencyName(this.writeConsistency),
        scanBucketLength: this.bucketLength,
      },
    };
    try {
      // Virtual table of Cassandra 4.1+: on-disk size per table (SSTables; memtables not yet flushed are not counted).
      const usage = await this.client.execute('SELECT mebibytes FROM system_views.disk_usage WHERE keyspace_name = ?', [this.keyspace], { prepare: true });
      let mib = 0;
      for (const row of usage.rows) mib += Number(row.get('mebibytes') ?? 0);
      stats.diskBytes = mib * 1024 * 1024;
    } catch {
      // older servers: no disk figure
    }
    return stats;
  }

  async close(): Promise<void> {
    await this.client.shutdown();
  }
}

function consistencyName(value: number): string {
  return Object.entries(consistencies).find(([, v]) => v === value)?.[0] ?? String(value);
}

/** A row's fields without the key columns and without columns that were never written. */
function rowFields(row: cassandra.types.Row): FieldMap {
  const fields: FieldMap = {};
  for (const column of row.keys()) {
    if (column === 'bucket' || column === 'y_id') continue;
    const value = row.get(column) as string | null;
    if (value !== null && value !== undefined) fields[column] = value;
  }
  return fields;
}

export const createCassandraStore: StoreFactory<Store> = (options) => new CassandraStore(options.url, options.settings);
