/**
 * YCSB's operations on MongoDB, with the semantics of YCSB's own MongoDB binding (the layout and
 * each operation are described in index.ts).
 */
import type { Collection, Document } from 'mongodb';
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

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const p = projection(fields);
    const doc = await this.records(table).findOne({ _id: key }, p ? { projection: p } : undefined);
    return doc === null ? null : fieldsOf(doc);
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
