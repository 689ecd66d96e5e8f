/**
 * The yardstick of bench/harness-overhead.ts: each store's read of one whole record straight
 * through its official driver, with no docbench code on the path (no key generation, timing,
 * histogram or status counting). Where the store exposes its driver objects (Cassandra, MongoDB,
 * CouchDB, Couchbase, PostgreSQL, and HBase's REST client) the loop uses the very client docbench opened, so
 * the pool and its settings are the same; Redis's clients are private to its connection classes,
 * so the loop opens its own, with the same options.
 *
 * BARE_READERS, at the end, has a row for every store of the STORES table: its loops and the
 * length of its passes, or why the bench does not measure it.
 */
import { createClient } from '@redis/client';
import cassandra from 'cassandra-driver';
import { DocumentNotFoundError } from 'couchbase';
import { Redis } from 'ioredis';
import type { CassandraHandle } from '../src/stores/cassandra/handle.ts';
import type { CouchbaseHandle } from '../src/stores/couchbase/handle.ts';
import type { CouchdbHandle } from '../src/stores/couchdb/handle.ts';
import type { HbaseHandle } from '../src/stores/hbase/handle.ts';
import type { MongodbHandle } from '../src/stores/mongodb/handle.ts';
import type { PostgresHandle } from '../src/stores/postgres/handle.ts';
import type { Store } from '../src/stores/store.ts';
import type { HandleOf, StoreName } from '../src/stores/stores.ts';

/** Reads one record; resolves true when it was there. */
export type BareRead = (key: string) => Promise<boolean>;

export interface BareReader {
  /** What the loop calls, in the driver's words. */
  call: string;
  read: BareRead;
  close(): Promise<void>;
}

/**
 * `redis.driver` -> a fresh client of that driver, as docbench's connection classes configure it,
 * reading a record with the driver's own whole-record call (ioredis `hgetall`, node-redis
 * `hGetAll`), which hands back the record as an object, as every other store's driver does and
 * as docbench (like YCSB's binding) must. `raw` instead sends HGETALL and only looks at the
 * length of the flat reply: a loop that never builds the record, the cheapest possible.
 */
export async function redisReader(
  driver: 'ioredis' | 'node-redis',
  url: string,
  table: string,
  raw = false,
): Promise<BareReader> {
  if (driver === 'ioredis') {
    const client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    await client.connect();
    return {
      call: raw ? "ioredis call('HGETALL', key), raw reply" : 'ioredis hgetall(key)',
      read: raw
        ? async (key) => ((await client.call('HGETALL', `${table}:${key}`)) as string[]).length > 0
        : async (key) => Object.keys(await client.hgetall(`${table}:${key}`)).length > 0,
      close: async () => client.disconnect(),
    };
  }
  const client = createClient({ url, socket: { reconnectStrategy: false }, disableOfflineQueue: true });
  client.on('error', () => {});
  await client.connect();
  return {
    call: raw ? "node-redis sendCommand(['HGETALL', key]), raw reply" : 'node-redis hGetAll(key)',
    read: raw
      ? async (key) => ((await client.sendCommand(['HGETALL', `${table}:${key}`])) as string[]).length > 0
      : async (key) => Object.keys(await client.hGetAll(`${table}:${key}`)).length > 0,
    close: async () => void (await client.close()),
  };
}

/** The prepared SELECT docbench's Cassandra store runs for a read (bucket = the key's first 6 characters, its default). */
export function cassandraReader(handle: CassandraHandle, table: string, bucketLength = 6): BareReader {
  const cql = `SELECT * FROM ${handle.table(table)} WHERE bucket = ? AND y_id = ?`;
  const options = { prepare: true, consistency: cassandra.types.consistencies.one };
  return {
    call: 'client.execute(SELECT * … WHERE bucket = ? AND y_id = ?, prepared)',
    read: async (key) =>
      (await handle.client.execute(cql, [key.slice(0, bucketLength), key], options)).first() !== null,
    close: async () => {},
  };
}

export function mongodbReader(handle: MongodbHandle, table: string): BareReader {
  const collection = handle.db.collection<{ _id: string }>(table);
  return {
    call: 'collection.findOne({ _id: key })',
    read: async (key) => (await collection.findOne({ _id: key })) !== null,
    close: async () => {},
  };
}

/**
 * The same `find` findOne sends, as a database command (what docbench's read sends since it was
 * measured cheaper: docs/harness-benchmarks.md): the reply's first batch, no cursor object.
 */
export function mongodbCommandReader(handle: MongodbHandle, table: string): BareReader {
  return {
    call: 'db.command({ find, filter: { _id: key }, limit: 1, singleBatch: true })',
    read: async (key) =>
      (await handle.db.command({ find: table, filter: { _id: key }, limit: 1, singleBatch: true })).cursor.firstBatch
        .length === 1,
    close: async () => {},
  };
}

export function couchdbReader(handle: CouchdbHandle, table: string): BareReader {
  const db = handle.database(table);
  return {
    call: 'nano db.get(key)',
    read: async (key) => (await db.get(key))._id === key,
    close: async () => {},
  };
}

