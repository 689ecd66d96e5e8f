/**
 * `docbench load` into a table that already holds the records: refused before it writes anything,
 * with one line naming the store, the table and the ways out (exit 2). And a load whose inserts
 * fail does not exit 0 with the rate of its failures printed as a throughput: the YCSB text and
 * the exit code say it failed and how many records were not written.
 *
 * On Redis (whose writes would silently overwrite) and on MongoDB (whose inserts of an existing
 * key fail), each in a table of its own, dropped afterwards.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import type { RedisHandle } from '../../src/stores/redis/handle.ts';
import type { Store } from '../../src/stores/store.ts';
import { storeFactory } from '../../src/stores/stores.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { Random } from '../../src/workload/random.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const RECORDS = 300;
// Bulk writes of 100 (YCSB's default is one insert per record): three batches, so a failed batch is easy to place.
const load = (store: string, table: string, ...extra: string[]) =>
  runDocbench(
    [
      'load',
      '--store',
      store,
      '-P',
      'workloada',
      '-p',
      `recordcount=${RECORDS}`,
      '-p',
      'batchsize=100',
      '-p',
      `table=${table}`,
      '-q',
      ...extra,
    ],
    { timeoutMs: 120_000 },
  );
const keyName = (n: number) => new CoreWorkload(loadWorkload(['workloada'], []).properties, new Random(1)).keyName(n);

/**
 * The store's own client, opened for each use and closed after: the CLI runs in between block
 * this process (spawnSync), and a connection the server closes meanwhile would fail the next use.
 */
async function withStore(name: string, use: (store: Store) => Promise<unknown>): Promise<void> {
  const { url } = await (await localTarget(name)).start(() => {});
  const store = (await storeFactory(name))({ url, settings: {}, concurrency: 1 });
  await store.connect();
  try {
    await use(store);
  } finally {
    await store.close();
  }
}

/** Drop the tables a suite loaded into, once it is done. */
function dropAfter(name: string, tables: readonly string[]): void {
  after(() =>
    withStore(name, async (store) => Promise.all(tables.map((table) => store.drop({ table, fieldNames: [] })))),
  );
}

function assertRefused(store: string, table: string, r: ReturnType<typeof runDocbench>, nextStart: number): void {
  assertUserError(
    r,
    new RegExp(
      `^docbench: ${store}: table "${table}" already holds the records this load would write \\(user\\d+ is there\\); load with --fresh .*-p table=<name>.*-p insertstart=${nextStart}\\)$`,
    ),
  );
  assert.equal(r.stdout, '', 'no YCSB text: nothing was loaded');
}

function assertLoaded(r: ReturnType<typeof runDocbench>, batches: number): void {
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^\\[INSERT-BATCH\\], Return=OK, ${batches}$`, 'm'));
  assert.doesNotMatch(r.stdout, /LOAD FAILED/);
}

if (testsStore('redis')) {
  describe('load guard on redis', { timeout: 300_000 }, () => {
    const table = `itest_guard_${process.pid}`;
    const broken = `itest_guard_broken_${process.pid}`;
    dropAfter('redis', [table, broken]);

    it('a second load is refused in one line; --fresh, or insertstart after the records, loads', () => {
      assertLoaded(load('redis', table, '--fresh'), 3);
      assertRefused('redis', table, load('redis', table), RECORDS);
      assertLoaded(
        load(
          'redis',
          table,
          '-p',
          `insertstart=${RECORDS}`,
          '-p',
          `insertcount=${RECORDS}`,
          '-p',
          `recordcount=${2 * RECORDS}`,
        ),
        3,
      );
      assertLoaded(load('redis', table, '--fresh'), 3);
    });

    it('a load whose writes fail says so in the YCSB text and exits non-zero', async () => {
      // A string where the load will write record 150's hash: that batch fails with WRONGTYPE.
      await withStore('redis', (store) =>
        (store.handle as RedisHandle).call(['SET', `${broken}:${keyName(150)}`, 'not a hash']),
      );
      const r = load('redis', broken);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /^docbench: redis: the load failed: 100 of 300 records were not written \(counting each failed batch whole\) \(first error: WRONGTYPE [^\n]*\)\n$/,
      );
      assert.match(
        r.stdout,
        /^# LOAD FAILED: 100 of 300 records were not written .*the figures below count the failed writes too/m,
      );
      assert.match(r.stdout, /^\[INSERT-BATCH\], Return=ERROR, 1$/m);
    });
  });
}

if (testsStore('mongodb')) {
  describe('load guard on mongodb', { timeout: 300_000 }, () => {
    const table = `itest_guard_${process.pid}`;
    dropAfter('mongodb', [table]);

    it('a second load is refused in one line instead of failing every batch on duplicate keys', () => {
      assertLoaded(load('mongodb', table, '--fresh'), 3);
      assertRefused('mongodb', table, load('mongodb', table), RECORDS);
    });

    it('a load that meets existing records past the first ones fails, and says how many were not written', () => {
      // Records 3… are there, the first three (which the guard reads) are not: the guard lets it
      // through, and every batch then meets duplicate keys.
      assertLoaded(load('mongodb', table, '--fresh', '-p', 'insertstart=3', '-p', `insertcount=${RECORDS - 3}`), 3);
      const r = load('mongodb', table);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /^docbench: mongodb: the load failed: 300 of 300 records were not written \(counting each failed batch whole\) \(first error: E11000 duplicate key[^\n]*\)\n$/,
      );
      assert.match(r.stdout, /^# LOAD FAILED: 300 of 300 records/m);
      assert.match(r.stdout, /^\[INSERT-BATCH\], Return=ERROR, 3$/m);
    });
  });
}
