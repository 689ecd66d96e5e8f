/**
 * The `postgres.*` settings (`-p postgres.<name>=value`) and the store's configuration: the URL,
 * its TLS (tls.ts), the settings and the caller's concurrency made into node-postgres's pool
 * options.
 */
import type { PoolConfig } from 'pg';
import { parseSettings, setting, type SettingsOf } from '../../common/settings.ts';
import type { StoreOptions } from '../store.ts';
import { tlsPlan, type TlsPlan } from './tls.ts';
import { parsePostgresUrl, type PostgresUrl } from './url.ts';

/** node-postgres waits forever for a connection by default: far too long to say that nothing answers. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** How long a statement may wait for its answer, client-side, as other stores' command timeouts. */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

export const SYNCHRONOUS_COMMIT = ['on', 'off', 'local', 'remote_write', 'remote_apply'] as const;

export const SETTINGS = {
  poolSize: setting.wholeNumber({
    min: 1,
    describe:
      'connections in the pool (per worker process); default: the operations in flight, so no worker waits for a connection',
  }),
  connectTimeoutMs: setting.wholeNumber({
    min: 1,
    describe: `ms a new connection may take before it fails; default ${DEFAULT_CONNECT_TIMEOUT_MS}`,
  }),
  queryTimeoutMs: setting.wholeNumber({
    min: 1,
    describe: `ms a statement may wait for the server's answer before it fails as a TIMEOUT, on docbench's side (a stalled or unreachable server); default ${DEFAULT_QUERY_TIMEOUT_MS}`,
  }),
  statementTimeoutMs: setting.wholeNumber({
    min: 1,
    describe:
      "the server's statement_timeout for docbench's sessions: a statement running longer is cancelled (a TIMEOUT); default: the server's (0, none)",
  }),
  synchronousCommit: setting.oneOf(SYNCHRONOUS_COMMIT, {
    describe:
      "synchronous_commit for docbench's sessions: off acknowledges a write before its WAL reaches disk (a crash may lose the last writes, never corrupt); default: the server's (on)",
  }),
};

export type PostgresSettings = SettingsOf<typeof SETTINGS>;

export interface PostgresConfig {
  readonly target: PostgresUrl;
  readonly settings: PostgresSettings;
  readonly tls: TlsPlan;
  readonly poolConfig: PoolConfig;
}

export function postgresConfig(options: StoreOptions): PostgresConfig {
  const target = parsePostgresUrl(options.url);
  const settings = parseSettings('postgres', SETTINGS, options.settings);
  const tls = tlsPlan(target);
  const poolConfig: PoolConfig = {
    connectionString: sessionUrl(target.url, settings),
    // 'if-offered' starts plain: connect() asks the server and turns TLS on if it offers it.
    ssl: tls.use === 'on' ? tls.options : false,
    max: settings.poolSize ?? Math.max(1, options.concurrency),
    // Connections stay open for the whole run (as YCSB's JDBC connection per thread does): the
    // pool's default closes one idle for 10 s, and a slow (--target) run would log in again and
    // again inside its measured operations.
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // node-postgres waits for an answer forever by default: a stalled server would hold the run.
    query_timeout: settings.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
    // The server's name for our sessions (pg_stat_activity), so a DBA can tell docbench's load apart.
    application_name: 'docbench',
  };
  if (settings.statementTimeoutMs !== undefined) poolConfig.statement_timeout = settings.statementTimeoutMs;
  return { target, settings, tls, poolConfig };
}

/**
 * The URL with the session settings node-postgres has no option for (synchronous_commit) added to
 * libpq's `options` parameter, which the URL may already carry: pg-connection-string's reading
 * of the URL overrides a pool option of the same name, so they go into the URL.
 */
function sessionUrl(url: string, settings: PostgresSettings): string {
  if (settings.synchronousCommit === undefined) return url;
  const parsed = new URL(url);
  const given = parsed.searchParams.get('options');
  const ours = `-c synchronous_commit=${settings.synchronousCommit}`;
  parsed.searchParams.set('options', given ? `${given} ${ours}` : ours);
  return parsed.href;
}
