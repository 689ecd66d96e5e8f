/**
 * The YCSB operations on Couchbase, as index.ts's header describes them: KV for records, SQL++
 * for scans, the primary index and drop. What prepare() and drop() could not do is noted for
 * stats() instead of failing the run.
 */
import {
  CasMismatchError,
  DocumentNotFoundError,
  DurabilityLevel,
  MutateInSpec,
  QueryScanConsistency,
  type Collection,
} from 'couchbase';
import { UnsupportedError, type BatchInserter, type FieldMap, type KeyedRecord, type YcsbSchema } from '../store.ts';
import { isNoQueryService, reasonOf } from './connection.ts';
import { identifier, type CouchbaseHandle } from './handle.ts';
import type { CouchbaseConfig } from './settings.ts';

/** Couchbase Server refuses a subdocument request with more than 16 paths. */
const MAX_SUBDOC_PATHS = 16;
/** Attempts of the get/merge/replace loop before a CAS conflict is reported as an error. */
const MAX_CAS_ATTEMPTS = 10;

/** What prepare()/drop() could not do, by step, for stats().extra. */
export type SkippedSteps = Map<string, string>;

/**
 * The scan statement (Altoros 2022, table 4.2.2), with `$1` = start key and `$2` = count. All fields:
 * the whole document as `doc` (so a field called `id` cannot clash with the key); chosen fields:
 * one column each.
 */
export function scanStatement(keyspace: string, fields: readonly string[] | null): string {
  const projection = fields === null ? ', d AS doc' : fields.map((f) => `, d.${identifier(f)}`).join('');
  // No field asked for (scankeysonly): the keys alone, Altoros 2022's `SELECT meta().id …`.
  return `SELECT meta().id AS id${projection} FROM ${keyspace} AS d WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2`;
}

/** A subdocument path naming one top-level field (backticks when the name is not a plain identifier). */
function subdocPath(field: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? field : `\`${field.replace(/`/g, '``')}\``;
}

/** Every YCSB table lives in the configured collection (see index.ts), so `table` picks nothing. */
export class CouchbaseYcsb implements BatchInserter {
  constructor(
    private readonly config: CouchbaseConfig,
    private readonly handle: CouchbaseHandle,
    private readonly skipped: SkippedSteps,
  ) {}

  async prepare(_schema: YcsbSchema): Promise<void> {
    if (!this.config.query) return void this.skipped.set('primaryIndex', 'not created (couchbase.query=false)');
    const keyspace = this.handle.keyspace();
    if (!this.config.management) {
      return void this.skipped.set(
        'primaryIndex',
        `not created (couchbase.management=false): scans and drop need a primary index on ${keyspace}, create it yourself`,
      );
    }
    try {
      await this.handle.cluster().query(`CREATE PRIMARY INDEX IF NOT EXISTS ON ${keyspace}`);
      this.skipped.delete('primaryIndex');
    } catch (error) {
      if (!isNoQueryService(error)) throw error;
      this.skipped.set('primaryIndex', `not created: the cluster has no query service (${reasonOf(error)})`);
    }
  }

  async drop(schema: YcsbSchema): Promise<void> {
    if (!this.config.query)
      return void this.skipped.set('drop', 'documents not deleted (couchbase.query=false: no SQL++ to delete with)');
    // DELETE runs over the primary index; prepare() creates it, and drop() may come first.
    if (this.config.management) await this.prepare(schema);
    try {
      await this.handle
        .cluster()
        .query(`DELETE FROM ${this.handle.keyspace()}`, { scanConsistency: QueryScanConsistency.RequestPlus });
      this.skipped.delete('drop');
    } catch (error) {
      if (!isNoQueryService(error)) throw error;
      this.skipped.set('drop', `documents not deleted: the cluster has no query service (${reasonOf(error)})`);
    }
  }

