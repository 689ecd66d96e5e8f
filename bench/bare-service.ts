/**
 * The yardstick of bench/service-overhead.ts: the HTTP service a web developer would write by hand
 * for YCSB's read and update, one Fastify route per operation calling the store's official driver
 * directly (no validation schemas, no store gate, no counters): GET /usertable/:key answers
 * {key, fields} or 404, PUT /usertable/:key sets the body's fields and answers 204. It connects to
 * docbench's local server for the store (docbench's session code opens the connection, so the
 * driver and its pool settings are the ones docbench uses; the routes then call the driver alone)
 * and prints the port it listens on.
 *
 *   node --import tsx bench/bare-service.ts <redis|cassandra|mongodb> [pool]
 */
import { createClient } from '@redis/client';
import cassandra from 'cassandra-driver';
import Fastify from 'fastify';
import { openStore, requestOf } from '../src/session/store-session.ts';
import type { CassandraHandle } from '../src/stores/cassandra/handle.ts';
import type { MongodbHandle } from '../src/stores/mongodb/handle.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';

type Fields = Record<string, string>;
interface Driver {
  read(key: string): Promise<Fields | null>;
  update(key: string, fields: Fields): Promise<void>;
}

const TABLE = 'usertable';
const [store, pool = '16'] = process.argv.slice(2);
const open = await openStore(
  store!,
  undefined,
  requestOf(loadWorkload(['workloadc'], [`threadcount=${pool}`]).properties),
);

async function driverOf(): Promise<Driver> {
  if (store === 'redis') {
    // Redis's clients are private to docbench's connection classes: the app opens its own, as docbench configures it.
    const client = createClient({ url: open.url, socket: { reconnectStrategy: false }, disableOfflineQueue: true });
    client.on('error', () => {});
    await client.connect();
    return {
      read: async (key) => {
        const fields = await client.hGetAll(`${TABLE}:${key}`);
        return Object.keys(fields).length > 0 ? fields : null;
      },
      update: async (key, fields) => void (await client.hSet(`${TABLE}:${key}`, fields)),
    };
  }
  if (store === 'cassandra') {
    const handle = open.store.handle as CassandraHandle;
    const table = handle.table(TABLE);
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
        for (const name of Object.keys(row))
          if (name !== 'bucket' && name !== 'y_id') fields[name] = row[name] as string;
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
  }
  if (store === 'mongodb') {
    const collection = (open.store.handle as MongodbHandle).db.collection<{ _id: string }>(TABLE);
    return {
      read: async (key) => {
        const doc = await collection.findOne({ _id: key });
        if (doc === null) return null;
        const { _id, ...fields } = doc as unknown as Fields;
        return fields;
      },
      update: async (key, fields) => void (await collection.updateOne({ _id: key }, { $set: fields })),
    };
  }
  throw new Error(`bare-service: no driver for ${store}`);
}

const driver = await driverOf();
const app = Fastify({ logger: false });
app.get<{ Params: { key: string } }>(`/${TABLE}/:key`, async (request, reply) => {
  const fields = await driver.read(request.params.key);
  if (fields === null) return reply.code(404).send({ error: 'not found' });
  return { key: request.params.key, fields };
});
app.put<{ Params: { key: string }; Body: Fields }>(`/${TABLE}/:key`, async (request, reply) => {
  await driver.update(request.params.key, request.body);
  return reply.code(204).send();
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(new URL(address).port);
const stop = () =>
  void app
    .close()
    .then(() => open.store.close())
    .then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
