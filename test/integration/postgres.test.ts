/**
 * The PostgreSQL store against docbench's local PostgreSQL (started here if not running, and
 * left running: other tests share it): the shared store contract, its stats and session
 * settings, and the CLI's one line for each bad connection on the local server's own port (no
 * password, a wrong one, a missing database, a table never loaded, TLS asked of a server without
 * it). A server that accepts only TLS is in the failure-kinds test, on a private server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { statusOfError } from '../../src/measure/timed.ts';
import { createStore } from '../../src/stores/postgres/index.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract({
  store: 'postgres',
  unreachableUrl: 'postgres://docbench:docbench@127.0.0.1:1/docbench',
  updateDetectsMissing: true,
  deleteDetectsMissing: true,
  extra: (get) => {
    it('reports the table size on disk (pg_total_relation_size), the cache hit ratio and the TLS mode', async () => {
      const stats = await get().stats();
      assert.equal(stats.server, 'PostgreSQL');
      assert.match(stats.serverVersion, /^\d+\.\d+/);
      assert.match(stats.driver, /^pg \d+\./);
      assert.ok((stats.diskBytes ?? 0) > 0, JSON.stringify(stats));
      const ratio = Number(stats.extra?.cacheHitRatio);
      assert.ok(ratio > 0 && ratio <= 1, JSON.stringify(stats.extra));
      assert.equal(stats.extra?.tls, 'off (no sslmode)');
      assert.equal(stats.encrypted, false);
    });
  },
});

describe('postgres session settings and bad connections on the local server', { timeout: 240_000 }, () => {
  let url: string;
  const work = mkdtempSync(join(tmpdir(), 'docbench-postgres-'));
  before(async () => {
    url = (await (await localTarget('postgres')).start(() => {})).url;
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('postgres.synchronousCommit and postgres.statementTimeoutMs apply to its sessions (a long statement is a TIMEOUT)', async () => {
    const store = createStore({
      url,
      settings: { 'postgres.synchronousCommit': 'off', 'postgres.statementTimeoutMs': '200' },
      concurrency: 2,
    });
    try {
      await store.connect();
      const stats = await store.stats();
      assert.equal(stats.extra?.['server.synchronous_commit'], 'off');
      assert.equal(stats.extra?.['server.statement_timeout'], '200');
      assert.equal(stats.consistency?.writes, 'synchronous_commit=off');
      const error = await store.handle.query('SELECT pg_sleep(5)').then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.equal((error as { code?: string }).code, '57014', String(error));
      assert.equal(statusOfError(error), 'TIMEOUT');
    } finally {
      await store.close();
    }
  });

  it('no password, a wrong password, a missing database, a table never loaded, sslmode=require to a server without TLS: exit 2, one line each', () => {
    const address = new URL(url).host;
    const out = join(work, 'never-written.json');
    const run = (target: string, ...extra: string[]) =>
      runDocbench([
        'run',
        '--store',
        'postgres',
        '--url',
        target,
        '-P',
        'workloadc',
        '-p',
        'operationcount=1',
        ...extra,
        '--out',
        out,
      ]);
    assertUserError(
      run(`postgres://docbench@${address}/docbench`),
      /refused access: the server requires a password, and the URL gives none; give one as postgres:\/\/USER:PASSWORD@/,
      out,
    );
    const wrong = run(`postgres://docbench:wrong-pw@${address}/docbench`);
    assertUserError(
      wrong,
      /postgres:\/\/docbench:\*\*\*@.* refused access: the server refused the user name or password in the URL \(password authentication failed for user "docbench"\)/,
      out,
    );
    assert.doesNotMatch(wrong.stderr, /wrong-pw/);
    assertUserError(
      run(`postgres://docbench:docbench@${address}/no_such_db`),
      /the database "no_such_db" does not exist; create it \(CREATE DATABASE "no_such_db"\)/,
      out,
    );
    assertUserError(
      run(url, '-p', `table=never_loaded_${process.pid}`),
      /the table "never_loaded_\d+" in the database "docbench" does not exist; load it first: docbench load --store postgres/,
      out,
    );
    assertUserError(
      run(`${url}?sslmode=require`),
      /TLS mismatch: the server does not speak TLS, and the URL asks for it \(sslmode=require\); remove sslmode or set sslmode=disable/,
      out,
    );
  });

  it('a misspelt or bad setting, a bad URL: exit 2, one line', () => {
    const run = (...args: string[]) =>
      runDocbench(['run', '--store', 'postgres', '-P', 'workloada', '-p', 'operationcount=1', ...args]);
    assertUserError(run('-p', 'postgres.poolsize=4'), /did you mean "postgres\.poolSize"\?/);
    assertUserError(
      run('-p', 'postgres.synchronousCommit=sometimes'),
      /postgres\.synchronousCommit=sometimes: expected one of on, off, local, remote_write, remote_apply/,
    );
    const bad = run('--url', 'mysql://root:s3cret@127.0.0.1/docbench');
    assertUserError(bad, /postgres: "mysql:\/\/root:\*\*\*@127\.0\.0\.1\/docbench" has the scheme "mysql:"/);
    assert.doesNotMatch(bad.stderr, /s3cret/);
    assertUserError(
      run('--url', 'postgres://127.0.0.1/docbench?sslmode=verify-ca'),
      /has sslmode=verify-ca without sslrootcert=<CA file>/,
    );
  });
});
