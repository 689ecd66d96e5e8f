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
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DocumentExistsError } from 'couchbase';
import { describeStore, openStore, type OpenStore, requestOf } from '../../src/session/store-session.ts';
import { SettingError } from '../../src/common/settings.ts';
import { UserError } from '../../src/common/user-error.ts';
import { localTarget } from '../../src/stores/couchbase/local-target.ts';
import { createStore, CouchbaseStore } from '../../src/stores/couchbase/index.ts';
import { keyspacePath } from '../../src/stores/couchbase/handle.ts';
import { couchbaseConfig } from '../../src/stores/couchbase/settings.ts';
import { CouchbaseUrlError, maskPassword, parseCouchbaseUrl } from '../../src/stores/couchbase/url.ts';
import { scanStatement } from '../../src/stores/couchbase/ycsb.ts';
import { MissingDataError, UnreachableError, UnsupportedError, type FieldMap } from '../../src/stores/store.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TABLE = 'usertable';
const SCHEMA = { table: TABLE, fieldNames: ['field0', 'field1', 'field2'] };
const K = (name: string) => `cbtest-${process.pid}-${name}`;
const fields = (tag: string, n = 3): FieldMap =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`field${i}`, `${tag}-${i}`]));
const REAL_URL = 'couchbase://app:s3cret@db1.example.com,db2.example.com:11210/travel';
const couchbaseStore = (url: string, settings: Record<string, string> = {}) =>
  createStore({ url, settings, concurrency: 1 });

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

  it('each bad URL shape is a one-line user error naming what is wrong and the expected shape, the password masked', () => {
    const cases: Array<[string, RegExp]> = [
      ['couchbase://db1.example.com/travel', /lacks a user name and a password, which Couchbase Server needs/],
      ['couchbase://app@db1.example.com/travel', /lacks a password, which/],
      [
        'couchbase://app:s3cret@db1.example.com',
        /"couchbase:\/\/app:\*\*\*@db1\.example\.com" lacks a bucket name \(the URL path\)/,
      ],
      ['couchbase://db1.example.com', /lacks a user name, a password and a bucket name \(the URL path\)/],
      ['couchbase://app:s3cret@/travel', /"couchbase:\/\/app:\*\*\*@\/travel" lacks a host/],
      [
        'couchbase://app:s3cret@db1.example.com/travel/extra',
        /names "travel\/extra" as its bucket; the URL path is the bucket name alone/,
      ],
      ['couchbase://app:s3cr%ZZet@db1.example.com/travel', /has a malformed %-escape in the password/],
      [
        'http://app:s3cret@db1.example.com/travel',
        /"http:\/\/app:\*\*\*@db1\.example\.com\/travel" is not a Couchbase URL/,
      ],
    ];
    for (const [url, message] of cases) {
      assert.throws(
        () => couchbaseStore(url),
        (e: Error) =>
          e instanceof CouchbaseUrlError &&
          e instanceof UserError &&
          message.test(e.message) &&
          /; expected couchbase:\/\/USER:PASSWORD@host\[:port\]\/BUCKET/.test(e.message) &&
          !e.message.includes('\n') &&
          !e.message.includes('s3cr'),
        url,
      );
    }
  });

  it('masks a password whole, even one holding an unescaped @ or /', () => {
    assert.equal(maskPassword('couchbase://app:p@ss/w@rd@db1/travel?x=a@b'), 'couchbase://app:***@db1/travel?x=a@b');
    assert.equal(maskPassword('couchbase://db1/travel'), 'couchbase://db1/travel');
    assert.equal(maskPassword('couchbase://app@db1/travel'), 'couchbase://app@db1/travel');
  });

  it('an unknown couchbase.* setting is a SettingError with a "did you mean", from -p or from the URL', () => {
    const typo = (e: Error) =>
      e instanceof SettingError &&
      /^unknown setting couchbase\.kvtimeout \(did you mean "couchbase\.kvTimeout"\?\); couchbase understands couchbase\.scope, /.test(
        e.message,
      );
    assert.throws(() => couchbaseStore(REAL_URL, { 'couchbase.kvtimeout': '100' }), typo);
    assert.throws(() => couchbaseStore(`${REAL_URL}?couchbase.kvtimeout=100`), typo);
    assert.throws(
      () => couchbaseStore(REAL_URL, { 'couchbase.managmentUrl': 'http://x:8091' }),
      /did you mean "couchbase\.managementUrl"/,
    );
    // The old pool-size setting is gone: the caller's concurrency is in the store's options.
    assert.throws(() => couchbaseStore(REAL_URL, { 'couchbase.threadcount': '8' }), SettingError);
  });

  it('a bad value is a one-line SettingError naming the key, the value and what was expected', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ 'couchbase.kvTimeout': '0' }, /^couchbase\.kvTimeout=0: expected a whole number >= 1 \(ms per KV operation/],
      [{ 'couchbase.queryTimeout': '2s' }, /^couchbase\.queryTimeout=2s: expected a whole number >= 1/],
      [{ 'couchbase.connectTimeout': '-5' }, /^couchbase\.connectTimeout=-5: expected a whole number >= 1/],
      [
        { 'couchbase.durability': 'all' },
        /^couchbase\.durability=all: expected one of none, majority, majorityAndPersistActive, persistToMajority/,
      ],
      [{ 'couchbase.management': 'no' }, /^couchbase\.management=no: expected true or false/],
      [{ 'couchbase.query': 'yes' }, /^couchbase\.query=yes: expected true or false/],
      [{ 'couchbase.upsert': '1' }, /^couchbase\.upsert=1: expected true or false/],
      [{ 'couchbase.scope': '_system' }, /^couchbase\.scope=_system: expected _default or a Couchbase name/],
      [{ 'couchbase.collection': 'a.b' }, /^couchbase\.collection=a\.b: expected _default or a Couchbase name/],
      [{ 'couchbase.managementUrl': 'ftp://x' }, /^couchbase\.managementUrl=ftp:\/\/x: expected an http\(s\) URL/],
    ];
    for (const [settings, message] of bad) {
      assert.throws(
        () => couchbaseStore(REAL_URL, settings),
        (e: Error) => e instanceof SettingError && message.test(e.message) && !e.message.includes('\n'),
        JSON.stringify(settings),
      );
    }
    // A bad setting given as a URL parameter is caught the same way.
    assert.throws(
      () => couchbaseStore(`${REAL_URL}?couchbase.durability=all`),
      (e: Error) => e instanceof SettingError && /^couchbase\.durability=all: expected one of/.test(e.message),
    );
  });

  it('settings: defaults, URL parameters, and -p settings over URL parameters', () => {
    const defaults = couchbaseConfig(REAL_URL, {});
    assert.equal(defaults.scope, '_default');
    assert.equal(defaults.collection, '_default');
    assert.equal(defaults.kvTimeoutMs, 2500);
    assert.equal(defaults.queryTimeoutMs, 75_000);
    assert.equal(defaults.connectTimeoutMs, 5000);
    assert.equal(defaults.durabilityName, 'none');
    assert.equal(defaults.upsert, false);
    assert.equal(defaults.query, true);
    assert.equal(defaults.management, true);
    assert.equal(defaults.managementUrl, 'http://db1.example.com:8091');
    assert.equal(couchbaseConfig('couchbases://u:p@h.example.com/b', {}).managementUrl, 'https://h.example.com:18091');
    assert.equal(
      couchbaseConfig(REAL_URL, { 'couchbase.managementUrl': 'https://mgmt.example.com:18091/ui/' }).managementUrl,
      'https://mgmt.example.com:18091',
    );
    // Other stores' settings are not couchbase's business.
    assert.equal(couchbaseConfig(REAL_URL, { 'redis.autopipelining': 'true' }).scope, '_default');

    const merged = couchbaseConfig(`${REAL_URL}?couchbase.query=false&couchbase.collection=users`, {
      'couchbase.query': 'true',
      'couchbase.durability': 'MajorityAndPersistActive',
      'couchbase.kvTimeout': '10000',
    });
    assert.equal(merged.query, true, '-p wins over the URL');
    assert.equal(merged.collection, 'users');
    assert.equal(merged.durabilityName, 'majorityAndPersistActive');
    assert.equal(merged.kvTimeoutMs, 10_000);
  });

  it("builds Altoros 2022's scan statement over the keyspace path", () => {
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
    // Keys only (scankeysonly): Altoros 2022's own statement.
    assert.equal(
      scanStatement(ks, []),
      'SELECT meta().id AS id FROM `travel`.`_default`.`users` AS d WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2',
    );
  });

  it('through the CLI, a bad URL exits 2 with one line, the password masked', () => {
    const r = runDocbench([
      'run',
      '--store',
      'couchbase',
      '--url',
      'couchbase://app:s3cret@db1.example.com',
      '-P',
      'workloada',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(r, /lacks a bucket name/);
    assert.equal(r.stderr.includes('s3cret'), false);
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
    open = await openStore(
      'couchbase',
      undefined,
      requestOf(loadWorkload(['workloada'], ['threadcount=4']).properties),
    );
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
    const t = parseCouchbaseUrl(localTarget.url);
    assert.ok(t.username && t.password && t.bucket);
    assert.deepEqual(t.urlSettings, {
      'couchbase.management': 'false',
      'couchbase.query': 'false',
      'couchbase.upsert': 'true',
    });
    assert.equal(open.url, localTarget.url);
    assert.equal(open.local, true);
  });

  it('its handle exposes the SDK cluster, bucket, collections, keyspace paths and capabilities for scenario code', () => {
    const handle = store.handle;
    assert.equal(handle.bucket().name, 'docbench');
    assert.equal(handle.collection().name, '_default');
    assert.equal(handle.collection('persons').name, 'persons');
    assert.equal(
      store.collectionFor(TABLE),
      handle.collection(),
      'every YCSB table lives in the configured collection',
    );
    assert.equal(handle.keyspace(), '`docbench`.`_default`.`_default`');
    assert.equal(handle.keyspace('orders'), '`docbench`.`_default`.`orders`');
    assert.equal(typeof handle.cluster().query, 'function');
    assert.deepEqual(handle.capabilities(), {
      bucket: 'docbench',
      scope: '_default',
      collection: '_default',
      query: false,
      management: false,
      upsert: true,
    });
    assert.throws(() => handle.requireQuery('PAGINATION'), UnsupportedError);
  });

  it('through the CLI, an unknown couchbase.* setting exits 2 with one line and no stack trace', () => {
    const r = runDocbench([
      'run',
      '--store',
      'couchbase',
      '-P',
      'workloada',
      '-p',
      'couchbase.nosuch=1',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(r, /unknown setting couchbase\.nosuch; couchbase understands couchbase\.scope/);
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
    const writers = Array.from({ length: 6 }, (_, w) =>
      Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`field${i}`, `w${w}`])),
    );
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
    const createOnly = couchbaseStore(open.url, { 'couchbase.upsert': 'false' });
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
    const records = Array.from({ length: 250 }, (_, i) => ({
      key: K(`bulk${String(i).padStart(3, '0')}`),
      fields: fields(`b${i}`),
    }));
    for (const r of records) written.add(r.key);
    await store.insertMany(TABLE, records);
    for (const r of records) assert.deepEqual(await store.read(TABLE, r.key, null), r.fields);
  });

  it('insertMany with create-only inserts stores the rest and names the first duplicate', async () => {
    await insert(K('batch-existing'), fields('e'));
    const createOnly = couchbaseStore(open.url, { 'couchbase.upsert': 'false' });
    await createOnly.connect();
    try {
      for (const k of ['batch-new1', 'batch-new2']) written.add(K(k));
      const batch = [
        { key: K('batch-new1'), fields: fields('n1') },
        { key: K('batch-existing'), fields: fields('again') },
        { key: K('batch-new2'), fields: fields('n2') },
      ];
      await assert.rejects(
        createOnly.insertMany(TABLE, batch),
        new RegExp(`stored 2 of 3 documents; first failure "${K('batch-existing')}": document exists`),
      );
      assert.deepEqual(await stored(K('batch-existing')), fields('e'));
      assert.deepEqual(await stored(K('batch-new1')), fields('n1'));
      assert.deepEqual(await stored(K('batch-new2')), fields('n2'));
    } finally {
      await createOnly.close();
    }
  });

  it('scan is UNSUPPORTED on the KV-only stand-in: it throws UnsupportedError before any request', async () => {
    await assert.rejects(
      store.scan(TABLE, K(''), 10, null),
      (e: Error) => e instanceof UnsupportedError && /couchbase\.query=false/.test(e.message),
    );
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
    assert.equal(
      described.standIn?.name,
      'CouchbaseMock',
      'named from the local target, since the mock cannot say what it is',
    );
    assert.equal(described.standIn?.version, '1.5.27');
    assert.equal(described.server, 'CouchbaseMock');
    assert.equal(described.serverVersion, '1.5.27');
    assert.equal(described.extra?.serverVersionFrom, 'the local target docbench installed');
    assert.match(described.standIn?.note ?? '', /KV only: no SQL\+\+/);
    assert.equal(described.localTarget, true);
    assert.equal(described.url.includes(':password@'), false, 'password redacted');
    const info = await localTarget.info();
    assert.equal(info.standIn, true);
    assert.equal(info.product, 'CouchbaseMock 1.5.27');
  });

  it('a bucket that does not exist: connect() throws MissingDataError naming it, in one line', async () => {
    const url = open.url.replace('/docbench?', '/no-such-bucket?');
    const wrong = couchbaseStore(url, { 'couchbase.connectTimeout': '2000' });
    try {
      await assert.rejects(
        wrong.connect(),
        (e: Error) =>
          e instanceof MissingDataError &&
          /the bucket "no-such-bucket" does not exist; the server says bucket not found/.test(e.message) &&
          !e.message.includes('\n'),
      );
    } finally {
      await wrong.close();
    }
  });
});

