/**
 * The YCSB operations on CouchDB's document API (the semantics are in index.ts's header): one
 * document per record, every write carrying the revision it read, a conflict an error.
 */
import type nano from 'nano';
import type { FieldMap, KeyedRecord, YcsbSchema } from '../store.ts';
import { statusOf } from './connection.ts';
import { isMissingDocument, type CouchdbHandle } from './handle.ts';

/** A CouchDB document as the YCSB operations see it: `_id`, `_rev` and string fields. */
type CouchDoc = Record<string, string> & { _id?: string; _rev?: string };

/** All fields of a document: every property except CouchDB's own (`_id`, `_rev`, …). */
function allFields(doc: CouchDoc): FieldMap {
  const out: FieldMap = {};
  for (const name in doc) if (name.charCodeAt(0) !== 95 /* '_' */) out[name] = doc[name]!;
  return out;
}

function someFields(doc: CouchDoc, fields: readonly string[]): FieldMap {
  const out: FieldMap = {};
  for (const name of fields) {
    const value = doc[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const pickFields = (doc: CouchDoc, fields: readonly string[] | null): FieldMap =>
  fields ? someFields(doc, fields) : allFields(doc);

export class CouchdbYcsb {
  private readonly databases = new Map<string, nano.DocumentScope<CouchDoc>>();

  constructor(private readonly handle: CouchdbHandle) {}

  async prepare(schema: YcsbSchema): Promise<void> {
    await this.handle.createDatabase(this.handle.databaseName(schema.table));
  }

  async drop(schema: YcsbSchema): Promise<void> {
    await this.handle.destroyDatabase(this.handle.databaseName(schema.table));
  }

  /** GET /{db}/{id}; a missing or deleted document -> null; the wanted fields are picked client-side. */
  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const doc = await this.handle.getOrNull(this.db(table), key);
    return doc === null ? null : pickFields(doc, fields);
  }

  /** GET /{db}/_all_docs?startkey=…&limit=…&include_docs=true: ids in raw (UTF-8 byte) order. */
  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (count <= 0) return [];
    // No field asked for (scankeysonly): `_all_docs` without the documents, ids only.
    const keysOnly = fields !== null && fields.length === 0;
    const result = await this.db(table).list({ startkey: startKey, limit: count, include_docs: !keysOnly });
    if (keysOnly) return result.rows.map((row) => ({ key: row.id, fields: {} }));
    const records: KeyedRecord[] = [];
    for (const row of result.rows) if (row.doc) records.push({ key: row.id, fields: pickFields(row.doc, fields) });
    return records;
  }

  /** GET for `_rev` and the other fields, then PUT of the merged document; a 409 is an error, never retried. */
  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const db = this.db(table);
    const doc = await this.handle.getOrNull(db, key);
    if (doc === null) return false;
    Object.assign(doc, values); // keeps _id and the _rev just read
    try {
      await db.insert(doc, key);
    } catch (error) {
      if (statusOf(error) === 409) {
        throw new Error(
          `update of "${key}" conflicted with a concurrent write (409: the revision read is no longer current)`,
          { cause: error },
        );
      }
      throw error;
    }
    return true;
  }

  /** PUT /{db}/{id} without `_rev`: an existing id is a 409 error. */
  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.db(table).insert(values as CouchDoc, key);
  }

  /** POST /{db}/_bulk_docs, every per-document result checked. */
  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    await this.handle.bulkDocs(
      this.db(table),
      records.map((r) => ({ ...r.fields, _id: r.key })),
    );
  }

  /** GET for `_rev`, then DELETE ?rev=; a missing or deleted document -> false. */
  async delete(table: string, key: string): Promise<boolean> {
    const db = this.db(table);
    const doc = await this.handle.getOrNull(db, key);
    if (doc === null) return false;
    try {
      await db.destroy(key, doc._rev);
    } catch (error) {
      if (isMissingDocument(error)) return false;
      throw error;
    }
    return true;
  }

  private db(table: string): nano.DocumentScope<CouchDoc> {
    let db = this.databases.get(table);
    if (db === undefined) {
      db = this.handle.database<CouchDoc>(table);
      this.databases.set(table, db);
    }
    return db;
  }
}
