/**
 * The PostgreSQL store's URL and settings, checked before any connection: each sslmode made into
 * node-postgres's TLS options with libpq's meaning, the session settings put into the URL's
 * `options`, and every bad one a one-line user error with the password masked.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { UserError } from '../../src/common/user-error.ts';
import { postgresConfig } from '../../src/stores/postgres/settings.ts';
import { parsePostgresUrl } from '../../src/stores/postgres/url.ts';

const BASE = 'postgres://bench:s3cret@db.example.com:6543/app';
const config = (url: string, settings: Record<string, string> = {}) =>
  postgresConfig({ url, settings, concurrency: 8 });

function assertOneLine(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof UserError, String(error));
    assert.doesNotMatch(error.message, /\n|s3cret/);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('postgres URL and settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docbench-pg-unit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const ca = join(dir, 'ca.pem');
  writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nnot checked here\n-----END CERTIFICATE-----\n');

  it('reads host, port, database and user; the driver gets the URL without its TLS parameters', () => {
    const target = parsePostgresUrl(`${BASE}?sslmode=require&application_name=x`);
    assert.deepEqual(
      [target.host, target.port, target.database, target.user, target.hasPassword, target.sslmode],
      ['db.example.com', 6543, 'app', 'bench', true, 'require'],
    );
    assert.equal(target.url, `${BASE}?application_name=x`);
    assert.equal(target.displayUrl, 'postgres://bench:***@db.example.com:6543/app?sslmode=require&application_name=x');
    assert.equal(parsePostgresUrl('postgresql://bench@h').database, 'bench');
  });

  it('each sslmode as libpq means it, not as node-postgres 8 reads it (require = verify-full)', () => {
    const plan = (query: string) => config(`${BASE}${query}`).tls;
    assert.equal(plan('').use, 'off');
    assert.equal(config(BASE).poolConfig.ssl, false);
    assert.equal(plan('?sslmode=disable').use, 'off');
    for (const mode of ['require', 'no-verify']) {
      const p = plan(`?sslmode=${mode}`);
      assert.equal(p.use, 'on');
      assert.equal(p.options.rejectUnauthorized, false);
    }
    for (const mode of ['prefer', 'allow']) {
      const p = plan(`?sslmode=${mode}`);
      assert.equal(p.use, 'if-offered');
      assert.equal(p.options.rejectUnauthorized, false);
      assert.equal(config(`${BASE}?sslmode=${mode}`).poolConfig.ssl, false, 'plain until the server offers TLS');
    }
    // A CA given: the chain is checked; verify-full also checks the host name, verify-ca and require do not.
    for (const mode of ['require', 'verify-ca']) {
      const p = plan(`?sslmode=${mode}&sslrootcert=${ca}`);
      assert.equal(p.options.rejectUnauthorized, undefined);
      assert.match(String(p.options.ca), /BEGIN CERTIFICATE/);
      assert.equal(typeof p.options.checkServerIdentity, 'function');
    }
    const full = plan(`?sslmode=verify-full&sslrootcert=${ca}`);
    assert.equal(full.options.checkServerIdentity, undefined);
    assert.equal(full.options.rejectUnauthorized, undefined);
    assert.deepEqual(plan('?sslmode=verify-full').options, {}, "verify-full without a CA: Node's CAs");
    assert.deepEqual(plan('?sslmode=verify-full&sslrootcert=system').options, {});
    assert.equal(plan(`?sslrootcert=${ca}`).use, 'on', 'sslrootcert alone verifies, as node-postgres does');
  });

  it('pool: one connection per operation in flight unless postgres.poolSize; idle connections kept; session settings in `options`', () => {
    const c = config(`${BASE}?options=-c%20work_mem%3D8MB`, {
      'postgres.synchronousCommit': 'OFF',
      'postgres.statementTimeoutMs': '1500',
      'postgres.connectTimeoutMs': '900',
    });
    assert.equal(c.poolConfig.max, 8);
    assert.equal(c.poolConfig.idleTimeoutMillis, 0);
    assert.equal(c.poolConfig.connectionTimeoutMillis, 900);
    assert.equal(c.poolConfig.statement_timeout, 1500);
    assert.equal(
      new URL(c.poolConfig.connectionString!).searchParams.get('options'),
      '-c work_mem=8MB -c synchronous_commit=off',
    );
    assert.equal(config(BASE, { 'postgres.poolSize': '3' }).poolConfig.max, 3);
  });

  it('bad URLs and settings: one line, the password masked', () => {
    assertOneLine(() => config('mongodb://bench:s3cret@h/db'), /has the scheme "mongodb:"; expected postgres:\/\//);
    assertOneLine(() => config('postgres:///db'), /names no host/);
    assertOneLine(() => config(`${BASE}?sslmode=strict`), /has sslmode=strict; expected one of disable, allow, prefer/);
    assertOneLine(() => config(`${BASE}?ssl=true`), /docbench reads TLS from sslmode as libpq does/);
    assertOneLine(() => config(`${BASE}?sslmode=verify-ca`), /sslmode=verify-ca without sslrootcert=<CA file>/);
    assertOneLine(
      () => config(`${BASE}?sslmode=require&sslrootcert=system`),
      /sslrootcert=system with sslmode=require; the system's CAs need sslmode=verify-full/,
    );
    assertOneLine(
      () => config(`${BASE}?sslmode=verify-full&sslrootcert=${join(dir, 'missing.pem')}`),
      /has sslrootcert=.*missing\.pem, which cannot be read \(ENOENT\)/,
    );
    assertOneLine(
      () => config(BASE, { 'postgres.poolsize': '4' }),
      /unknown setting postgres\.poolsize \(did you mean "postgres\.poolSize"\?\)/,
    );
    assertOneLine(
      () => config(BASE, { 'postgres.poolSize': '0' }),
      /postgres\.poolSize=0: expected a whole number >= 1/,
    );
  });
});
