/**
 * The shape every store folder's index.ts fills in: its YCSB operations live in `ycsb.ts` and the
 * Store's YCSB methods hand each call to them, so a store class only says how it connects,
 * what its handle is, how it reports its stats and how it closes.
 */
import type { BatchInserter, FieldMap, KeyedRecord, Store, StoreStats, YcsbSchema } from './store.ts';

/** The YCSB half of the Store contract, as a store folder's `ycsb.ts` implements it. */
export type YcsbOperations = Pick<Store, 'prepare' | 'drop' | 'read' | 'scan' | 'update' | 'insert' | 'delete'> &
  BatchInserter;

export abstract class YcsbStore<H> implements Store<H>, BatchInserter {
  abstract readonly name: string;
  abstract readonly handle: H;
  /** The store's YCSB operations (made in the subclass's constructor). */
  protected abstract readonly ycsb: YcsbOperations;

  abstract connect(): Promise<void>;
  abstract checkTable(schema: YcsbSchema): Promise<void>;
  abstract stats(): Promise<StoreStats>;
  abstract close(): Promise<void>;

  prepare(schema: YcsbSchema): Promise<void> {
    return this.ycsb.prepare(schema);
  }

  drop(schema: YcsbSchema): Promise<void> {
    return this.ycsb.drop(schema);
  }

  read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    return this.ycsb.read(table, key, fields);
  }

  scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    return this.ycsb.scan(table, startKey, count, fields);
  }

  update(table: string, key: string, values: FieldMap): Promise<boolean> {
    return this.ycsb.update(table, key, values);
  }

  insert(table: string, key: string, values: FieldMap): Promise<void> {
    return this.ycsb.insert(table, key, values);
  }

  insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    return this.ycsb.insertMany(table, records);
  }

  delete(table: string, key: string): Promise<boolean> {
    return this.ycsb.delete(table, key);
  }
}
