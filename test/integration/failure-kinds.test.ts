/**
 * Failure kinds, driver by driver: each official driver's real errors, provoked against servers
 * this test owns, caught from docbench's store adapters (so what the adapters add is included)
 * and fed to the classifier, which must file each as the row says: SERVICE_UNAVAILABLE (refused,
 * reset, closed), TIMEOUT (no answer in time) or ERROR. The faults are the server killed with a
 * call in flight (SIGKILL while paused, so the call has reached its socket), the server down
 * (a call after the kill), and the server paused (SIGSTOP) past a timeout set short for the test.
 * Each row's error is logged as a diagnostic, so the test's output is the table of what each
 * driver really throws.
 *
 * Then the connect rows: the CLI against a bad URL (no login, a wrong password, a wrong port, a
 * missing database/keyspace/bucket, TLS to a plain port and plain to a TLS port) must exit 2 with
 * one line naming the cause.
 *
 * Servers: private Redis, PostgreSQL, SecantusDB (the MongoDB stand-in), pouchdb-server (the
 * CouchDB stand-in) and CouchbaseMock (the Couchbase stand-in), started here on free ports and
 * killed by their pids (PostgreSQL's whole process group: the postmaster and its backends). A private Cassandra node is too heavy for CI (a 1 GB JVM, most of a minute to
 * start), so Cassandra's rows run through a forwarder in front of the shared local Cassandra: the
 * forwarder resetting its connections stands for the node killed, refusing new ones for the node
 * down, and holding every byte for the node paused (those rows run in a child process:
 * test/support/cassandra-fault-rows.ts says why). TLS ports are a TLS-terminating forwarder
 * in front of a server (as stunnel or a load balancer would be), with a throwaway CA made by
 * openssl, except Redis, PostgreSQL and SecantusDB, which serve TLS themselves.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { statusOfError } from '../../src/measure/timed.ts';
import type { Status } from '../../src/measure/status.ts';
import { createStore as cassandraStore } from '../../src/stores/cassandra/index.ts';
import { createStore as couchbaseStore } from '../../src/stores/couchbase/index.ts';
import { createStore as couchdbStore } from '../../src/stores/couchdb/index.ts';
import { createStore as mongodbStore } from '../../src/stores/mongodb/index.ts';
import { createStore as postgresStore } from '../../src/stores/postgres/index.ts';
import { createStore as redisStore } from '../../src/stores/redis/index.ts';
import type { Store, YcsbSchema } from '../../src/stores/store.ts';
import { assertUserError } from '../support/cli.ts';
import { forward, forwardTls, runDocbenchAsync, throughForwarder, type Forwarder } from '../support/forwarder.ts';
import {
  freePort,
  makeCertificates,
  privateCouchbase,
  privateCouchdb,
  privateMongodb,
  privatePostgres,
  privateRedis,
} from '../support/private-server.ts';
import { testsStore } from '../support/stores.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'docbench-failure-kinds-'));
after(() => rmSync(work, { recursive: true, force: true }));

const TABLE = 'usertable';
const SCHEMA: YcsbSchema = { table: TABLE, fieldNames: ['field0'] };
const RECORD = { field0: 'v' };
/** Long enough for a request to reach a paused server's socket (if it has not, the fault is a refusal: the same kind). */
const IN_FLIGHT_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An error as the table shows it: each error of the chain as Class[code]: message (first line, cut short). */
function shape(error: unknown): string {
  const parts: string[] = [];
  for (
    let e = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 3;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { name, code, message, constructor } = e as {
      name?: string;
      code?: unknown;
      message?: string;
      constructor?: { name?: string };
    };
    const className = name && name !== 'Error' ? name : (constructor?.name ?? 'Error');
    parts.push(
      `${className}${code !== undefined ? `[${String(code)}]` : ''}: ${String(message ?? '')
        .split('\n')[0]!
        .slice(0, 90)}`,
    );
  }
  return parts.join(' <- ');
}

/** What `call` threw (it must throw). */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return assert.fail('the call succeeded, but the fault should have made it fail');
}

/** One row: the store call's error, logged, and filed as `expected`. */
async function row(t: TestContext, what: string, expected: Status, call: () => Promise<unknown>): Promise<void> {
  const error = await failure(call);
  const status = statusOfError(error);
  t.diagnostic(`${what} | ${shape(error)} | ${status}`);
  assert.equal(status, expected, `${what}: ${shape(error)}`);
}

