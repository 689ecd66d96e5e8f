/**
 * What the store records about itself: server and version (management REST `/pools`, else SQL++
 * `ds_version()`), bucket statistics, the settings that shape the numbers, and every step the
 * settings or the cluster made it skip, so a result never looks more complete than it is.
 */
import { packageVersion } from '../../version.ts';
import type { StoreStats } from '../store.ts';
import { managementRest, reasonOf } from './connection.ts';
import type { CouchbaseHandle } from './handle.ts';
import type { CouchbaseConfig } from './settings.ts';
import type { SkippedSteps } from './ycsb.ts';

type Extra = NonNullable<StoreStats['extra']>;

export async function couchbaseStats(
  config: CouchbaseConfig,
  handle: CouchbaseHandle,
  skippedSteps: SkippedSteps,
): Promise<StoreStats> {
  const extra: Extra = {
    'couchbase.bucket': config.url.bucket,
    'couchbase.scope': config.scope,
    'couchbase.collection': config.collection,
    'couchbase.durability': config.durabilityName,
    'couchbase.insert': config.upsert ? 'upsert' : 'insert',
    'couchbase.query': config.query,
    'couchbase.management': config.management,
  };
  const stats: StoreStats = {
    server: 'Couchbase (not identified)',
    serverVersion: 'unknown',
    driver: `couchbase ${packageVersion('couchbase')}`,
    extra,
  };
  const skipped: string[] = [];

  if (config.management) await fromManagementApi(config, stats, extra);
  else skipped.push('management REST calls: server version and bucket stats (couchbase.management=false)');

  if (stats.serverVersion === 'unknown') {
    if (config.query) await fromQueryService(handle, stats, extra);
    else skipped.push('SQL++: scans UNSUPPORTED, no server version (couchbase.query=false)');
  }
  for (const [what, note] of skippedSteps) skipped.push(`${what}: ${note}`);
  if (skipped.length > 0) extra.skipped = skipped.join('; ');
  return stats;
}

/** Server version from `GET /pools`, bucket figures from the bucket's basicStats. */
async function fromManagementApi(config: CouchbaseConfig, stats: StoreStats, extra: Extra): Promise<void> {
  try {
    const pools = (await managementRest(config, '/pools')) as { implementationVersion?: string };
    // Couchbase Server answers e.g. "7.6.2-3721-enterprise"; anything else names another product.
    const version = pools.implementationVersion;
    if (version && /^\d+\.\d+/.test(version)) {
      stats.server = 'Couchbase Server';
      stats.serverVersion = version;
      extra.serverVersionFrom = 'GET /pools';
    } else if (version) {
      stats.server = version;
    }
    const info = (await managementRest(config, `/pools/default/buckets/${encodeURIComponent(config.url.bucket)}`)) as {
      basicStats?: { itemCount?: number; diskUsed?: number; memUsed?: number; dataUsed?: number };
    };
    const b = info.basicStats;
    if (b) {
      if (typeof b.itemCount === 'number') stats.recordCount = b.itemCount;
      if (typeof b.diskUsed === 'number') stats.diskBytes = b.diskUsed;
      if (typeof b.memUsed === 'number') stats.memoryBytes = b.memUsed;
      if (typeof b.dataUsed === 'number') extra.dataUsedBytes = b.dataUsed;
      // basicStats are per bucket: every scope and collection counts.
      extra.bucketStatsScope = 'whole bucket (basicStats)';
    }
  } catch (error) {
    extra.managementStats = `unavailable: ${reasonOf(error)}`;
  }
}

/** Server version from SQL++ `ds_version()`, for users without management rights. */
async function fromQueryService(handle: CouchbaseHandle, stats: StoreStats, extra: Extra): Promise<void> {
  try {
    const [version] = await handle.queryRows<string>('SELECT RAW ds_version()', { readOnly: true });
    if (version) {
      stats.server = 'Couchbase Server';
      stats.serverVersion = version;
      extra.serverVersionFrom = 'SQL++ ds_version()';
    }
  } catch (error) {
    extra.queryVersion = `unavailable: ${reasonOf(error)}`;
  }
}
