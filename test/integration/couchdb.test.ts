/**
 * The CouchDB adapter against docbench's local CouchDB target (started here if not running, and
 * left running: other tests share it). Everything happens in a database of its own, dropped at
 * the end. Where a test needs to see the server's side (revisions, a concurrent writer) it talks
 * HTTP to the server directly, not through the adapter.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent, fetch } from 'undici';
import { createStore } from '../../src/stores/couchdb/index.ts';
import { localTarget as couchdbTarget } from '../../src/stores/couchdb/local-target.ts';
import { AccessDeniedError, UnreachableError, type FieldMap } from '../../src/stores/store.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { describeStoreContract } from './store-contract.ts';

const DATABASE = `docbench_itest_${process.pid}`;
const TABLE = 'usertable';
const SCHEMA = { table: TABLE, fieldNames: ['field0', 'field1', 'field2'] };
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Request headers a proxy passes on (hop-by-hop ones and the length are its own business). */
function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      value === undefined ||
      ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(name)
    )
      continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const fields = (tag: string): FieldMap => ({ field0: `${tag}-0`, field1: `${tag}-1`, field2: `${tag}-2` });

describe('CouchDB adapter on the local target', { timeout: 180_000 }, () => {
  let url: string;
  let store: ReturnType<typeof createStore>;
  const direct = new Agent({ connections: 4 });
  let authorization: string;
  let base: string;

  /** A request straight to the server (not through the adapter). */
  async function couch(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: any }> {
    const response = await fetch(`${base}/${DATABASE}/${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      dispatcher: direct,
    });
    return { status: response.status, body: await response.json() };
  }

  const open = (storeUrl: string) =>
    createStore({
      url: storeUrl,
      settings: { 'couchdb.database': DATABASE, 'couchdb.maxsockets': '8' },
      concurrency: 1,
    });

  before(async () => {
    const status = await couchdbTarget.start(log);
    url = status.url;
    const parsed = new URL(url);
    authorization = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`;
    base = `${parsed.protocol}//${parsed.host}`;
    store = open(url);
    await store.connect();
    await store.drop(SCHEMA);
    await store.prepare(SCHEMA);
  });

  after(async () => {
    if (store) {
      await store.drop(SCHEMA);
      await store.close();
      await store.close(); // safe twice
    }
    await direct.close();
  });

  it('prepare is idempotent and creates the database', async () => {
    await store.prepare(SCHEMA);
    const info = await couch('');
    assert.equal(info.status, 200);
    assert.equal(info.body.doc_count, 0);
  });

  it('insert, then read all fields and selected fields; a missing key reads as null', async () => {
    await store.insert(TABLE, 'a-read', fields('r'));
    assert.deepEqual(await store.read(TABLE, 'a-read', null), fields('r'));
    assert.deepEqual(await store.read(TABLE, 'a-read', ['field2', 'field0']), { field2: 'r-2', field0: 'r-0' });
    assert.equal(await store.read(TABLE, 'a-missing', null), null);
    assert.equal(await store.read(TABLE, 'a-missing', ['field0']), null);
  });

  it('inserting an existing key is an error and leaves the document as it was', async () => {
    await store.insert(TABLE, 'a-dup', fields('first'));
    await assert.rejects(
      store.insert(TABLE, 'a-dup', fields('second')),
      (e: Error & { statusCode?: number }) => e.statusCode === 409,
    );
    assert.deepEqual(await store.read(TABLE, 'a-dup', null), fields('first'));
  });

  it('update merges into an existing record (true) and reports a missing one (false) without creating it', async () => {
    await store.insert(TABLE, 'a-upd', fields('u'));
    assert.equal(await store.update(TABLE, 'a-upd', { field1: 'changed' }), true);
    assert.deepEqual(await store.read(TABLE, 'a-upd', null), { field0: 'u-0', field1: 'changed', field2: 'u-2' });
    assert.equal((await couch('a-upd')).body._rev.split('-')[0], '2');
    assert.equal(await store.update(TABLE, 'a-upd-missing', { field1: 'x' }), false);
    assert.equal((await couch('a-upd-missing')).status, 404);
  });

  it('an update whose revision was overtaken by another writer throws and does not overwrite', async () => {
    // A pass-through proxy that, when the adapter's PUT arrives (after its GET), first lets a
    // second client write the same document: the adapter's PUT then carries a stale _rev.
    await store.insert(TABLE, 'a-conflict', fields('c'));
    let interleaved = 0;
    const proxy: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        try {
          if (req.method === 'PUT' && req.url === `/${DATABASE}/a-conflict`) {
            const current = await couch('a-conflict');
            const written = await couch('a-conflict', {
              method: 'PUT',
              body: { ...current.body, field0: 'other-writer' },
            });
            assert.equal(written.status, 201);
            interleaved++;
          }
          const upstream = await fetch(`${base}${req.url}`, {
            method: req.method,
            // The client's own headers (Accept decides whether CouchDB answers JSON or text).
            headers: forwardable(req.headers),
            body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
            dispatcher: direct,
          });
          res.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/json',
          });
          res.end(Buffer.from(await upstream.arrayBuffer()));
        } catch (error) {
          res.writeHead(502).end(String(error));
        }
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = new URL(url);
    proxied.port = String((proxy.address() as AddressInfo).port);
    const viaProxy = open(proxied.toString());
    try {
      await viaProxy.connect();
      await assert.rejects(viaProxy.update(TABLE, 'a-conflict', { field0: 'adapter' }), /conflict/);
      assert.equal(interleaved, 1);
      const stored = await couch('a-conflict');
      assert.equal(stored.body.field0, 'other-writer');
      assert.equal(stored.body._rev.split('-')[0], '2', 'only the other writer made a revision');
    } finally {
      await viaProxy.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('concurrent updates of one record: every reported success is a stored revision, every failure a conflict', async () => {
    await store.insert(TABLE, 'a-race', fields('race'));
    const writers = 8;
    const outcomes = await Promise.allSettled(
      Array.from({ length: writers }, (_, i) => store.update(TABLE, 'a-race', { field1: `w${i}` })),
    );
    const succeeded = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    for (const o of outcomes) {
      if (o.status === 'fulfilled') assert.equal(o.value, true);
      else assert.match((o.reason as Error).message, /conflict/);
    }
    assert.ok(succeeded.length >= 1);
    const stored = await couch('a-race');
    // Revision 1 was the insert; each successful update must have added exactly one revision.
    assert.equal(Number(stored.body._rev.split('-')[0]) - 1, succeeded.length);
    assert.ok(succeeded.map((i) => `w${i}`).includes(stored.body.field1));
  });

  it('delete: true for an existing record (then gone), false for a missing one', async () => {
    await store.insert(TABLE, 'a-del', fields('d'));
    assert.equal(await store.delete(TABLE, 'a-del'), true);
    assert.equal(await store.read(TABLE, 'a-del', null), null);
    assert.equal(await store.delete(TABLE, 'a-del'), false);
    assert.equal(await store.delete(TABLE, 'a-never'), false);
  });

  it('scan returns records in ascending key order from the start key, across 250 keys inserted in random order', async () => {
    // Unpadded numbers, so string order differs from numeric order (as with YCSB's keys).
    const keys = new Set<string>();
    while (keys.size < 250) keys.add(`sk${Math.floor(Math.random() * 1_000_000)}`);
    const shuffled = [...keys].sort(() => Math.random() - 0.5);
    for (let i = 0; i < shuffled.length; i += 50) {
      await store.insertMany(
        TABLE,
        shuffled.slice(i, i + 50).map((key) => ({ key, fields: fields(key) })),
      );
    }
    // CouchDB orders _all_docs by raw UTF-8 bytes; for these ASCII keys that is JS string order.
    const sorted = [...keys].sort();
    const expectFrom = (start: string, count: number) => sorted.filter((k) => k >= start).slice(0, count);
    const starts = [sorted[0]!, sorted[100]!, `${sorted[100]!}0`, sorted[240]!, 'sk'];
    for (const start of starts) {
      const records = await store.scan(TABLE, start, 50, null);
      const got = records.map((r) => r.key);
      for (let i = 1; i < got.length; i++)
        assert.ok(got[i - 1]! < got[i]!, `not ascending at ${i}: ${got[i - 1]} then ${got[i]}`);
      assert.deepEqual(got, expectFrom(start, 50), `scan from ${start}`);
      for (const r of records) assert.deepEqual(r.fields, fields(r.key));
    }
    const all = await store.scan(TABLE, 'sk', 1000, ['field1']);
    assert.deepEqual(
      all.map((r) => r.key),
      sorted,
    );
    for (const r of all) assert.deepEqual(r.fields, { field1: `${r.key}-1` });
    assert.deepEqual(await store.scan(TABLE, 'sk', 0, null), []);
    assert.deepEqual(await store.scan(TABLE, 'sl', 10, null), []);
  });

  it('insertMany throws on a duplicate id (first reason in the message) and stores the rest, as _bulk_docs does', async () => {
    await store.insert(TABLE, 'b-existing', fields('e'));
    const batch = [
      { key: 'b-new-1', fields: fields('n1') },
      { key: 'b-existing', fields: fields('again') },
      { key: 'b-new-2', fields: fields('n2') },
    ];
    await assert.rejects(store.insertMany(TABLE, batch), /stored 2 of 3 .*"b-existing": conflict/);
    assert.deepEqual(await store.read(TABLE, 'b-existing', null), fields('e'));
    assert.deepEqual(await store.read(TABLE, 'b-new-1', null), fields('n1'));
    assert.deepEqual(await store.read(TABLE, 'b-new-2', null), fields('n2'));
    await assert.rejects(
      store.insertMany(TABLE, [
        { key: 'b-twice', fields: fields('t1') },
        { key: 'b-twice', fields: fields('t2') },
      ]),
      /"b-twice": conflict/,
    );
  });

  it('stats: server, version, driver, record count and size on disk from the server', async () => {
    const before = await store.stats();
    await store.insertMany(
      TABLE,
      ['c-1', 'c-2', 'c-3', 'c-4', 'c-5'].map((key) => ({ key, fields: fields(key) })),
    );
    const stats = await store.stats();
    assert.ok(stats.server.length > 0);
    assert.match(stats.serverVersion, /^\d+\.\d+/);
    assert.match(stats.driver, /^nano \d+\.\d+\.\d+$/);
    assert.equal(stats.recordCount! - before.recordCount!, 5);
    assert.ok(stats.diskBytes! > 0, `diskBytes ${stats.diskBytes}`);
    assert.equal(stats.extra?.['couchdb.database'], DATABASE);
    assert.equal(stats.extra?.['couchdb.maxsockets'], 8);
    const info = await couchdbTarget.info();
    if (info.standIn) assert.equal(stats.standIn?.name, 'pouchdb-server');
    else assert.equal(stats.standIn, undefined);
  });

  it('the pool is sized to the operations in flight unless couchdb.maxsockets says otherwise', async () => {
    const sized = createStore({ url, settings: { 'couchdb.database': DATABASE }, concurrency: 3 });
    try {
      await sized.connect();
      assert.equal((await sized.stats()).extra?.['couchdb.maxsockets'], 3);
    } finally {
      await sized.close();
    }
  });

  it('wrong credentials: connect() is an AccessDeniedError about the user name or password, without the password', async () => {
    const wrong = new URL(url);
    if (!wrong.username) return; // a target without a login has nothing to get wrong
    wrong.password = 'not-the-password';
    const bad = open(wrong.toString());
    try {
      await assert.rejects(
        bad.connect(),
        (e: Error) =>
          e instanceof AccessDeniedError &&
          /refused the user name or password in the URL \(401 /.test(e.message) &&
          !e.message.includes('not-the-password'),
      );
    } finally {
      await bad.close();
    }
  });

  it('no login: connect() is an AccessDeniedError asking for one (GET /_session names no user)', async () => {
    const anonymous = new URL(url);
    anonymous.username = '';
    anonymous.password = '';
    const bad = open(anonymous.toString());
    try {
      await assert.rejects(
        bad.connect(),
        (e: Error) =>
          e instanceof AccessDeniedError && /the URL has no login/.test(e.message) && !e.message.includes('\n'),
      );
    } finally {
      await bad.close();
    }
  });

  it('a database that does not exist is no missing record: read, update and delete throw (CouchDB 404 "Database does not exist.")', async () => {
    const elsewhere = createStore({ url, settings: { 'couchdb.database': `${DATABASE}_never_made` }, concurrency: 1 });
    try {
      await elsewhere.connect();
      await assert.rejects(
        elsewhere.read(TABLE, 'k', null),
        (e: unknown) => (e as { statusCode?: number }).statusCode === 404,
      );
      await assert.rejects(
        elsewhere.update(TABLE, 'k', fields('x')),
        (e: unknown) => (e as { statusCode?: number }).statusCode === 404,
      );
      await assert.rejects(
        elsewhere.delete(TABLE, 'k'),
        (e: unknown) => (e as { statusCode?: number }).statusCode === 404,
      );
      await assert.rejects(
        elsewhere.checkTable(SCHEMA),
        /the database "docbench_itest_\d+_never_made" does not exist; load it first/,
      );
    } finally {
      await elsewhere.close();
    }
  });

  it('nothing listening: connect() throws UnreachableError saying the connection was refused, without the password', async () => {
    const port = await closedPort();
    const nowhere = createStore({ url: `http://admin:secret@127.0.0.1:${port}`, settings: {}, concurrency: 1 });
    try {
      await assert.rejects(
        nowhere.connect(),
        (e: Error) =>
          e instanceof UnreachableError &&
          /connection refused/.test(e.message) &&
          !e.message.includes('secret') &&
          !e.message.includes('\n'),
      );
    } finally {
      await nowhere.close();
    }
  });

  it('a server that accepts but never answers: connect() gives up after couchdb.connecttimeout', async () => {
    const silent = createTcpServer(() => {}); // accepts the connection, never says a word
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const mute = createStore({
      url: `http://admin:secret@127.0.0.1:${port}`,
      settings: { 'couchdb.connecttimeout': '500' },
      concurrency: 1,
    });
    const started = Date.now();
    try {
      await assert.rejects(
        mute.connect(),
        (e: Error) =>
          e instanceof UnreachableError && /no answer within 500 ms \(couchdb\.connecttimeout\)/.test(e.message),
      );
      // The point of this test is that the timeout applies at all: without it the request would
      // wait for undici's 300 s headers timeout. 60 s is far from anything load can add to 0.5 s.
      assert.ok(Date.now() - started < 60_000, `took ${Date.now() - started} ms`);
    } finally {
      await mute.close();
      silent.close();
    }
  });

  it('the CLI: an unknown couchdb.* setting is one line, exit 2, no stack trace', () => {
    const r = runDocbench(
      ['run', '--store', 'couchdb', '-P', 'workloada', '-p', 'couchdb.nosuch=1', '-p', 'operationcount=1'],
      { timeoutMs: 120_000 },
    );
    assertUserError(
      r,
      /unknown setting couchdb\.nosuch; couchdb understands couchdb\.database, couchdb\.maxsockets, couchdb\.connecttimeout/,
    );
  });
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// The shared store contract too, with the default mapping of each YCSB table to its own database.
describeStoreContract({
  store: 'couchdb',
  unreachableUrl: 'http://admin:password@127.0.0.1:1',
  updateDetectsMissing: true,
  deleteDetectsMissing: true,
});