  async read(_table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    try {
      const result = await this.handle.collection().get(key);
      return toFieldMap(result.content as Record<string, unknown>, fields);
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return null;
      throw error;
    }
  }

  async scan(
    _table: string,
    startKey: string,
    count: number,
    fields: readonly string[] | null,
  ): Promise<KeyedRecord[]> {
    if (!this.config.query)
      throw new UnsupportedError(
        'SCAN',
        'SQL++ is switched off (couchbase.query=false), and Couchbase scans in key order need it',
      );
    if (count <= 0) return [];
    let rows: Array<Record<string, unknown>>;
    try {
      const result = await this.handle
        .cluster()
        .query<Record<string, unknown>>(scanStatement(this.handle.keyspace(), fields), {
          parameters: [startKey, count],
          adhoc: false,
          readOnly: true,
        });
      rows = result.rows;
    } catch (error) {
      if (isNoQueryService(error))
        throw new UnsupportedError('SCAN', `the cluster has no query service (SQL++): ${reasonOf(error)}`);
      throw error;
    }
    return rows.map((row) => ({
      key: String(row.id),
      fields: fields === null ? toFieldMap(row.doc as Record<string, unknown>, null) : toFieldMap(row, fields),
    }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const names = Object.keys(values);
    const collection = this.handle.collection();
    try {
      if (names.length === 0) return (await this.read(table, key, [])) !== null;
      if (names.length <= MAX_SUBDOC_PATHS) {
        await collection.mutateIn(
          key,
          names.map((n) => MutateInSpec.upsert(subdocPath(n), values[n])),
          this.durable(),
        );
        return true;
      }
      return await this.mergeWithCas(collection, key, values);
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      throw error;
    }
  }

  /** get -> merge -> replace(cas), again on a CAS mismatch (another writer came in between). */
  private async mergeWithCas(collection: Collection, key: string, values: FieldMap): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const current = await collection.get(key);
      try {
        await collection.replace(
          key,
          { ...(current.content as object), ...values },
          { ...this.durable(), cas: current.cas },
        );
        return true;
      } catch (error) {
        if (!(error instanceof CasMismatchError) || attempt >= MAX_CAS_ATTEMPTS) throw error;
      }
    }
  }

  async insert(_table: string, key: string, values: FieldMap): Promise<void> {
    await this.handle.write({ collection: this.handle.collection(), key, value: values }, this.durable());
  }

  async insertMany(_table: string, records: readonly KeyedRecord[]): Promise<void> {
    const collection = this.handle.collection();
    await this.handle.writeAll(
      records.map((r) => ({ collection, key: r.key, value: r.fields })),
      this.durable(),
    );
  }

  async delete(_table: string, key: string): Promise<boolean> {
    try {
      await this.handle.collection().remove(key, this.durable());
      return true;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      throw error;
    }
  }

  private durable(): { durabilityLevel?: DurabilityLevel } {
    return this.config.durability === DurabilityLevel.None ? {} : { durabilityLevel: this.config.durability };
  }
}

/** A document's fields as strings (YCSB's values are strings; anything else is shown as JSON). */
function toFieldMap(doc: Record<string, unknown> | null | undefined, fields: readonly string[] | null): FieldMap {
  if (!doc || typeof doc !== 'object') return {};
  // A whole record of strings (every YCSB record) is the decoded document as it is: the SDK
  // parses a new object for each read, so it is the caller's, and copying it cost more here than
  // anything else docbench does on this path (the SDK makes any work between a reply and the
  // next request cost several times its own CPU; see bench/harness-overhead.ts).
  if (fields === null && allStrings(doc)) return doc as FieldMap;
  const out: FieldMap = {};
  const names = fields ?? Object.keys(doc);
  for (const name of names) {
    const value = doc[name];
    if (value === undefined) continue;
    out[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

function allStrings(doc: Record<string, unknown>): boolean {
  for (const name in doc) if (typeof doc[name] !== 'string') return false;
  return true;
}