/** Start `call`, let it reach the paused server, then apply `fault`; resolves with what the call threw. */
async function midCall(
  call: () => Promise<unknown>,
  fault: () => Promise<void> | void,
): Promise<() => Promise<unknown>> {
  const settled = call().then(
    () => assert.fail('the call succeeded, but the fault should have made it fail'),
    (error: unknown) => error,
  );
  await sleep(IN_FLIGHT_MS);
  await fault();
  return async () => {
    throw await settled;
  };
}

/** The CLI against a bad URL: exit 2, one line matching `pattern`, no result file. */
async function connectRow(
  t: TestContext,
  what: string,
  store: string,
  url: string,
  pattern: RegExp,
  settings: string[] = [],
): Promise<void> {
  const out = join(work, 'never-written.json');
  const r = await runDocbenchAsync(
    [
      'run',
      '--store',
      store,
      '--url',
      url,
      '-P',
      'workloadc',
      '-p',
      'recordcount=1',
      '-p',
      'operationcount=1',
      ...settings.flatMap((s) => ['-p', s]),
      '--out',
      out,
    ],
    { timeoutMs: 120_000 },
  );
  t.diagnostic(`${what} | ${r.stderr.trim()}`);
  assertUserError(r, pattern, out);
}

/** Opened stores, closed after each suite. */
function stores() {
  const open: Store[] = [];
  return {
    async connect<S extends Store>(store: S): Promise<S> {
      open.push(store);
      await store.connect();
      return store;
    },
    async close(): Promise<void> {
      for (const store of open.splice(0)) await store.close().catch(() => {});
    },
  };
}

/** The kill/down/pause rows every store shares, on a store holding one record. */
async function outageRows(
  t: TestContext,
  label: string,
  store: Store,
  server: { pause(): Promise<void>; resume(): void; kill(): Promise<void> },
): Promise<void> {
  await server.pause();
  const killed = await midCall(
    () => store.read(TABLE, 'k1', null),
    () => server.kill(),
  );
  await row(t, `${label}, killed mid-call`, 'SERVICE_UNAVAILABLE', killed);
  await row(t, `${label}, down (a call after the kill)`, 'SERVICE_UNAVAILABLE', () => store.read(TABLE, 'k1', null));
}

