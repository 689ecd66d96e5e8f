/**
 * dataintegrity=true must catch corruption, not only confirm good data: on every local store, a
 * load, then two records corrupted on purpose directly through the store's driver (one value
 * changed, one field removed), then a run that reads every record once. The run must report
 * exactly those two as UNEXPECTED_STATE (the VERIFY row, the result's returns and the YCSB text),
 * and every other record as OK. Stores that scan must flag the corrupt records in scans too.
 *
 * The records live in their own table and, for the Couchbase stand-in (one collection for every
 * table), under key numbers no other test uses; they are removed afterwards.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import type { Result } from '../../src/results/schema.ts';
import type { CassandraHandle } from '../../src/stores/cassandra/handle.ts';
import type { CouchbaseHandle } from '../../src/stores/couchbase/handle.ts';
import type { CouchdbHandle } from '../../src/stores/couchdb/handle.ts';
import type { HbaseHandle } from '../../src/stores/hbase/handle.ts';
import type { PostgresHandle } from '../../src/stores/postgres/handle.ts';
import type { MongodbHandle } from '../../src/stores/mongodb/handle.ts';
import type { RedisHandle } from '../../src/stores/redis/handle.ts';
import type { Store } from '../../src/stores/store.ts';
import { storeFactory, type StoreName } from '../../src/stores/stores.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { Random } from '../../src/workload/random.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { runDocbench } from '../support/cli.ts';
import { TEST_STORES } from '../support/stores.ts';

const RECORDS = 20;
/** Key numbers of this file's records: YCSB's multi-client trick (insertstart + insertcount = recordcount). */
const FIRST = 7_000_000 + (process.pid % 10_000) * 100;
const TABLE = `itest_integrity_${process.pid}`;
const PROPERTIES = [
  `table=${TABLE}`,
  `insertstart=${FIRST}`,
  `insertcount=${RECORDS}`,
  `recordcount=${FIRST + RECORDS}`,
  'fieldcount=4',
  'fieldlength=20',
  'dataintegrity=true',
  'threadcount=1',
].flatMap((p) => ['-p', p]);
/** Read every record exactly once, in key-number order. */
const READ_EACH_ONCE = [
  '-p',
  'readproportion=1',
  '-p',
  'updateproportion=0',
  '-p',
  'requestdistribution=sequential',
  '-p',
  `operationcount=${RECORDS}`,
];
const SCAN_ALL = [
  '-p',
  'readproportion=0',
  '-p',
  'updateproportion=0',
  '-p',
  'scanproportion=1',
  '-p',
  `minscanlength=${RECORDS}`,
  '-p',
  `maxscanlength=${RECORDS}`,
  '-p',
  'requestdistribution=sequential',
  '-p',
  `operationcount=${RECORDS}`,
];

/** Two ways to corrupt a record, done directly through each store's driver (never through docbench's adapter). */
interface Corrupter {
  changeValue(key: string, field: string): Promise<void>;
  removeField(key: string, field: string): Promise<void>;
}

