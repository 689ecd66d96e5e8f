/**
 * The drivers of bench/bare-service.ts: YCSB's read and update straight through each store's
 * official driver, as a web developer's hand-written service would call them. Where the store
 * exposes its driver objects the app uses the client docbench opened (the pool and its settings
 * are docbench's); Redis's clients are private to docbench's connection classes, so the app opens
 * its own, as docbench configures it.
 */
import { createClient } from '@redis/client';
import cassandra from 'cassandra-driver';
import type { HandleOf, StoreName } from '../src/stores/stores.ts';
import type { NotMeasured } from './bare-readers.ts';

export type Fields = Record<string, string>;

export interface Driver {
  read(key: string): Promise<Fields | null>;
  update(key: string, fields: Fields): Promise<void>;
}

export interface BareService<K extends StoreName> {
  /** A method, so that a store's driver, written for its own handle, is one of every store's. */
  open(handle: HandleOf<K>, url: string, table: string): Promise<Driver>;
}

/** Every store of the STORES table, with the driver of its bare service or why it has none. */
export const BARE_SERVICES: { readonly [K in StoreName]: BareService<K> | NotMeasured } = {
  basic: { none: 'BasicDB has no driver for a hand-written service to call' },
  redis: {
    async open(_, url, table) {
      const client = createClient({ url, socket: { reconnectStrategy: false }, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      return {
        read: async (key) => {
          const fields = await client.hGetAll(`${table}:${key}`);
          return Object.keys(fields).length > 0 ? fields : null;
        },
        update: async (key, fields) => void (await client.hSet(`${table}:${key}`, fields)),
      };
    },
  },
  cassandra: {
    async open(handle, _, name) {
      const table = handle.table(name);
      const options = { prepare: true, consistency: cassandra.types.consistencies.one };
      // docbench's layout: partitioned by the key's first 6 characters, clustered by the key.
      return {
        read: async (key) => {
          const row = (
            await handle.client.execute(
              `SELECT * FROM ${table} WHERE bucket = ? AND y_id = ?`,
              [key.slice(0, 6), key],
              options,
            )
          ).first();
          if (row === null) return null;
          const fields: Fields = {};
          for (const column of Object.keys(row))
            if (column !== 'bucket' && column !== 'y_id') fields[column] = row[column] as string;
          return fields;
        },
        update: async (key, fields) => {
          const names = Object.keys(fields);
          await handle.client.execute(
            `UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE bucket = ? AND y_id = ?`,
            [...names.map((n) => fields[n]), key.slice(0, 6), key],
            options,
          );
        },
      };
    },
  },
  mongodb: {
    async open(handle, _, table) {
      const collection = handle.db.collection<{ _id: string }>(table);
      return {
        read: async (key) => {
          const doc = await collection.findOne({ _id: key });
          if (doc === null) return null;
          const { _id, ...fields } = doc as unknown as Fields;
          return fields;
        },
        update: async (key, fields) => void (await collection.updateOne({ _id: key }, { $set: fields })),
      };
    },
  },
  couchdb: { none: 'no bare service written for it yet' },
  couchbase: { none: 'no bare service written for it yet' },
  hbase: { none: 'no bare service written for it yet' },
  postgres: {
    async open(handle, _, name) {
      // YCSB's JSONB layout (docbench's and postgrenosql's): a key and the record as one document.
      const table = `"${name.replaceAll('"', '""')}"`;
      const read = `SELECT ycsb_value FROM ${table} WHERE ycsb_key = $1`;
      const update = `UPDATE ${table} SET ycsb_value = ycsb_value || $2::jsonb WHERE ycsb_key = $1`;
      return {
        read: async (key) =>
          (await handle.pool.query<{ ycsb_value: Fields }>({ name: 'bare_read', text: read, values: [key] })).rows[0]
            ?.ycsb_value ?? null,
        update: async (key, fields) =>
          void (await handle.pool.query({ name: 'bare_update', text: update, values: [key, JSON.stringify(fields)] })),
      };
    },
  },
  ferretdb: { none: "no bare service written for it yet (MongoDB's would serve: the same driver and store code)" },
};

/** The stores with a bare service, in the STORES table's order. */
export function storesWithBareService(names: readonly StoreName[]): StoreName[] {
  return names.filter((name) => !('none' in BARE_SERVICES[name]));
}