export function couchbaseReader(handle: CouchbaseHandle): BareReader {
  const collection = handle.collection();
  return {
    call: 'collection.get(key)',
    read: async (key) => {
      try {
        return (await collection.get(key)).content !== undefined;
      } catch (error) {
        if (error instanceof DocumentNotFoundError) return false;
        throw error;
      }
    },
    close: async () => {},
  };
}

/**
 * HBase has no official Node.js driver: its "driver" is docbench's own REST client (the handle's
 * Get: one request on the keep-alive agent, the reply decoded into a row), the client docbench
 * opened, without the YCSB adapter's row-to-record step or anything of the harness.
 */
export function hbaseReader(handle: HbaseHandle, table: string): BareReader {
  return {
    call: `handle.get(table, key) (GET /<table>/<key>, ${handle.format})`,
    read: async (key) => (await handle.get(table, key)) !== null,
    close: async () => {},
  };
}

/**
 * node-postgres's `pool.query` on the pool docbench opened, with a named (prepared) SELECT of the
 * record's JSONB document, as docbench's store runs it; the row's document is parsed by the driver.
 */
export function postgresReader(handle: PostgresHandle, table: string): BareReader {
  const text = `SELECT ycsb_value FROM "${table.replaceAll('"', '""')}" WHERE ycsb_key = $1`;
  return {
    call: 'pool.query({ name, text: SELECT ycsb_value … WHERE ycsb_key = $1, values: [key] })',
    read: async (key) => (await handle.pool.query({ name: 'bare_read', text, values: [key] })).rows.length > 0,
    close: async () => {},
  };
}

/** Reads through a docbench store's own read (BasicDB: the harness's cost alone, no driver). */
export function storeReader(
  open: { store: { read(table: string, key: string, fields: null): Promise<unknown> } },
  table: string,
): BareReader {
  return {
    call: 'store.read(table, key, null) (BasicDB in memory)',
    read: async (key) => (await open.store.read(table, key, null)) !== null,
    close: async () => {},
  };
}

/** The docbench store a bare loop is compared with, opened by the bench. */
export interface Docbench {
  readonly store: Store;
  readonly url: string;
}

/** One bare loop beside docbench's pass on a store. */
export interface BareLoop<K extends StoreName> {
  /** The client it is written on, beside the store's name in the table, where a store has more than one. */
  readonly client?: string;
  /** docbench settings of the pass it is compared with (the same client). */
  readonly settings?: readonly string[];
  /** A method, so that a store's loop, written for its own handle, is one of every store's. */
  open(handle: HandleOf<K>, docbench: Docbench, table: string): BareReader | Promise<BareReader>;
}

/** How bench/harness-overhead.ts measures a store. */
export interface StoreBench<K extends StoreName> {
  /**
   * Operations per pass and records loaded: two to three seconds a pass at the store's pace,
   * long enough that a run's fixed costs (about 2 ms) and a collection of the garbage collector
   * fall within the noise.
   */
  readonly ops: number;
  readonly records: number;
  /** docbench settings of every pass and of the load. */
  readonly settings?: readonly string[];
  readonly loops: readonly BareLoop<K>[];
}

/** A store a bench does not measure, and why. */
export interface NotMeasured {
  readonly none: string;
}

const one = <K extends StoreName>(open: BareLoop<K>['open']): BareLoop<K>[] => [{ open }];

/**
 * Every store of the STORES table, as bench/harness-overhead.ts measures it, or why it does not:
 * the compiler asks for a row of each. Redis has two clients, and two bare loops each: the
 * driver's own record read, and the raw reply. MongoDB has two: the driver's `findOne`, and the
 * `find` command docbench sends.
 */
export const BARE_READERS: { readonly [K in StoreName]: StoreBench<K> | NotMeasured } = {
  basic: {
    ops: 1_000_000,
    records: 10_000,
    settings: ['basic.store=true'],
    loops: one((_, docbench, table) => storeReader(docbench, table)),
  },
  redis: {
    ops: 150_000,
    records: 10_000,
    loops: (['ioredis', 'node-redis'] as const).flatMap((driver) =>
      [false, true].map((raw) => ({
        client: driver,
        settings: [`redis.driver=${driver}`],
        open: (_: unknown, docbench: Docbench, table: string) => redisReader(driver, docbench.url, table, raw),
      })),
    ),
  },
  cassandra: { ops: 60_000, records: 10_000, loops: one((handle, _, table) => cassandraReader(handle, table)) },
  mongodb: {
    ops: 12_000,
    records: 10_000,
    loops: [
      { client: 'findOne', open: (handle, _, table) => mongodbReader(handle, table) },
      { client: 'find command', open: (handle, _, table) => mongodbCommandReader(handle, table) },
    ],
  },
  couchdb: { ops: 1_500, records: 2_000, loops: one((handle, _, table) => couchdbReader(handle, table)) },
  couchbase: { ops: 30_000, records: 10_000, loops: one((handle) => couchbaseReader(handle)) },
  hbase: { ops: 5_000, records: 10_000, loops: one((handle, _, table) => hbaseReader(handle, table)) },
  postgres: { ops: 30_000, records: 10_000, loops: one((handle, _, table) => postgresReader(handle, table)) },
  // The MongoDB store's code and driver: MongoDB's bare reader measures the same harness path.
  ferretdb: { ops: 5_000, records: 5_000, loops: one((handle, _, table) => mongodbReader(handle, table)) },
};
