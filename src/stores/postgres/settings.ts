/**
 * The `postgres.*` settings (`-p postgres.<name>=value`) and the store's configuration: the URL,
 * the settings and the caller's concurrency made into node-postgres's pool options.
 */
import type { PoolConfig } from 'pg';
import { parseSettings, setting, type SettingsOf } from '../../common/settings.ts';
import type { StoreOptions } from '../store.ts';
import { parsePostgresUrl, type PostgresUrl } from './url.ts';

/** node-postgres waits forever for a connection by default: far too long to say that nothing answers. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

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
};

export type PostgresSettings = SettingsOf<typeof SETTINGS>;

export interface PostgresConfig {
  readonly target: PostgresUrl;
  readonly settings: PostgresSettings;
  readonly poolConfig: PoolConfig;
}

export function postgresConfig(options: StoreOptions): PostgresConfig {
  const target = parsePostgresUrl(options.url);
  const settings = parseSettings('postgres', SETTINGS, options.settings);
  const poolConfig: PoolConfig = {
    connectionString: target.url,
    max: settings.poolSize ?? Math.max(1, options.concurrency),
    connectionTimeoutMillis: settings.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // The server's name for our sessions (pg_stat_activity), so a DBA can tell docbench's load apart.
    application_name: 'docbench',
  };
  return { target, settings, poolConfig };
}
