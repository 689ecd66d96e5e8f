/**
 * The Couchbase store against docbench's local target (CouchbaseMock, a KV-only stand-in, started
 * here through openStore if it is not running, and left running: other tests share it), plus the
 * store's URL and settings checks, which need no server.
 *
 * The shared store contract (store-contract.ts) is not used: it requires a numeric server version
 * from stats(), which a KV-only target cannot give (no management API, no SQL++). Its checks are
 * made here instead, with the stand-in's answers spelled out (scan: UnsupportedError).
 *
 * The mock cannot be emptied (drop() needs SQL++), so every key here carries this run's pid and
 * the tests delete what they wrote. Where a test needs the server's side it reads through the
 * SDK collection directly, not through the adapter.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DocumentExistsError } from 'couchbase';
import { describeStore, openStore, type OpenStore } from '../../src/cli/store-session.ts';
import { couchbaseTarget } from '../../src/local/couchbase.ts';
import { couchbaseSettings, CouchbaseStore, createCouchbaseStore, keyspacePath, parseCouchbaseUrl, scanStatement } from '../../src/stores/couchbase.ts';
import { UnreachableError, UnsupportedError, type FieldMap } from '../../src/stores/store.ts';
import { WorkloadError } from '../../src/workload/properties.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TABLE = 'usertable';
const SCHEMA = { table: TABLE, fieldNames: ['field0', 'field1', 'field2'] };
const K = (name: string) => `cbtest-${process.pid}-${name}`;
const fields = (tag: string, n = 3): FieldMap => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field${i}`, `${tag}-${i}`]));
const REAL_URL = 'couchbase://app:s3cret@db1.example.com,db2.example.com:11210/travel';

describe('couchbase URL, settings and SQL++ text (no server)', () => {
  it('parses a real server URL: login, bucket, hosts, SDK options and docbench settings apart', () => {
    const t = parseCouchbaseUrl(`${REAL_URL}?network=external&couchbase.scope=inventory`);
    assert.equal(t.username, 'app');
    assert.equal(t.password, 's3cret');
    assert.equal(t.bucket, 'travel');
    assert.equal(t.connectionString, 'couchbase://db1.example.com,db2.example.com:11210?network=external');
    assert.deepEqual(t.urlSettings, { 'couchbase.scope': 'inventory' });
    assert.equal(t.firstHost, 'db1.example.com');
    assert.equal(t.displayUrl.includes('s3cret'), false);
    assert.equal(parseCouchbaseUrl('couchbases://u:p%40ss@cb.abc.cloud.couchbase.com/b').password, 'p@ss');
    assert.equal(parseCouchbaseUrl('couchbases://u:p@cb.abc.cloud.couchbase.com/b').tls, true);
  });

  it('a URL without login or bucket is an error naming exactly what is missing', () => {
    const cases: Array<[string, RegExp]> = [
      ['couchbase://db1.example.com/travel', /no a user name, no a password;/],
      ['couchbase://app@db1.example.com/travel', /no a password;/],
      ['couchbase://app:s3cret@db1.example.com', /no a bucket name \(the URL path\)/],
      ['couchbase://db1.example.com', /no a user name, no a password, no a bucket name/],
    ];
    for (const [url, message] of cases) {
      assert.throws(() => createCouchbaseStore({ url, settings: {}, concurrency: 1 }), (e: Error) => e instanceof WorkloadError && message.test(e.message) && !e.message.includes('s3cret'), url);
    }
    assert.throws(() => createCouchbaseStore({ url: 'http://app:s3cret@db1.example.com/travel', settings: {} , concurrency: 1 }), /not a Couchbase URL; expected couchbase:\/\/USER:PASSWORD@host/);
  });

  it('validates every setting, naming the property and what was expected', () => {
    const t = parseCouchbaseUrl(REAL_URL);
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ 'couchbase.kvTimeout': '0' }, /couchbase\.kvTimeout must be a whole number of milliseconds >= 1, got "0"/],
      [{ 'couchbase.queryTimeout': '2s' }, /couchbase\.queryTimeout must be a whole number of milliseconds/],
      [{ 'couchbase.connectTimeout': '-5' }, /couchbase\.connectTimeout must be/],
      [{ 'couchbase.durability': 'all' }, /couchbase\.durability must be one of none, majority, majorityAndPersistActive, persistToMajority, got "all"/],
      [{ 'couchbase.management': 'no' }, /couchbase\.management must be true or false, got "no"/],
      [{ 'couchbase.query': 'yes' }, /couchbase\.query must be true or false/],
      [{ 'couchbase.upsert': '1' }, /couchbase\.upsert must be true or false/],
      [{ 'couchbase.scope': '_system' }, /couchbase\.scope must be _default or a Couchbase name/],
      [{ 'couchbase.collection': 'a.b' }, /couchbase\.collection must be _default or a Couchbase name/],
      [{ 'couchbase.managementUrl': 'ftp://x' }, /couchbase\.managementUrl must be an http\(s\) URL/],
      [{ 'couchbase.kvtimeout': '100' }, /unknown setting couchbase\.kvtimeout; couchbase understands couchbase\.scope, .*couchbase\.kvTimeout/],
    ];
    for (const [settings, message] of bad) assert.throws(() => couchbaseSettings(t, settings), (e: Error) => e instanceof WorkloadError && message.test(e.message), JSON.stringify(settings));
    // A bad setting given as a URL parameter is caught the same way.
    assert.throws(() => createCouchbaseStore({ url: `${REAL_URL}?couchbase.durability=all`, settings: {}, concurrency: 1 }), /couchbase\.durability must be one of/);
  });

  it('settings: defaults, URL parameters, and -p settings over URL parameters', () => {
    const defaults = couchbaseSettings(parseCouchbaseUrl(REAL_URL), { 'docbench.threadcount': '8' });
    assert.equal(defaults.scope, '_default');
    assert.equal(defaults.collection, '_default');
    assert.equal(defaults.kvTimeoutMs, 2500);
    assert.equal(defaults.connectTimeoutMs, 5000);
    assert.equal(defaults.durabilityName, 'none');
    assert.equal(defaults.upsert, false);
    assert.equal(defaults.query, true);
    assert.equal(defaults.management, true);
    assert.equal(defaults.managementUrl, 'http://db1.example.com:8091');
    assert.equal(couchbaseSettings(parseCouchbaseUrl('couchbases://u:p@h.example.com/b'), {}).managementUrl, 'https://h.example.com:18091');

    const t = parseCouchbaseUrl(`${REAL_URL}?couchbase.query=false&couchbase.collection=users`);
    const merged = couchbaseSettings(t, { 'couchbase.query': 'true', 'couchbase.durability': 'MajorityAndPersistActive', 'couchbase.kvTimeout': '10000' });
    assert.equal(merged.query, true, '-p wins over the URL');
    assert.equal(merged.collection, 'users');
    assert.equal(merged.durabilityName, 'majorityAndPersistActive');
    assert.equal(merged.kvTimeoutMs, 10_000);
  });

  it('builds the seed-002 scan statement over the keyspace path', () => {
    const ks = keyspacePath('travel', '_default', 'users');
    assert.equal(ks, '`travel`.`_default`.`users`');
    assert.equal(
      scanStatement(ks, null),
      'SELECT meta().id AS id, d AS doc FROM `travel`.`_default`.`users` AS d WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2',
    );
    assert.equal(
      scanStatement(ks, ['field1', 'field7']),
      'SELECT meta().id AS id, d.`field1`, d.`field7` FROM `travel`.`_default`.`users` AS d WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2',
    );
  });
});

describe('Couchbase store on the local target (CouchbaseMock)', { timeout: 180_000 }, () => {
  let open: OpenStore;
  let store: CouchbaseStore;
  const written = new Set<string>();
  const insert = async (key: string, values: FieldMap) => {
    written.add(key);
    await store.insert(TABLE, key, values);
  };
  /** The stored document, read through the SDK, not the adapter. */
  const stored = async (key: string) => (await store.collectionFor(TABLE).get(key)).content as Record<string, unknown>;

  before(async () => {
    open = await openStore('couchbase', undefined, loadWorkload(['workloada'], ['threadcount=4']).properties);
    assert.ok(open.store instanceof CouchbaseStore);
    store = open.store;
    await store.drop(SCHEMA);
    await store.prepare(SCHEMA);
  });

  after(async () => {
    if (!store) return;
    for (const key of written) await store.delete(TABLE, key);
    await store.close();
    await store.close(); // safe twice
  });

  it('the local URL carries a login and a bucket like a real server, plus the stand-in switches', () => {
    const t = parseCouchbaseUrl(couchbaseTarget.url);
    assert.ok(t.username && t.password && t.bucket);
    assert.deepEqual(t.urlSettings, { 'couchbase.management': 'false', 'couchbase.query': 'false', 'couchbase.upsert': 'true' });
    assert.equal(open.url, couchbaseTarget.url);
    assert.equal(open.local, true);
  });

  it('exposes the SDK cluster, bucket, collection and keyspace path for scenario code', () => {
    assert.equal(store.bucket().name, 'docbench');
    assert.equal(store.collectionFor(TABLE).name, '_default');
    assert.equal(store.keyspace(TABLE), '`docbench`.`_default`.`_default`');
    assert.equal(typeof store.cluster().query, 'function');
  });

  it('insert, then read all fields and selected fields; one JSON document per record', async () => {
    await insert(K('read'), fields('r'));
    assert.deepEqual(await store.read(TABLE, K('read'), null), fields('r'));
    assert.deepEqual(await store.read(TABLE, K('read'), ['field2', 'field0']), { field2: 'r-2', field0: 'r-0' });
    assert.deepEqual(await stored(K('read')), fields('r'));
  });

  it('a missing key reads as null (NOT_FOUND), with or without a field list', async () => {
    assert.equal(await store.read(TABLE, K('never'), null), null);
    assert.equal(await store.read(TABLE, K('never'), ['field0']), null);
  });

  it('update changes only the given fields (subdoc mutateIn) and reports a missing key as NOT_FOUND without creating it', async () => {
    await insert(K('upd'), fields('u'));
    assert.equal(await store.update(TABLE, K('upd'), { field1: 'changed' }), true);
    assert.deepEqual(await stored(K('upd')), { field0: 'u-0', field1: 'changed', field2: 'u-2' });
    assert.equal(await store.update(TABLE, K('upd-missing'), { field1: 'x' }), false);
    assert.equal(await store.read(TABLE, K('upd-missing'), null), null);
  });

  it('an update of more than 16 fields (past the subdoc limit) merges by CAS and keeps the other fields', async () => {
    await insert(K('wide'), fields('w', 20));
    const changed = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`field${i}`, `new-${i}`]));
    assert.equal(await store.update(TABLE, K('wide'), changed), true);
    assert.deepEqual(await stored(K('wide')), { ...fields('w', 20), ...changed });
    assert.equal(await store.update(TABLE, K('wide-missing'), changed), false);
    // Concurrent wide updates of one document: the CAS loop retries, none is lost or fails.
    const writers = Array.from({ length: 6 }, (_, w) => Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`field${i}`, `w${w}`])));
    await Promise.all(writers.map((values) => store.update(TABLE, K('wide'), values)));
    const after = await stored(K('wide'));
    assert.equal(Object.keys(after).length, 20);
    assert.ok(writers.some((values) => values.field0 === after.field0));
  });

  it('delete: true for an existing record (then gone), false for a missing one', async () => {
    await insert(K('del'), fields('d'));
    assert.equal(await store.delete(TABLE, K('del')), true);
    assert.equal(await store.read(TABLE, K('del'), null), null);
    assert.equal(await store.delete(TABLE, K('del')), false);
    assert.equal(await store.delete(TABLE, K('never')), false);
  });

  it('insert of an existing key: create-only by default (DocumentExists, the document untouched); with couchbase.upsert=true (the local URL) it overwrites the whole document', async () => {
    await insert(K('dup'), fields('first'));
    const createOnly = createCouchbaseStore({ url: open.url, settings: { 'couchbase.upsert': 'false' } , concurrency: 1 });
    await createOnly.connect();
    try {
      await assert.rejects(createOnly.insert(TABLE, K('dup'), { field0: 'second' }), DocumentExistsError);
      assert.deepEqual(await stored(K('dup')), fields('first'));
    } finally {
      await createOnly.close();
    }
    // The local URL's upsert: the new record replaces the old one, fields it lacks are gone.
    await store.insert(TABLE, K('dup'), { field0: 'second' });
    assert.deepEqual(await stored(K('dup')), { field0: 'second' });
  });

  it('insertMany writes a batch of 250 concurrently; every record reads back', async () => {
    const records = Array.from({ length: 250 }, (_, i) => ({ key: K(`bulk${String(i).padStart(3, '0')}`), fields: fields(`b${i}`) }));
    for (const r of records) written.add(r.key);
    await store.insertMany(TABLE, records);
    for (const r of records) assert.deepEqual(await store.read(TABLE, r.key, null), r.fields);
  });

  it('insertMany with create-only inserts stores the rest and names the first duplicate', async () => {
    await insert(K('batch-existing'), fields('e'));
    const createOnly = createCouchbaseStore({ url: open.url, settings: { 'couchbase.upsert': 'false' } , concurrency: 1 }) as CouchbaseStore;
    await createOnly.connect();
    try {
      for (const k of ['batch-new1', 'batch-new2']) written.add(K(k));
      const batch = [
        { key: K('batch-new1'), fields: fields('n1') },
        { key: K('batch-existing'), fields: fields('again') },
        { key: K('batch-new2'), fields: fields('n2') },
      ];
      await assert.rejects(createOnly.insertMany(TABLE, batch), new RegExp(`stored 2 of 3 documents; first failure "${K('batch-existing')}": document exists`));
      assert.deepEqual(await stored(K('batch-existing')), fields('e'));
      assert.deepEqual(await stored(K('batch-new1')), fields('n1'));
      assert.deepEqual(await stored(K('batch-new2')), fields('n2'));
    } finally {
      await createOnly.close();
    }
  });

  it('scan is UNSUPPORTED on the KV-only stand-in: it throws UnsupportedError before any request', async () => {
    await assert.rejects(store.scan(TABLE, K(''), 10, null), (e: Error) => e instanceof UnsupportedError && /couchbase\.query=false/.test(e.message));
    await assert.rejects(store.scan(TABLE, K(''), 10, ['field0']), UnsupportedError);
  });

  it('stats: driver version, settings, what was skipped, and the result labelled as a stand-in', async () => {
    const stats = await store.stats();
    assert.match(stats.driver, /^couchbase \d+\.\d+\.\d+$/);
    assert.equal(stats.extra?.['couchbase.bucket'], 'docbench');
    assert.equal(stats.extra?.['couchbase.insert'], 'upsert');
    assert.equal(stats.extra?.['couchbase.management'], false);
    const skipped = String(stats.extra?.skipped);
    assert.match(skipped, /management REST calls: server version and bucket stats \(couchbase\.management=false\)/);
    assert.match(skipped, /SQL\+\+: scans UNSUPPORTED/);
    assert.match(skipped, /drop: documents not deleted/);
    assert.match(skipped, /primaryIndex: not created/);
    assert.equal(stats.serverVersion, 'unknown', 'a KV-only target cannot tell its version');

    const described = await describeStore(open);
    assert.equal(described.standIn?.name, 'CouchbaseMock', 'named from the local target, since the mock cannot say what it is');
    assert.equal(described.standIn?.version, '1.5.27');
    assert.equal(described.server, 'CouchbaseMock');
    assert.equal(described.serverVersion, '1.5.27');
    assert.equal(described.extra?.serverVersionFrom, 'the local target docbench installed');
    assert.match(described.standIn?.note ?? '', /KV only: no SQL\+\+/);
    assert.equal(described.localTarget, true);
    assert.equal(described.url.includes(':password@'), false, 'password redacted');
    const info = await couchbaseTarget.info();
    assert.equal(info.standIn, true);
    assert.equal(info.product, 'CouchbaseMock 1.5.27');
  });

  it('a bucket that does not exist: connect() throws UnreachableError naming it, within seconds', async () => {
    const url = open.url.replace('/docbench?', '/no-such-bucket?');
    const wrong = createCouchbaseStore({ url, settings: { 'couchbase.connectTimeout': '2000' }, concurrency: 1 });
    const started = Date.now();
    try {
      await assert.rejects(wrong.connect(), (e: Error) => e instanceof UnreachableError && /bucket "no-such-bucket"/.test(e.message));
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    } finally {
      await wrong.close();
    }
  });
});

