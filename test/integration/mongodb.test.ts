/**
 * The MongoDB adapter against docbench's local MongoDB target (SecantusDB, a stand-in; started
 * here through `openStore` if not running, and left running: other tests share it). Everything
 * happens in collections of this process's own, dropped at the end. Where a test needs the
 * server's side (what is stored, which collections exist) it asks through the driver directly.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { describeStore, openStore, type OpenStore, requestOf } from '../../src/session/store-session.ts';
import { MongodbStore } from '../../src/stores/mongodb/index.ts';
import { localTarget } from '../../src/stores/mongodb/local-target.ts';
import type { YcsbDocument } from '../../src/stores/mongodb/ycsb.ts';
import { canInsertMany, UnreachableError, type FieldMap } from '../../src/stores/store.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { describeStoreContract } from './store-contract.ts';

const TABLE = `itest_${process.pid}`;
const SCAN_TABLE = `itest_scan_${process.pid}`;
const SCHEMA = { table: TABLE, fieldNames: ['field0', 'field1', 'field2'] };
const SCAN_SCHEMA = { table: SCAN_TABLE, fieldNames: SCHEMA.fieldNames };

const fields = (tag: string): FieldMap => ({ field0: `${tag}-0`, field1: `${tag}-1`, field2: `${tag}-2` });
/** Workload properties as the CLI builds them from `-p` overrides. */
const props = (...overrides: string[]) =>
  requestOf(loadWorkload(['workloada'], ['threadcount=4', ...overrides]).properties);