describe(
  'Redis (ioredis and node-redis) on a private redis-server',
  { skip: !testsStore('redis'), timeout: 180_000 },
  () => {
    for (const driver of ['ioredis', 'node-redis']) {
      it(`${driver}: paused past redis.commandtimeout, killed mid-call, down`, async (t) => {
        const server = await privateRedis();
        if (server.missing) return t.skip(server.missing);
        const open = stores();
        try {
          await server.start();
          const store = await open.connect(
            redisStore({
              url: server.url,
              settings: { 'redis.driver': driver, 'redis.commandtimeout': '1000' },
              concurrency: 1,
            }),
          );
          await store.insert(TABLE, 'k1', RECORD);
          await server.pause();
          await row(t, `redis (${driver}), paused`, 'TIMEOUT', () => store.read(TABLE, 'k1', null));
          server.resume();
          await outageRows(t, `redis (${driver})`, store, server);
        } finally {
          await open.close();
          await server.dispose();
        }
      });
    }

    it('connect: no password, a wrong one, a wrong port, rediss:// to a plain port and redis:// to a TLS one (both clients)', async (t) => {
      const withPassword = await privateRedis({ password: 'sekret' });
      const tls = await privateRedis({ tls: true });
      if (withPassword.missing || tls.missing) return t.skip(withPassword.missing ?? tls.missing);
      try {
        await withPassword.start();
        await tls.start();
        const plain = withPassword.url.replace('redis://', '');
        const tlsAddress = tls.url.replace('rediss://', '');
        const nowhere = `127.0.0.1:${await freePort()}`;
        for (const driver of ['ioredis', 'node-redis']) {
          const settings = [`redis.driver=${driver}`];
          await connectRow(
            t,
            `redis (${driver}), no password`,
            'redis',
            `redis://${plain}`,
            /refused access: the server requires a password \(NOAUTH .*\); give it in the URL/,
            settings,
          );
          await connectRow(
            t,
            `redis (${driver}), wrong password`,
            'redis',
            `redis://:wrong@${plain}`,
            /redis:\/\/:\*\*\*@.* refused access: the server refused the user name or password in the URL \(WRONGPASS /,
            settings,
          );
          await connectRow(
            t,
            `redis (${driver}), wrong port`,
            'redis',
            `redis://${nowhere}`,
            /cannot reach redis at .*: nothing listens on /,
            settings,
          );
          await connectRow(
            t,
            `redis (${driver}), rediss:// to a plain port`,
            'redis',
            `rediss://${plain}`,
            /TLS mismatch: .* speaks plain Redis, not TLS .*; use redis:\/\//,
            settings,
          );
          await connectRow(
            t,
            `redis (${driver}), redis:// to a TLS port`,
            'redis',
            `redis://${tlsAddress}`,
            /TLS mismatch: .* speaks TLS .*; use rediss:\/\//,
            settings,
          );
        }
      } finally {
        await withPassword.dispose();
        await tls.dispose();
      }
    });
  },
);

describe(
  'MongoDB (the mongodb driver) on a private SecantusDB, the stand-in',
  { skip: !testsStore('mongodb'), timeout: 240_000 },
  () => {
    it('paused past socketTimeoutMS, killed mid-call, down', async (t) => {
      const server = await privateMongodb();
      if (server.missing) return t.skip(server.missing);
      const open = stores();
      try {
        await server.start();
        // Short timeouts, set the way a user sets them (the URL); reads not retried, so the row shows
        // the network error itself (a retried read ends in the selection error: the same kind).
        const url = `${server.url}&socketTimeoutMS=1000&connectTimeoutMS=1000&retryReads=false`;
        const store = await open.connect(
          mongodbStore({ url, settings: { 'mongodb.serverSelectionTimeoutMS': '1500' }, concurrency: 1 }),
        );
        await store.prepare(SCHEMA);
        await store.insert(TABLE, 'k1', RECORD);
        await server.pause();
        await row(t, 'mongodb, paused', 'TIMEOUT', () => store.read(TABLE, 'k1', null));
        server.resume();
        await outageRows(t, 'mongodb', store, server);
      } finally {
        await open.close();
        await server.dispose();
      }
    });

    it('connect: no login and a wrong password (--auth), tls=true to a plain server and none to a TLS one, a wrong port, a missing collection', async (t) => {
      const login = { user: 'bench', password: 'sekret' };
      const auth = await privateMongodb({ login });
      const tls = await privateMongodb({ tls: true });
      const plain = await privateMongodb();
      if (auth.missing || tls.missing) return t.skip(auth.missing ?? tls.missing);
      try {
        await Promise.all([auth.start(), tls.start(), plain.start()]);
        const settings = ['mongodb.serverSelectionTimeoutMS=1500'];
        const address = (url: string) => /@?(127\.0\.0\.1:\d+)/.exec(url)![1];
        await connectRow(
          t,
          'mongodb, no login',
          'mongodb',
          `mongodb://${address(auth.url)}/?directConnection=true`,
          /refused access: the server requires a login \(Unauthorized: .*\); give one as mongodb:\/\/USER:PASSWORD@/,
          settings,
        );
        await connectRow(
          t,
          'mongodb, wrong password',
          'mongodb',
          `mongodb://bench:wrong@${address(auth.url)}/?directConnection=true`,
          /mongodb:\/\/bench:\*\*\*@.* refused access: the server refused the user name or password in the URL \(Authentication failed\.\)/,
          settings,
        );
        await connectRow(
          t,
          'mongodb, tls=true to a plain server',
          'mongodb',
          `${plain.url}&tls=true`,
          /TLS mismatch: .* speaks MongoDB without TLS; remove tls=true/,
          settings,
        );
        await connectRow(
          t,
          'mongodb, no TLS to a TLS server',
          'mongodb',
          tls.url.replace('&tls=true', ''),
          /TLS mismatch: .* speaks TLS; add tls=true to the URL/,
          settings,
        );
        await connectRow(
          t,
          'mongodb, wrong port',
          'mongodb',
          `mongodb://127.0.0.1:${await freePort()}/?directConnection=true`,
          /no server answered within the server selection timeout of 1500 ms \(connect ECONNREFUSED/,
          settings,
        );
        await connectRow(
          t,
          'mongodb, missing collection',
          'mongodb',
          plain.url,
          /the collection "ycsb\.usertable" does not exist; load it first: docbench load --store mongodb/,
          settings,
        );
      } finally {
        await Promise.all([auth.dispose(), tls.dispose(), plain.dispose()]);
      }
    });
  },
);

describe(
  'CouchDB (nano on undici) on a private pouchdb-server, the stand-in',
  { skip: !testsStore('couchdb'), timeout: 180_000 },
  () => {
    it('paused past couchdb.requesttimeout, killed mid-call, down; the connection closed under a call', async (t) => {
      const server = await privateCouchdb();
      if (server.missing) return t.skip(server.missing);
      const open = stores();
      let forwarder: Forwarder | undefined;
      try {
        await server.start();
        const settings = { 'couchdb.requesttimeout': '1000', 'couchdb.database': 'faults' };
        const store = await open.connect(couchdbStore({ url: server.url, settings, concurrency: 1 }));
        await store.prepare(SCHEMA);
        await store.insert(TABLE, 'k1', RECORD);
        // A server process that exits with nothing unread closes its connections (FIN), and undici
        // says "other side closed": a forwarder hanging up stands for it.
        const port = Number(new URL(server.url).port);
        forwarder = await forward('127.0.0.1', port);
        const through = await open.connect(
          couchdbStore({ url: throughForwarder(server.url, forwarder), settings, concurrency: 1 }),
        );
        forwarder.pause();
        const closed = await midCall(
          () => through.read(TABLE, 'k1', null),
          () => forwarder!.hangUp(),
        );
        forwarder.resume();
        await row(t, 'couchdb, the connection closed mid-call', 'SERVICE_UNAVAILABLE', closed);
        await server.pause();
        await row(t, 'couchdb, paused', 'TIMEOUT', () => store.read(TABLE, 'k1', null));
        server.resume();
        await outageRows(t, 'couchdb', store, server);
      } finally {
        await open.close();
        await forwarder?.close();
        await server.dispose();
      }
    });

    it('connect: no login, a wrong password, a wrong port, a missing database, https:// to a plain port and http:// to a TLS one', async (t) => {
      const server = await privateCouchdb();
      if (server.missing) return t.skip(server.missing);
      let tls: { port: number; close(): Promise<void> } | undefined;
      try {
        await server.start();
        const port = Number(new URL(server.url).port);
        tls = await forwardTls('127.0.0.1', port, makeCertificates(mkdtempSync(join(work, 'certs-'))));
        const settings = ['couchdb.connecttimeout=1500'];
        await connectRow(
          t,
          'couchdb, no login',
          'couchdb',
          `http://127.0.0.1:${port}`,
          /refused access: the URL has no login, and the server does not take requests without one as an admin/,
          settings,
        );
        await connectRow(
          t,
          'couchdb, wrong password',
          'couchdb',
          `http://admin:wrong@127.0.0.1:${port}`,
          /http:\/\/admin:\*\*\*@.* refused access: the server refused the user name or password in the URL \(401 Name or password is incorrect\.\)/,
          settings,
        );
        await connectRow(
          t,
          'couchdb, wrong port',
          'couchdb',
          `http://admin:password@127.0.0.1:${await freePort()}`,
          /connection refused .*: nothing listens there/,
          settings,
        );
        await connectRow(
          t,
          'couchdb, missing database',
          'couchdb',
          `${server.url}/no_such_db`,
          /the database "no_such_db" does not exist; load it first: docbench load --store couchdb/,
          settings,
        );
        await connectRow(
          t,
          'couchdb, https:// to a plain port',
          'couchdb',
          server.url.replace('http://', 'https://'),
          /TLS mismatch: .* speaks plain HTTP, not TLS .*; use http:\/\//,
          settings,
        );
        await connectRow(
          t,
          'couchdb, http:// to a TLS port',
          'couchdb',
          `http://admin:password@127.0.0.1:${tls.port}`,
          /TLS mismatch: .* speaks TLS .*; use https:\/\//,
          settings,
        );
      } finally {
        await tls?.close();
        await server.dispose();
      }
    });
  },
);

describe(
  'Cassandra (cassandra-driver) through a forwarder in front of the shared local Cassandra',
  { skip: !testsStore('cassandra'), timeout: 240_000 },
  () => {
    let url: string;
    before(async () => {
      url = (await (await localTarget('cassandra')).start(() => {})).url;
    });

    it('paused past cassandra.readtimeout, reset mid-call (killed), refused (down)', async (t) => {
      // In a child process of its own (test/support/cassandra-fault-rows.ts says why), which prints its rows.
      const child = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [
            '--import',
            'tsx',
            join('test', 'support', 'cassandra-fault-rows.ts'),
            url,
            `docbench_faults_${process.pid}`,
          ],
          { cwd: ROOT, timeout: 180_000 },
          (error, stdout, stderr) => {
            resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
          },
        );
      });
      assert.equal(child.code, 0, child.stderr);
      const rows = child.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { what: string; shape: string; status: Status });
      const expected: Record<string, Status> = {
        'cassandra, paused': 'TIMEOUT',
        'cassandra, killed mid-call (connections reset)': 'SERVICE_UNAVAILABLE',
        'cassandra, down (connections refused)': 'SERVICE_UNAVAILABLE',
      };
      assert.deepEqual(
        rows.map((r) => r.what),
        Object.keys(expected),
      );
      for (const r of rows) {
        t.diagnostic(`${r.what} | ${r.shape} | ${r.status}`);
        assert.equal(r.status, expected[r.what], `${r.what}: ${r.shape}`);
      }
    });

    it('connect: a wrong port, a missing keyspace; no login and a wrong password where the node asks for one', async (t) => {
      const port = new URL(url.replace(/^cassandra:/, 'http:')).port;
      await connectRow(
        t,
        'cassandra, wrong port',
        'cassandra',
        url.replace(`:${port}`, `:${await freePort()}`),
        /cannot reach cassandra at .*: connection refused \(is Cassandra running/,
      );
      await connectRow(
        t,
        'cassandra, missing keyspace',
        'cassandra',
        url.replace('/?', '/no_such_keyspace?'),
        /the keyspace "no_such_keyspace" does not exist; load it first: docbench load --store cassandra/,
      );
      const withoutLogin = url.replace(/\/\/[^@/]*@/, '//');
      const probe = cassandraStore({ url: withoutLogin, settings: {}, concurrency: 1 });
      const asksForLogin = await probe.connect().then(
        () => false,
        () => true,
      );
      await probe.close();
      if (!asksForLogin)
        return t.skip(
          'the local Cassandra runs without PasswordAuthenticator (it was started before its local target asked for a login)',
        );
      await connectRow(
        t,
        'cassandra, no login',
        'cassandra',
        withoutLogin,
        /refused access: the server requires a login \(.*\); put USER:PASSWORD@ in the URL/,
      );
      await connectRow(
        t,
        'cassandra, wrong password',
        'cassandra',
        url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:wrong@'),
        /:\*\*\*@.* refused access: the server refused user "cassandra" \(.*\); check the URL's user and password/,
      );
    });
  },
);