describe('an unreachable cluster', { timeout: 60_000 }, () => {
  it('connect() throws UnreachableError within seconds, without the password', async () => {
    const nowhere = createCouchbaseStore({ url: 'couchbase://app:s3cret@127.0.0.1:1/travel', settings: { 'couchbase.connectTimeout': '2000' } , concurrency: 1 });
    const started = Date.now();
    try {
      await assert.rejects(nowhere.connect(), (e: Error) => e instanceof UnreachableError && /no Couchbase cluster answered within 2000 ms/.test(e.message) && !e.message.includes('s3cret'));
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
    } finally {
      await nowhere.close();
    }
  });

  it('a failed connect neither crashes nor holds the process open (checked in a child process)', async () => {
    // The SDK's native core runs threads of its own: the child must still exit by itself, with
    // code 0, once connect() has failed. A crash or a hang shows as a signal, a code or a timeout.
    const script = `
      import { createCouchbaseStore } from './src/stores/couchbase.ts';
      const store = createCouchbaseStore({ url: 'couchbase://app:s3cret@127.0.0.1:1/travel', settings: { 'couchbase.connectTimeout': '1500' } , concurrency: 1 });
      try { await store.connect(); console.log('connected'); } catch (e) { console.log(e.name); }
      await store.close();
    `;
    const started = Date.now();
    const child = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
      const proc = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, timeout: 30_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, signal: proc.signalCode, stdout, stderr });
      });
    });
    assert.equal(child.signal, null, `child killed by ${child.signal} (timeout or crash); stderr: ${child.stderr}`);
    assert.equal(child.code, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'UnreachableError');
    assert.ok(Date.now() - started < 30_000);
  });
});
