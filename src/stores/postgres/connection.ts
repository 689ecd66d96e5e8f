/**
 * Opening and closing node-postgres's pool. Making the pool does no I/O; `connect` takes one
 * connection and asks the server which database and user it is, which needs the login and the
 * database to exist. What stops it is an AccessDeniedError (the login, the database's rights), a
 * MissingDataError (no such database) or an UnreachableError saying what to check, by SQLSTATE
 * first and the driver's words second.
 */
import pg from 'pg';
import { AccessDeniedError, MissingDataError, UnreachableError } from '../store.ts';
import { plainAnswer } from '../tls-probe.ts';
import { PostgresHandle } from './handle.ts';
import type { PostgresConfig } from './settings.ts';

/** The frontend's SSLRequest: length 8, code 80877103. A server answers one byte, 'S' (TLS) or 'N'. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/** The pool on the store's database; nothing is connected yet. */
export function createHandle(config: PostgresConfig): PostgresHandle {
  const pool = new pg.Pool(config.poolConfig);
  // An idle connection the server drops (a restart, a failover) emits 'error' on the pool; the
  // next query gets a fresh connection, and an unhandled 'error' event would end the process.
  pool.on('error', () => {});
  // A connection lost while a statement runs on it also emits 'error' on its client, which has no
  // other listener then (the statement gets the error itself): without this one it would end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new PostgresHandle(pool, config.target.database);
}

export async function connect(handle: PostgresHandle, config: PostgresConfig): Promise<void> {
  const displayUrl = config.target.displayUrl;
  if (config.tls.use === 'if-offered') {
    // sslmode=prefer/allow: the server's answer to an SSLRequest decides, once, for every
    // connection of the pool (which makes its clients from these options).
    const answer = await plainAnswer(config.target.host, config.target.port, SSL_REQUEST);
    if (answer?.toString('latin1', 0, 1) === 'S') handle.pool.options.ssl = config.tls.options;
  }
  try {
    await handle.query('SELECT current_database(), current_user');
  } catch (error) {
    const state = sqlState(error);
    const db = config.target.database;
    if (state === '3D000')
      throw new MissingDataError(
        'postgres',
        displayUrl,
        `the database "${db}"`,
        `create it (CREATE DATABASE "${db}") or name another in the URL's path`,
      );
    const refused = refusedLogin(error, config);
    if (refused) throw new AccessDeniedError('postgres', displayUrl, refused);
    throw new UnreachableError('postgres', displayUrl, reason(error, config));
  }
}

export async function close(handle: PostgresHandle): Promise<void> {
  if (!handle.pool.ended) await handle.pool.end();
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A refused login or a missing right, in words that say what to fix. */
function refusedLogin(error: unknown, config: PostgresConfig): string | undefined {
  const state = sqlState(error);
  const says = message(error);
  const db = config.target.database;
  if (state === '28P01') return `the server refused the user name or password in the URL (${says}); check them`;
  if (state === '28000') {
    if (/no encryption/i.test(says))
      return `TLS mismatch: the server accepts only encrypted connections (${says}); add ?sslmode=require (or verify-full) to the URL`;
    return `the server has no login rule for this user, host or database (${says}); check pg_hba.conf or the URL's user`;
  }
  // node-postgres's own words when the server asks for a password (SCRAM, MD5 or clear text) and the URL has none.
  if (/client password must be a string|password must be a string/i.test(says))
    return `the server requires a password, and the URL gives none; give one as postgres://USER:PASSWORD@host/${db}`;
  if (state === '42501')
    return `the URL's user may not use the database "${db}" (${says}); grant it CONNECT and CREATE`;
  return undefined;
}

/** Why the server could not be used, with what to check. */
function reason(error: unknown, config: PostgresConfig): string {
  const says = message(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (/does not support SSL/i.test(says))
    return `TLS mismatch: the server does not speak TLS, and the URL asks for it (sslmode=${config.target.sslmode ?? 'verify-full'}); remove sslmode or set sslmode=disable`;
  if (
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(String(code)) ||
    /self[- ]signed certificate|unable to verify|certificate/i.test(says)
  )
    return `the server's TLS certificate failed the check of ${config.tls.describe} (${says}); give sslrootcert=<CA file> in the URL, or sslmode=require to encrypt without the check`;
  if (/timeout/i.test(says))
    return `no connection within ${config.poolConfig.connectionTimeoutMillis} ms (${says}); check that the server runs and the URL's host and port, or raise postgres.connectTimeoutMs`;
  if (code === 'ECONNREFUSED') return `connection refused (${says}): nothing listens there; is PostgreSQL running?`;
  return `${says}; check that the server runs and the URL's host and port`;
}
