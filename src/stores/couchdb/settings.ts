/**
 * The `couchdb.*` settings, and the store's configuration: the URL and the settings combined.
 * Pool size comes from the caller's concurrency (`--threads`) unless `couchdb.maxsockets` says
 * otherwise: each worker has at most one request in flight, so that many connections suffice.
 */
import { parseSettings, setting, SettingError } from '../../common/settings.ts';
import { UserError } from '../../common/user-error.ts';
import type { StoreOptions } from '../store.ts';
import { DATABASE_NAME, DATABASE_NAME_RULE, parseCouchdbUrl } from './url.ts';

export const SETTINGS = {
  database: setting.text({
    pattern: DATABASE_NAME,
    expected: `a CouchDB database name (${DATABASE_NAME_RULE})`,
    describe: 'the one database every table uses (default: each table its own database, named as the table)',
  }),
  maxsockets: setting.wholeNumber({
    min: 1,
    describe: 'HTTP keep-alive connections to the server (default: the operations in flight, --threads)',
  }),
  connecttimeout: setting.wholeNumber({
    min: 1,
    fallback: 5000,
    describe: "ms to open a TCP connection, and for connect()'s login check to answer",
  }),
  requesttimeout: setting.wholeNumber({
    min: 1,
    fallback: 300_000,
    describe:
      "ms a request may wait for the answer to start (and between its parts) before it fails as TIMEOUT; undici's own default",
  }),
};

/** Everything the store's parts need to know, checked once when the store is made. */
export interface CouchdbConfig {
  /** Server URL with credentials, no path: what nano is given. */
  serverUrl: string;
  /** The server URL with its password masked, for messages. */
  displayUrl: string;
  /** The one database every table uses, when the URL's path or `couchdb.database` names it. */
  database: string | undefined;
  maxSockets: number;
  connectTimeoutMs: number;
  /** How long a request may wait for its answer (a stalled server), `couchdb.requesttimeout`. */
  requestTimeoutMs: number;
}

export function couchdbConfig(options: StoreOptions): CouchdbConfig {
  const url = parseCouchdbUrl(options.url);
  const s = parseSettings('couchdb', SETTINGS, options.settings);
  if (url.database !== undefined && s.database !== undefined && url.database !== s.database) {
    throw new SettingError(
      `couchdb.database=${s.database}: the URL names the database "${url.database}"; give one of them`,
    );
  }
  return {
    serverUrl: url.serverUrl,
    displayUrl: url.displayUrl,
    database: url.database ?? s.database,
    maxSockets: s.maxsockets ?? Math.max(1, options.concurrency),
    connectTimeoutMs: s.connecttimeout,
    requestTimeoutMs: s.requesttimeout,
  };
}

/** A table (YCSB's `table`) that would map to a database CouchDB cannot create. */
export class CouchdbTableNameError extends UserError {}

/** The database a table maps to: the configured one, else the table's own name. */
export function databaseFor(config: CouchdbConfig, table: string): string {
  if (config.database !== undefined) return config.database;
  if (!DATABASE_NAME.test(table)) {
    throw new CouchdbTableNameError(
      `couchdb: table "${table}" is not a CouchDB database name (${DATABASE_NAME_RULE}); name another table (-p table=…) or one database for every table (-p couchdb.database=…)`,
    );
  }
  return table;
}