const CORRUPTERS: Record<Exclude<StoreName, 'basic'>, (handle: never) => Corrupter> = {
  redis: (redis: RedisHandle) => ({
    changeValue: async (key, field) =>
      void (await redis.call(['HSET', `${TABLE}:${key}`, field, 'corrupted on purpose'])),
    removeField: async (key, field) => void (await redis.call(['HDEL', `${TABLE}:${key}`, field])),
  }),
  mongodb: (mongo: MongodbHandle) => ({
    changeValue: async (key, field) =>
      void (await mongo
        .collection<{ _id: string }>(TABLE)
        .updateOne({ _id: key }, { $set: { [field]: 'corrupted on purpose' } })),
    removeField: async (key, field) =>
      void (await mongo.collection<{ _id: string }>(TABLE).updateOne({ _id: key }, { $unset: { [field]: '' } })),
  }),
  // FerretDB runs the MongoDB store's code on the same driver: the same corrupter.
  ferretdb: (mongo: MongodbHandle) => CORRUPTERS.mongodb(mongo as never),
  couchdb: (couch: CouchdbHandle) => {
    const rewrite = async (key: string, change: (doc: Record<string, unknown>) => void) => {
      const db = couch.database<Record<string, unknown>>(TABLE);
      const doc = (await db.get(key)) as Record<string, unknown>;
      change(doc);
      await db.insert(doc);
    };
    return {
      changeValue: (key, field) => rewrite(key, (doc) => void (doc[field] = 'corrupted on purpose')),
      removeField: (key, field) => rewrite(key, (doc) => void delete doc[field]),
    };
  },
  cassandra: (cql: CassandraHandle) => {
    const where = async (key: string) => {
      const row = (
        await cql.client.execute(`SELECT bucket FROM ${cql.table(TABLE)} WHERE y_id = ? ALLOW FILTERING`, [key])
      ).first();
      return [row.get('bucket') as string, key];
    };
    return {
      changeValue: async (key, field) =>
        void (await cql.client.execute(
          `UPDATE ${cql.table(TABLE)} SET "${field}" = ? WHERE bucket = ? AND y_id = ?`,
          ['corrupted on purpose', ...(await where(key))],
          { prepare: true },
        )),
      removeField: async (key, field) =>
        void (await cql.client.execute(
          `DELETE "${field}" FROM ${cql.table(TABLE)} WHERE bucket = ? AND y_id = ?`,
          await where(key),
          { prepare: true },
        )),
    };
  },
  couchbase: (cb: CouchbaseHandle) => {
    const rewrite = async (key: string, change: (doc: Record<string, unknown>) => void) => {
      const collection = cb.collection();
      const doc = { ...((await collection.get(key)).content as Record<string, unknown>) };
      change(doc);
      await collection.replace(key, doc);
    };
    return {
      changeValue: (key, field) => rewrite(key, (doc) => void (doc[field] = 'corrupted on purpose')),
      removeField: (key, field) => rewrite(key, (doc) => void delete doc[field]),
    };
  },
  hbase: (hbase: HbaseHandle) => ({
    changeValue: (key, field) =>
      hbase.put(TABLE, [{ key, cells: [{ column: `${hbase.family}:${field}`, value: 'corrupted on purpose' }] }]),
    removeField: (key, field) => hbase.deleteRow(TABLE, key, [`${hbase.family}:${field}`]),
  }),
  postgres: (pg: PostgresHandle) => ({
    changeValue: async (key, field) =>
      void (await pg.query(
        `UPDATE "${TABLE}" SET ycsb_value = jsonb_set(ycsb_value, $2, '"corrupted on purpose"') WHERE ycsb_key = $1`,
        [key, [field]],
      )),
    removeField: async (key, field) =>
      void (await pg.query(`UPDATE "${TABLE}" SET ycsb_value = ycsb_value - $2::text WHERE ycsb_key = $1`, [
        key,
        field,
      ])),
  }),
};

function runResult(store: string, args: readonly string[], out: string): { result: Result; stdout: string } {
  const r = runDocbench(['run', '--store', store, '-P', 'workloadc', ...PROPERTIES, ...args, '--out', out, '-q'], {
    timeoutMs: 180_000,
  });
  // Wrong answers make the run invalid: it still prints and writes its result, then exits 2 with one line saying why.
  assert.equal(r.code, 2, `docbench run on ${store}: ${r.stderr}`);
  assert.match(r.stderr, /^docbench: \S+ workloadc run: INVALID: /m);
  return { result: JSON.parse(readFileSync(out, 'utf8')) as Result, stdout: r.stdout };
}

const verifyReturns = (result: Result) => result.operations.find((o) => o.name === 'VERIFY')?.returns ?? {};