describe(
  'Couchbase (the Couchbase SDK) on a private CouchbaseMock, the stand-in',
  { skip: !testsStore('couchbase'), timeout: 180_000 },
  () => {
    it('paused past couchbase.kvTimeout, killed mid-call (a read, and a write), down', async (t) => {
      const server = await privateCouchbase();
      if (server.missing) return t.skip(server.missing);
      const open = stores();
      try {
        await server.start();
        const store = await open.connect(
          couchbaseStore({ url: server.url, settings: { 'couchbase.kvTimeout': '1000' }, concurrency: 1 }),
        );
        await store.insert(TABLE, 'k1', RECORD);
        await server.pause();
        await row(t, 'couchbase, paused (a read)', 'TIMEOUT', () => store.read(TABLE, 'k1', null));
        await sleep(IN_FLIGHT_MS);
        const write = store.update(TABLE, 'k1', RECORD).then(
          () => assert.fail('the write succeeded'),
          (error: unknown) => error,
        );
        const killed = await midCall(
          () => store.read(TABLE, 'k1', null),
          () => server.kill(),
        );
        await row(t, 'couchbase, killed mid-call (a read)', 'SERVICE_UNAVAILABLE', killed);
        await row(t, 'couchbase, killed mid-call (a write)', 'SERVICE_UNAVAILABLE', async () => {
          throw await write;
        });
        await row(t, 'couchbase, down (a call after the kill)', 'SERVICE_UNAVAILABLE', () =>
          store.read(TABLE, 'k1', null),
        );
      } finally {
        await open.close();
        await server.dispose();
      }
    });

    it('connect: a missing bucket, a wrong port, couchbases:// to a plain port and couchbase:// to a TLS one', async (t) => {
      const server = await privateCouchbase();
      if (server.missing) return t.skip(server.missing);
      let tls: { port: number; close(): Promise<void> } | undefined;
      try {
        await server.start();
        const kvPort = Number(/@127\.0\.0\.1:(\d+)\//.exec(server.url)![1]);
        tls = await forwardTls('127.0.0.1', kvPort, makeCertificates(mkdtempSync(join(work, 'certs-'))));
        const settings = ['couchbase.connectTimeout=1500'];
        const at = (port: number) => server.url.replace(`:${kvPort}/`, `:${port}/`);
        await connectRow(
          t,
          'couchbase, missing bucket',
          'couchbase',
          server.url.replace('/docbench?', '/no_such_bucket?'),
          /the bucket "no_such_bucket" does not exist; the server says bucket not found/,
          settings,
        );
        await connectRow(
          t,
          'couchbase, wrong port',
          'couchbase',
          at(await freePort()),
          /connection refused at 127\.0\.0\.1:\d+: nothing listens there/,
          settings,
        );
        await connectRow(
          t,
          'couchbase, couchbases:// to a plain port',
          'couchbase',
          server.url.replace('couchbase://', 'couchbases://'),
          /TLS mismatch: .* speaks Couchbase's KV protocol without TLS; use couchbase:\/\//,
          settings,
        );
        await connectRow(
          t,
          'couchbase, couchbase:// to a TLS port',
          'couchbase',
          at(tls.port),
          /TLS mismatch: .* speaks TLS; use couchbases:\/\//,
          settings,
        );
      } finally {
        await tls?.close();
        await server.dispose();
      }
    });
  },
);

describe(
  'PostgreSQL (node-postgres) on a private PostgreSQL',
  { skip: !testsStore('postgres'), timeout: 240_000 },
  () => {
    it('paused past postgres.queryTimeoutMs, a session terminated by an administrator, killed mid-call, down', async (t) => {
      const server = await privatePostgres();
      if (server.missing) return t.skip(server.missing);
      const open = stores();
      try {
        await server.start();
        const settings = { 'postgres.queryTimeoutMs': '1000', 'postgres.connectTimeoutMs': '1500' };
        const store = await open.connect(postgresStore({ url: server.url, settings, concurrency: 1 }));
        await store.prepare(SCHEMA);
        await store.insert(TABLE, 'k1', RECORD);
        // pg_terminate_backend from a session of its own: the server's FATAL 57P01 to the statement in flight.
        const admin = await open.connect(postgresStore({ url: server.url, settings: {}, concurrency: 1 }));
        const terminated = await midCall(
          () => store.handle.query("SELECT pg_sleep(5), 'docbench-terminate-me'"),
          async () => {
            await admin.handle.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%docbench-terminate-' || 'me%'",
            );
          },
        );
        await row(t, 'postgres, its session terminated by an administrator', 'SERVICE_UNAVAILABLE', terminated);
        await store.read(TABLE, 'k1', null); // a fresh connection, before the pause
        await server.pause();
        await row(t, 'postgres, paused', 'TIMEOUT', () => store.read(TABLE, 'k1', null));
        server.resume();
        await outageRows(t, 'postgres', store, server);
      } finally {
        await open.close();
        await server.dispose();
      }
    });

    it('connect: no sslmode to a TLS-only server, verify-full without its CA, a wrong port; verify-full with it connects encrypted', async (t) => {
      const server = await privatePostgres({ tls: 'only' });
      if (server.missing) return t.skip(server.missing);
      try {
        await server.start();
        const settings = ['postgres.connectTimeoutMs=1500'];
        await connectRow(
          t,
          'postgres, no sslmode to a TLS-only server',
          'postgres',
          server.url,
          /refused access: TLS mismatch: the server accepts only encrypted connections \(.*no encryption\); add \?sslmode=require/,
          settings,
        );
        await connectRow(
          t,
          'postgres, sslmode=verify-full without the CA',
          'postgres',
          `${server.url}?sslmode=verify-full`,
          /the server's TLS certificate failed the check of sslmode=verify-full: .*give sslrootcert=<CA file> in the URL, or sslmode=require/,
          settings,
        );
        await connectRow(
          t,
          'postgres, wrong port',
          'postgres',
          server.url.replace(/:\d+\//, `:${await freePort()}/`),
          /cannot reach postgres at .*: connection refused \(connect ECONNREFUSED .*\): nothing listens there/,
          settings,
        );
        const verified = postgresStore({
          url: `${server.url}?sslmode=verify-full&sslrootcert=${server.certificates!.ca}`,
          settings: {},
          concurrency: 1,
        });
        try {
          await verified.connect();
          const stats = await verified.stats();
          assert.equal(stats.encrypted, true);
          assert.match(
            String(stats.extra?.tls),
            /verify-full: the certificate checked against sslrootcert and the host name/,
          );
        } finally {
          await verified.close();
        }
      } finally {
        await server.dispose();
      }
    });
  },
);
