/**
 * What the store says about its server: version (server_version), the driver, the settings in
 * force, the YCSB table's size on disk (pg_total_relation_size: table, indexes and TOAST) and the
 * database's cache hit ratio (pg_stat_database). A figure the server refuses is left out. The
 * settings are read on one of docbench's own sessions, so postgres.synchronousCommit and
 * postgres.statementTimeoutMs show as they applied.
 */
import { packageVersion } from '../../version.ts';
import type { StoreStats } from '../store.ts';
import type { PostgresHandle } from './handle.ts';
import type { PostgresConfig } from './settings.ts';

export async function postgresStats(
  handle: PostgresHandle,
  config: PostgresConfig,
  table: string | undefined,
): Promise<StoreStats> {
  const [server] = await handle.query<{ version: string; full: string; ssl: boolean | null }>(
    `SELECT current_setting('server_version') AS version, version() AS full,
            (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl`,
  );
  const extra: NonNullable<StoreStats['extra']> = {
    database: handle.database,
    'postgres.poolSize': config.poolConfig.max ?? 10,
    tls: config.tls.describe,
    ...(server?.full ? { build: server.full } : {}),
  };
  const stats: StoreStats = {
    server: 'PostgreSQL',
    serverVersion: server?.version ?? 'unknown',
    driver: `pg ${packageVersion('pg')}`,
    extra,
    topology: { kind: 'single', nodes: 1 },
    encrypted: server?.ssl === true,
  };
  const settings = await handle
    .query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'shared_buffers', 'default_transaction_isolation', 'statement_timeout')`,
    )
    .catch(() => []);
  for (const { name, setting } of settings) extra[`server.${name}`] = setting;
  const isolation = settings.find((s) => s.name === 'default_transaction_isolation')?.setting ?? 'read committed';
  const commit = settings.find((s) => s.name === 'synchronous_commit')?.setting ?? 'on';
  stats.consistency = { reads: `isolation ${isolation}`, writes: `synchronous_commit=${commit}` };

  if (table !== undefined) {
    const [size] = await handle
      .query<{ bytes: string | null; rows: string | null }>(
        `SELECT pg_total_relation_size(to_regclass($1)) AS bytes,
                (SELECT n_live_tup FROM pg_stat_user_tables WHERE relid = to_regclass($1)) AS rows`,
        [`"${table.replaceAll('"', '""')}"`],
      )
      .catch(() => []);
    if (size?.bytes != null) {
      stats.diskBytes = Number(size.bytes);
      extra.diskBytesFrom = 'pg_total_relation_size (table, indexes, TOAST)';
    }
    if (size?.rows != null) stats.recordCount = Number(size.rows);
  }
  const [cache] = await handle
    .query<{ hit: string | null; read: string | null }>(
      `SELECT blks_hit AS hit, blks_read AS read FROM pg_stat_database WHERE datname = current_database()`,
    )
    .catch(() => []);
  if (cache?.hit != null && cache.read != null) {
    const hit = Number(cache.hit);
    const total = hit + Number(cache.read);
    if (total > 0) extra.cacheHitRatio = Math.round((hit / total) * 10_000) / 10_000;
  }
  return stats;
}
