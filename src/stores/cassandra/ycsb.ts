/**
 * YCSB's operations on the bucketed table described in index.ts: every statement prepared (the
 * driver caches prepared statements by CQL text, so the text is built once per table, operation
 * and field set), reads and scans at the read consistency, writes at the write consistency.
 */
import type cassandra from 'cassandra-driver';
import type { FieldMap, KeyedRecord, YcsbSchema } from '../store.ts';
import { cqlIdentifier, type CassandraHandle } from './handle.ts';
import type { CassandraConfig } from './settings.ts';

export class YcsbTables {
  /** Buckets this process has already registered, per table (saves a write per insert). */
  private readonly knownBuckets = new Map<string, Set<string>>();
  /** CQL text per (table, operation, field set). */
  private readonly statements = new Map<string, string>();
  private readonly client: cassandra.Client;
  private readonly reads: cassandra.QueryOptions;
  private readonly writes: cassandra.QueryOptions;

  constructor(
    private readonly handle: CassandraHandle,
    private readonly config: Pick<CassandraConfig, 'readConsistency' | 'writeConsistency' | 'scanBucketLength'>,
  ) {
    this.client = handle.client;
    this.reads = { prepare: true, consistency: config.readConsistency };
    this.writes = { prepare: true, consistency: config.writeConsistency };
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    await this.handle.ensureKeyspace();
    const columns = schema.fieldNames.map((f) => `${cqlIdentifier(f)} text`).join(', ');
    await this.client.execute(
      `CREATE TABLE IF NOT EXISTS ${this.handle.table(schema.table)} (bucket text, y_id text, ${columns}${columns ? ', ' : ''}PRIMARY KEY ((bucket), y_id))`,
    );
    await this.client.execute(
      `CREATE TABLE IF NOT EXISTS ${this.bucketsTable(schema.table)} (id int, bucket text, PRIMARY KEY ((id), bucket))`,
    );
  }

  async drop(schema: YcsbSchema): Promise<void> {
    await this.handle.ensureKeyspace();
    await this.client.execute(`DROP TABLE IF EXISTS ${this.handle.table(schema.table)}`);
    await this.client.execute(`DROP TABLE IF EXISTS ${this.bucketsTable(schema.table)}`);
    this.knownBuckets.delete(schema.table);
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const cql = this.statement(
      `read ${table} ${fields?.join(',') ?? '*'}`,
      () => `SELECT ${columns(fields)} FROM ${this.handle.table(table)} WHERE bucket = ? AND y_id = ?`,
    );
    const row = (await this.client.execute(cql, [this.bucketOf(key), key], this.reads)).first();
    return row ? rowFields(row) : null;
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    // No field asked for (scankeysonly): the key column alone.
    const cols = fields === null ? '*' : fields.length === 0 ? 'y_id' : `y_id, ${columns(fields)}`;
    const startBucket = this.bucketOf(startKey);
    const buckets = await this.client.execute(
      this.statement(
        `buckets ${table}`,
        () => `SELECT bucket FROM ${this.bucketsTable(table)} WHERE id = 0 AND bucket >= ?`,
      ),
      [startBucket],
      this.reads,
    );
    const first = this.statement(
      `scan-first ${table} ${fields?.join(',') ?? '*'}`,
      () => `SELECT ${cols} FROM ${this.handle.table(table)} WHERE bucket = ? AND y_id >= ? LIMIT ?`,
    );
    const next = this.statement(
      `scan-next ${table} ${fields?.join(',') ?? '*'}`,
      () => `SELECT ${cols} FROM ${this.handle.table(table)} WHERE bucket = ? LIMIT ?`,
    );
    const records: KeyedRecord[] = [];
    for (const row of buckets.rows) {
      const bucket = row.get('bucket') as string;
      const remaining = count - records.length;
      const result =
        bucket === startBucket
          ? await this.client.execute(first, [bucket, startKey, remaining], this.reads)
          : await this.client.execute(next, [bucket, remaining], this.reads);
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

  /** An upsert, as in YCSB's binding: it cannot tell a missing row, so it always answers true. */
  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const names = Object.keys(values);
    const cql = this.statement(
      `update ${table} ${names.join(',')}`,
      () =>
        `UPDATE ${this.handle.table(table)} SET ${names.map((n) => `${cqlIdentifier(n)} = ?`).join(', ')} WHERE bucket = ? AND y_id = ?`,
    );
    const params: string[] = names.map((n) => values[n]!);
    params.push(this.bucketOf(key), key);
    await this.client.execute(cql, params, this.writes);
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.registerBucket(table, this.bucketOf(key));
    const names = Object.keys(values);
    await this.client.execute(this.insertStatement(table, names), this.insertParams(key, names, values), this.writes);
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
    await Promise.all(
      records.map((r) => this.client.execute(cql, this.insertParams(r.key, names, r.fields), this.writes)),
    );
  }

  /** A delete cannot tell whether the row was there (YCSB's binding answers OK too). */
  async delete(table: string, key: string): Promise<boolean> {
    const cql = this.statement(
      `delete ${table}`,
      () => `DELETE FROM ${this.handle.table(table)} WHERE bucket = ? AND y_id = ?`,
    );
    await this.client.execute(cql, [this.bucketOf(key), key], this.writes);
    return true;
  }

  private bucketsTable(name: string): string {
    return this.handle.table(`${name}_buckets`);
  }

  private bucketOf(key: string): string {
    return key.length > this.config.scanBucketLength ? key.slice(0, this.config.scanBucketLength) : key;
  }

  private statement(cacheKey: string, build: () => string): string {
    let cql = this.statements.get(cacheKey);
    if (cql === undefined) {
      cql = build();
      this.statements.set(cacheKey, cql);
    }
    return cql;
  }

  private insertStatement(table: string, names: readonly string[]): string {
    return this.statement(
      `insert ${table} ${names.join(',')}`,
      () =>
        `INSERT INTO ${this.handle.table(table)} (bucket, y_id${names.map((n) => `, ${cqlIdentifier(n)}`).join('')}) VALUES (?, ?${', ?'.repeat(names.length)})`,
    );
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
    await this.client.execute(
      this.statement(`bucket ${table}`, () => `INSERT INTO ${this.bucketsTable(table)} (id, bucket) VALUES (0, ?)`),
      [bucket],
      this.writes,
    );
    known.add(bucket);
  }
}

function columns(fields: readonly string[] | null): string {
  return fields === null ? '*' : fields.map(cqlIdentifier).join(', ');
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