describe('MongoDB adapter on the local target', { timeout: 600_000 }, () => {
  let open: OpenStore;
  let store: MongodbStore;

  before(async () => {
    open = await openStore('mongodb', undefined, props());
    assert.ok(open.store instanceof MongodbStore);
    store = open.store;
    for (const s of [SCHEMA, SCAN_SCHEMA]) {
      await store.drop(s);
      await store.prepare(s);
    }
  });

  after(async () => {
    if (!open) return;
    await store.drop(SCHEMA);
    await store.drop(SCAN_SCHEMA);
    await store.close();
    await store.close(); // safe twice
  });

  it('connects to the database named by the URL path, `ycsb` when there is none', async () => {
    assert.equal(store.handle.db.databaseName, 'ycsb');
    const named = await openStore('mongodb', 'mongodb://127.0.0.1:27117/docbench_other?directConnection=true', props());
    try {
      assert.equal((named.store as MongodbStore).handle.db.databaseName, 'docbench_other');
    } finally {
      await named.store.close();
    }
  });

  it('prepare creates the collection and is idempotent; drop removes it and tolerates a missing one', async () => {
    await store.prepare(SCHEMA);
    const names = async () =>
      (await store.handle.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    assert.ok((await names()).includes(TABLE));
    const extra = { table: `${TABLE}_dropme`, fieldNames: [] };
    await store.prepare(extra);
    assert.ok((await names()).includes(extra.table));
    await store.drop(extra);
    assert.ok(!(await names()).includes(extra.table));
    await store.drop(extra);
  });

  it('insert stores one document per record: the key as _id, each field a top-level string', async () => {
    await store.insert(TABLE, 'a-layout', fields('l'));
    assert.deepEqual(await store.handle.collection<YcsbDocument>(TABLE).findOne({ _id: 'a-layout' }), {
      _id: 'a-layout',
      ...fields('l'),
    });
  });

  it('read: all fields, selected fields (without _id), and null for a missing key', async () => {
    await store.insert(TABLE, 'a-read', fields('r'));
    assert.deepEqual(await store.read(TABLE, 'a-read', null), fields('r'));
    assert.deepEqual(await store.read(TABLE, 'a-read', ['field2', 'field0']), { field2: 'r-2', field0: 'r-0' });
    assert.equal(await store.read(TABLE, 'a-missing', null), null);
    assert.equal(await store.read(TABLE, 'a-missing', ['field0']), null);
  });

  it('inserting an existing key is an error (E11000) and leaves the document as it was', async () => {
    await store.insert(TABLE, 'a-dup', fields('first'));
    await assert.rejects(
      store.insert(TABLE, 'a-dup', fields('second')),
      (e: unknown) => e instanceof MongoServerError && e.code === 11000,
    );
    assert.deepEqual(await store.read(TABLE, 'a-dup', null), fields('first'));
  });

  it('update $sets the given fields of an existing record (true); a missing one is NOT_FOUND (false) and not created', async () => {
    await store.insert(TABLE, 'a-upd', fields('u'));
    assert.equal(await store.update(TABLE, 'a-upd', { field1: 'changed' }), true);
    assert.deepEqual(await store.read(TABLE, 'a-upd', null), { field0: 'u-0', field1: 'changed', field2: 'u-2' });
    assert.equal(await store.update(TABLE, 'a-upd-missing', { field1: 'x' }), false);
    assert.equal(await store.handle.collection<YcsbDocument>(TABLE).countDocuments({ _id: 'a-upd-missing' }), 0);
  });

  it('delete: true for an existing record (then gone), false for a missing one', async () => {
    await store.insert(TABLE, 'a-del', fields('d'));
    assert.equal(await store.delete(TABLE, 'a-del'), true);
    assert.equal(await store.read(TABLE, 'a-del', null), null);
    assert.equal(await store.delete(TABLE, 'a-del'), false);
    assert.equal(await store.delete(TABLE, 'a-never'), false);
  });

  it('scan returns records in ascending key order from the start key, with projection, across 300 keys loaded in random order', async () => {
    assert.ok(canInsertMany(store));
    // Unpadded numbers, so string order differs from numeric order (as with YCSB's hashed keys).
    const keys = new Set<string>();
    while (keys.size < 300) keys.add(`sk${Math.floor(Math.random() * 1_000_000)}`);
    const shuffled = [...keys].sort(() => Math.random() - 0.5);
    for (let i = 0; i < shuffled.length; i += 100) {
      await store.insertMany(
        SCAN_TABLE,
        shuffled.slice(i, i + 100).map((key) => ({ key, fields: fields(key) })),
      );
    }
    // _id strings compare by UTF-8 bytes on the server; for these ASCII keys that is JS order.
    const sorted = [...keys].sort();
    const expectFrom = (start: string, count: number) => sorted.filter((k) => k >= start).slice(0, count);
    for (const start of [sorted[0]!, sorted[100]!, `${sorted[100]!}0`, sorted[290]!, 'sk', 'a']) {
      const records = await store.scan(SCAN_TABLE, start, 50, null);
      assert.deepEqual(
        records.map((r) => r.key),
        expectFrom(start, 50),
        `scan from ${start}`,
      );
      for (const r of records) assert.deepEqual(r.fields, fields(r.key));
    }
    // More than the driver's first batch (101 documents): the cursor is drained.
    const all = await store.scan(SCAN_TABLE, 'sk', 1000, ['field1']);
    assert.deepEqual(
      all.map((r) => r.key),
      sorted,
    );
    for (const r of all) assert.deepEqual(r.fields, { field1: `${r.key}-1` });
    assert.deepEqual(await store.scan(SCAN_TABLE, 'sk', 0, null), []);
    assert.deepEqual(await store.scan(SCAN_TABLE, 'sl', 10, null), []);
  });

  it('insertMany is unordered: a duplicate fails the call (an error) while every other document is stored', async () => {
    await store.insert(TABLE, 'b-existing', fields('e'));
    const batch = [
      { key: 'b-new-1', fields: fields('n1') },
      { key: 'b-existing', fields: fields('again') },
      { key: 'b-new-2', fields: fields('n2') },
    ];
    await assert.rejects(
      store.insertMany(TABLE, batch),
      (e: unknown) => e instanceof MongoBulkWriteError && e.code === 11000 && e.result.insertedCount === 2,
    );
    assert.deepEqual(await store.read(TABLE, 'b-existing', null), fields('e'));
    assert.deepEqual(await store.read(TABLE, 'b-new-1', null), fields('n1'));
    assert.deepEqual(await store.read(TABLE, 'b-new-2', null), fields('n2'));
    await store.insertMany(TABLE, []);
  });

  it('stats: server and version from buildInfo, driver, sizes and record count; the stand-in is labelled', async () => {
    const before = await store.stats();
    await store.insertMany(
      TABLE,
      ['c-1', 'c-2', 'c-3', 'c-4', 'c-5'].map((key) => ({ key, fields: fields(key) })),
    );
    const stats = await store.stats();
    assert.match(stats.serverVersion, /^\d+\.\d+\.\d+/);
    assert.match(stats.driver, /^mongodb \d+\.\d+\.\d+$/);
    assert.equal(stats.extra?.database, 'ycsb');
    assert.equal(stats.extra?.collection, TABLE);
    assert.equal(stats.extra?.['mongodb.maxPoolSize'], 4, 'the pool is sized to the concurrency (threadcount)');
    assert.equal(stats.recordCount! - before.recordCount!, 5);
    assert.ok(stats.diskBytes! > before.diskBytes!, `diskBytes ${before.diskBytes} -> ${stats.diskBytes}`);
    assert.ok(Number(stats.extra?.['collection.dataSize']) > 0);

    const info = await localTarget.info();
    assert.equal(info.standIn, true);
    assert.match(info.product, /^SecantusDB /);
    assert.match(info.limits, /not MongoDB/);
    // The server says what it is (buildInfo.secantusVersion), so the adapter labels it itself.
    assert.equal(stats.standIn?.name, 'SecantusDB');
    assert.match(stats.server, /^SecantusDB/);
    const described = await describeStore(open);
    assert.equal(described.localTarget, true);
    assert.equal(described.standIn?.name, 'SecantusDB');
    assert.equal(described.targetProduct, info.product);
  });

  it('settings: write concern, journal and read preference are applied, and the operations still work', async () => {
    const tuned = await openStore(
      'mongodb',
      undefined,
      props(
        'mongodb.writeConcern=majority',
        'mongodb.journal=true',
        'mongodb.readPreference=primaryPreferred',
        'mongodb.maxPoolSize=3',
        'mongodb.serverSelectionTimeoutMS=2000',
      ),
    );
    try {
      const s = tuned.store as MongodbStore;
      assert.equal(s.handle.db.writeConcern?.w, 'majority');
      assert.equal(s.handle.db.writeConcern?.journal, true);
      assert.equal(s.handle.db.readPreference.mode, 'primaryPreferred');
      await s.insert(TABLE, 'd-tuned', fields('t'));
      assert.equal(await s.update(TABLE, 'd-tuned', { field0: 'x' }), true);
      assert.deepEqual(await s.read(TABLE, 'd-tuned', ['field0']), { field0: 'x' });
      const extra = (await s.stats()).extra!;
      assert.equal(extra['mongodb.writeConcern'], 'majority');
      assert.equal(extra['mongodb.journal'], true);
      assert.equal(extra['mongodb.readPreference'], 'primaryPreferred');
      assert.equal(extra['mongodb.maxPoolSize'], 3);
    } finally {
      await tuned.store.close();
    }
  });

  it("a read sends findOne's find with the URL's read concern and the read preference in force", async () => {
    const url = `${open.url}${open.url.includes('?') ? '&' : '?'}readConcernLevel=majority&readPreference=secondaryPreferred&monitorCommands=true`;
    const reading = await openStore('mongodb', url, props('mongodb.readPreference=nearest'));
    try {
      const s = reading.store as MongodbStore;
      const sent: Record<string, unknown>[] = [];
      s.handle.client.on('commandStarted', (e) => {
        if (e.commandName === 'find') sent.push(e.command);
      });
      await s.insert(TABLE, 'g-read', fields('g'));
      assert.deepEqual(await s.read(TABLE, 'g-read', ['field1']), { field1: 'g-1' });
      assert.equal(await s.read(TABLE, 'g-missing', null), null);
      assert.equal(sent.length, 2);
      for (const command of sent) {
        assert.equal(command.limit, 1);
        assert.equal(command.singleBatch, true);
        assert.deepEqual(command.readConcern, { level: 'majority' });
        assert.deepEqual(command.$readPreference, { mode: 'nearest' });
      }
      assert.deepEqual(sent[0]!.projection, { field1: 1 });
    } finally {
      await reading.store.close();
    }
  });

  it('settings: w=0 (unacknowledged) writes, where update and delete cannot tell a missing record, as in YCSB', async () => {
    const fireAndForget = await openStore('mongodb', undefined, props('mongodb.writeConcern=0'));
    try {
      assert.equal(await fireAndForget.store.update(TABLE, 'e-missing', { field0: 'x' }), true);
      assert.equal(await fireAndForget.store.delete(TABLE, 'e-missing'), true);
    } finally {
      await fireAndForget.store.close();
    }
  });

  it('settings: a maxPoolSize in the URL is kept unless mongodb.maxPoolSize is given', async () => {
    const url = 'mongodb://127.0.0.1:27117/?directConnection=true&maxPoolSize=2';
    const fromUrl = await openStore('mongodb', url, props());
    const fromSetting = await openStore('mongodb', url, props('mongodb.maxPoolSize=5'));
    try {
      assert.equal((await fromUrl.store.stats()).extra?.['mongodb.maxPoolSize'], 2);
      assert.equal((await fromSetting.store.stats()).extra?.['mongodb.maxPoolSize'], 5);
    } finally {
      await fromUrl.store.close();
      await fromSetting.store.close();
    }
  });

  // Bad URLs and settings one by one: test/unit/mongodb-settings.test.ts. Here, the way a user meets them.
  it('through the CLI, an unknown setting or a bad URL is one line and exit 2, without the password', () => {
    const unknown = runDocbench([
      'run',
      '--store',
      'mongodb',
      '-P',
      'workloada',
      '-p',
      'mongodb.nosuch=1',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(unknown, /unknown setting mongodb\.nosuch; mongodb understands mongodb\.writeConcern/);
    const badUrl = runDocbench([
      'run',
      '--store',
      'mongodb',
      '--url',
      'mongodb://app:s3cret@127.0.0.1:1/a.b',
      '-P',
      'workloada',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(badUrl, /"mongodb:\/\/app:\*\*\*@127\.0\.0\.1:1\/a\.b" names the database "a\.b"/);
    assert.doesNotMatch(badUrl.stderr, /s3cret/);
  });

  // No wall-clock bound here: on a loaded machine any bound is a guess. The invariant is that the
  // error says which server selection timeout was in force (docbench's 5 s default, not the
  // driver's 30 s; or the setting's), read from the client the driver waited with.
  it('an unreachable server: UnreachableError naming the selection timeout in force, without the password', async () => {
    await assert.rejects(
      openStore('mongodb', 'mongodb://ycsb:secret@127.0.0.1:1/ycsb', props()),
      (e: Error) =>
        e instanceof UnreachableError &&
        e.message.includes('ycsb:***@127.0.0.1:1') &&
        !e.message.includes('secret') &&
        /server selection timeout of 5000 ms .*raise mongodb\.serverSelectionTimeoutMS/.test(e.message),
    );
    await assert.rejects(
      openStore('mongodb', 'mongodb://127.0.0.1:1/', props('mongodb.serverSelectionTimeoutMS=1000')),
      (e: Error) => e instanceof UnreachableError && /server selection timeout of 1000 ms/.test(e.message),
    );
  });
});

// The shared store contract too (YCSB's MongoDB binding reports NOT_FOUND for update and delete).
describeStoreContract({
  store: 'mongodb',
  unreachableUrl: 'mongodb://127.0.0.1:1/?directConnection=true',
  updateDetectsMissing: true,
  deleteDetectsMissing: true,
});
