/**
 * What the store reports about itself: the server's release (`system.local`), the driver, the
 * settings in force, and the keyspace's size on disk where the server has the virtual table.
 */
import type cassandra from 'cassandra-driver';
import { packageVersion } from '../../version.ts';
import type { StoreStats } from '../store.ts';
import { consistencyName, type CassandraConfig } from './settings.ts';

export async function cassandraStats(client: cassandra.Client, config: CassandraConfig): Promise<StoreStats> {
  const local = (await client.execute('SELECT release_version, data_center FROM system.local')).first();
  const stats: StoreStats = {
    server: 'Apache Cassandra',
    serverVersion: String(local?.get('release_version') ?? 'unknown'),
    driver: `cassandra-driver ${packageVersion('cassandra-driver')}`,
    extra: {
      keyspace: config.keyspace,
      replication: config.replication,
      readConsistency: consistencyName(config.readConsistency),
      writeConsistency: consistencyName(config.writeConsistency),
      scanBucketLength: config.scanBucketLength,
    },
  };
  try {
    // Virtual table of Cassandra 4.1+: on-disk size per table (SSTables; memtables not yet flushed are not counted).
    const usage = await client.execute('SELECT mebibytes FROM system_views.disk_usage WHERE keyspace_name = ?', [config.keyspace], { prepare: true });
    let mib = 0;
    for (const row of usage.rows) mib += Number(row.get('mebibytes') ?? 0);
    stats.diskBytes = mib * 1024 * 1024;
  } catch {
    // older servers: no disk figure
  }
  return stats;
}
