/**
 * YCSB's operations on MongoDB, with the semantics of YCSB's own MongoDB binding (the layout and
 * each operation are described in index.ts).
 */
import { MongoNetworkError, MongoServerError, type Collection, type Document } from 'mongodb';
import type { BatchInserter, FieldMap, KeyedRecord, Store, YcsbSchema } from '../store.ts';
import type { MongodbHandle } from './handle.ts';

/** A YCSB record as stored: the key as `_id`, every field a string. */
export interface YcsbDocument {
  _id: string;
  [field: string]: string;
}

type YcsbOperations = Pick<Store, 'prepare' | 'drop' | 'read' | 'scan' | 'update' | 'insert' | 'delete'> &
  BatchInserter;

export class YcsbCollections implements YcsbOperations {
  /** The table last prepared or used, whose collection stats() describes. */
  lastTable: string | undefined;

  constructor(private readonly handle: MongodbHandle) {}

  async prepare(schema: YcsbSchema): Promise<void> {
    this.lastTable = schema.table;
    await this.handle.createCollection(schema.table);
  }

  async drop(schema: YcsbSchema): Promise<void> {
    await this.handle.dropCollection(schema.table);
  }

  /**
   * The `find` command findOne sends (`{_id}`, limit 1, single batch), run as a command: the
   * same request and the same record, for less client CPU than findOne, which builds and closes
   * a cursor around the one document (bench/mongodb-read-calls.ts; the figures are in
   * docs/harness-benchmarks.md). What findOne takes from the collection is given here: the read
   * preference and read concern of the URL and settings, and one retry of an error the driver
   * retries (retryReads, on unless the URL turns it off).
   */
  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const collection = this.records(table);
    const command: Document = { find: table, filter: { _id: key }, limit: 1, singleBatch: true };
    const p = projection(fields);
    if (p) command.projection = p;
    const level = collection.readConcern?.level;
    if (level) command.readConcern = { level };
    const options = { readPreference: collection.readPreference };
    let reply: Document;
    try {
      reply = await this.handle.db.command(command, options);
    } catch (error) {
      if (!(this.handle.client.options.retryReads && retryableRead(error))) throw error;
      reply = await this.handle.db.command(command, options);
    }
    const doc = (reply.cursor as { firstBatch: YcsbDocument[] }).firstBatch[0];
    return doc === undefined ? null : fieldsOf(doc);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (count <= 0) return [];
    const p = projection(fields);
    const docs = await this.records(table)
      .find({ _id: { $gte: startKey } }, p ? { projection: p } : {})
      .sort({ _id: 1 })
      .limit(count)
      .toArray(); // drains the cursor (and closes it on the server)
    return docs.map((doc) => ({ key: doc._id, fields: fieldsOf(doc) }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const result = await this.records(table).updateOne({ _id: key }, { $set: values });
    return !result.acknowledged || result.matchedCount > 0;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.records(table).insertOne({ ...values, _id: key });
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.records(table).insertMany(
      records.map((r) => ({ ...r.fields, _id: r.key })),
      { ordered: false },
    );
  }

  async delete(table: string, key: string): Promise<boolean> {
    const result = await this.records(table).deleteOne({ _id: key });
    return !result.acknowledged || result.deletedCount > 0;
  }

  private records(table: string): Collection<YcsbDocument> {
    this.lastTable = table;
    return this.handle.collection<YcsbDocument>(table);
  }
}

/**
 * The errors after which the driver retries a read once (the retryable reads specification):
 * a network error, or a server that is shutting down, stepping down or not (yet) able to serve.
 */
const RETRYABLE_READ_CODES = new Set([
  6 /* HostUnreachable */, 7 /* HostNotFound */, 89 /* NetworkTimeout */, 91 /* ShutdownInProgress */,
  134 /* ReadConcernMajorityNotAvailableYet */, 189 /* PrimarySteppedDown */, 262 /* ExceededTimeLimit */,
  9001 /* SocketException */, 10107 /* NotWritablePrimary */, 11600 /* InterruptedAtShutdown */,
  11602 /* InterruptedDueToReplStateChange */, 13435 /* NotPrimaryNoSecondaryOk */, 13436 /* NotPrimaryOrSecondary */,
]);

function retryableRead(error: unknown): boolean {
  if (error instanceof MongoNetworkError) return true;
  return error instanceof MongoServerError && typeof error.code === 'number' && RETRYABLE_READ_CODES.has(error.code);
}

/** `{field: 1, …}`, or undefined for all fields. */
function projection(fields: readonly string[] | null): Document | undefined {
  if (fields === null) return undefined;
  // No field asked for is the key alone (an empty projection would return every field).
  if (fields.length === 0) return { _id: 1 };
  const p: Document = {};
  for (const f of fields) p[f] = 1;
  return p;
}

/** A stored document's fields without `_id`. */
function fieldsOf(doc: YcsbDocument): FieldMap {
  const { _id, ...fields } = doc;
  return fields;
}