for (const storeName of TEST_STORES.filter((s): s is Exclude<StoreName, 'basic'> => s in CORRUPTERS)) {
  describe(`dataintegrity catches corruption on ${storeName}`, { timeout: 600_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'docbench-integrity-'));
    const keys = new CoreWorkload(
      loadWorkload(
        ['workloadc'],
        PROPERTIES.filter((a) => a !== '-p'),
      ).properties,
      new Random(1),
    );
    const changed = keys.keyName(FIRST + 3);
    const stripped = keys.keyName(FIRST + 11);
    /**
     * The store's own client, opened for each use and closed after: the CLI runs in between block
     * this process (spawnSync), and a keep-alive socket the server closes meanwhile would fail the
     * next request.
     */
    const withStore = async (use: (store: Store) => Promise<void>) => {
      const { url } = await (await localTarget(storeName)).start(() => {});
      const store = (await storeFactory(storeName))({ url, settings: {}, concurrency: 1 });
      await store.connect();
      try {
        await use(store);
      } finally {
        await store.close();
      }
    };

    before(async () => {
      const load = runDocbench(['load', '--store', storeName, '-P', 'workloadc', ...PROPERTIES, '--fresh', '-q'], {
        timeoutMs: 180_000,
      });
      assert.equal(load.code, 0, `load: ${load.stderr}`);
      await withStore(async (store) => {
        const corrupt = (CORRUPTERS[storeName] as (handle: unknown) => Corrupter)(store.handle);
        await corrupt.changeValue(changed, 'field2');
        await corrupt.removeField(stripped, 'field1');
      });
    });

    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await withStore(async (store) => {
        // The Couchbase stand-in cannot drop: remove this file's records one by one.
        if (storeName === 'couchbase')
          for (let i = 0; i < RECORDS; i++) await store.delete(TABLE, keys.keyName(FIRST + i)).catch(() => false);
        else await store.drop({ table: TABLE, fieldNames: [] });
      });
    });

    it('reads: the changed value and the missing field are UNEXPECTED_STATE, every other record OK', () => {
      const { result, stdout } = runResult(storeName, READ_EACH_ONCE, join(dir, 'reads.json'));
      assert.deepEqual(result.operations.find((o) => o.name === 'READ')?.returns, { OK: RECORDS });
      assert.deepEqual(verifyReturns(result), { OK: RECORDS - 2, UNEXPECTED_STATE: 2 });
      assert.equal(result.returns.UNEXPECTED_STATE, 2);
      assert.match(stdout, /^\[VERIFY\], Return=UNEXPECTED_STATE, 2$/m);
      assert.deepEqual(
        result.verdict?.reasons.map((r) => r.code),
        ['wrong-answers'],
      );
      assert.match(stdout, /^# VERDICT: INVALID: 2 answers failed their check/m);
      const samples = result.operations.find((o) => o.name === 'VERIFY')?.errorSamples ?? [];
      assert.ok(
        samples.some((s) => s.includes(changed)),
        `names ${changed}: ${samples.join('; ')}`,
      );
      assert.ok(
        samples.some((s) => s.includes(stripped) && s.includes('field1')),
        `names ${stripped} and field1: ${samples.join('; ')}`,
      );
    });

    it('scans: a scan over a corrupt record is UNEXPECTED_STATE (or the store cannot scan at all)', () => {
      const { result } = runResult(storeName, SCAN_ALL, join(dir, 'scans.json'));
      const scans = result.operations.find((o) => o.name === 'SCAN')?.returns ?? {};
      // The Couchbase stand-in has no SQL++: every scan UNSUPPORTED, and the verdict says so.
      if (scans.UNSUPPORTED === RECORDS)
        return assert.deepEqual(
          result.verdict?.reasons.map((r) => r.code),
          ['unsupported'],
        );
      assert.ok(result.verdict?.reasons.some((r) => r.code === 'wrong-answers'));
      assert.deepEqual(scans, { OK: RECORDS });
      // A scan from the smallest key covers every record, so at least one scan meets the corruption.
      assert.ok((verifyReturns(result).UNEXPECTED_STATE ?? 0) > 0, `VERIFY: ${JSON.stringify(verifyReturns(result))}`);
      assert.equal(result.returns.UNEXPECTED_STATE, verifyReturns(result).UNEXPECTED_STATE);
    });
  });
}