describe('an unreachable cluster', { timeout: 120_000 }, () => {
  it("connect() throws UnreachableError from the SDK's own timeout, set by couchbase.connectTimeout, without the password", async () => {
    // A port that accepts connections and never says a word (a refused one is named as such).
    const silent = createTcpServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const nowhere = couchbaseStore(`couchbase://app:s3cret@127.0.0.1:${port}/travel`, {
      'couchbase.connectTimeout': '1000',
    });
    try {
      await assert.rejects(nowhere.connect(), (e: Error) => {
        assert.ok(e instanceof UnreachableError, String(e));
        assert.match(e.message, /no Couchbase cluster answered within 1000 ms \(couchbase\.connectTimeout\)/);
        // Nothing answers, so a timer ends connect(): the SDK's bootstrap timeout (the setting's
        // 1 s; its default is 10 s), or docbench's guard 5 s after the setting, which names itself.
        // The SDK's timer firing first shows the setting reached the SDK, with no clock read here.
        assert.doesNotMatch(e.message, /did not finish within/);
        assert.equal(e.message.includes('s3cret'), false);
        return true;
      });
    } finally {
      await nowhere.close();
      silent.close();
    }
  });

  it('a port where nothing listens: connect() says the connection was refused (the SDK itself retries it until its timeout)', async () => {
    const nowhere = couchbaseStore('couchbase://app:s3cret@127.0.0.1:1/travel', { 'couchbase.connectTimeout': '1000' });
    try {
      await assert.rejects(
        nowhere.connect(),
        (e: Error) =>
          e instanceof UnreachableError &&
          /connection refused at 127\.0\.0\.1:1: nothing listens there/.test(e.message) &&
          !e.message.includes('s3cret'),
      );
    } finally {
      await nowhere.close();
    }
  });

  it('a failed connect neither crashes nor holds the process open (checked in a child process)', async () => {
    // The SDK's native core runs threads of its own: the child must still exit by itself, with
    // code 0, once connect() has failed. A crash or a hang shows as a signal, a code or a timeout
    // (60 s: a hang detector only, far beyond the child's start-up and 1.5 s connect on a loaded machine).
    const script = `
      import { createStore } from './src/stores/couchbase/index.ts';
      const store = createStore({ url: 'couchbase://app:s3cret@127.0.0.1:1/travel', settings: { 'couchbase.connectTimeout': '1500' }, concurrency: 1 });
      try { await store.connect(); console.log('connected'); } catch (e) { console.log(e.name); }
      await store.close();
    `;
    const child = await new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
      (resolve) => {
        const proc = execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script],
          { cwd: REPO, timeout: 60_000 },
          (error, stdout, stderr) => {
            resolve({
              code: error ? ((error as { code?: number }).code ?? null) : 0,
              signal: proc.signalCode,
              stdout,
              stderr,
            });
          },
        );
      },
    );
    assert.equal(child.signal, null, `child killed by ${child.signal} (timeout or crash); stderr: ${child.stderr}`);
    assert.equal(child.code, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'UnreachableError');
  });
});
