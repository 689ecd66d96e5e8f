/**
 * What the store reports about itself: the server's release (`system.local`), the driver, the
 * settings in force, the ring as the driver sees it (nodes, those down, the keyspace's
 * replication factor), the consistency levels and whether CQL ran over TLS, and the keyspace's
 * size on disk where the server has the virtual table.
 */
import { packageVersion } from '../../version.ts';
import type { StoreStats, StoreTopology } from '../store.ts';
import type { CassandraHandle } from './handle.ts';
import { consistencyName, type CassandraConfig } from './settings.ts';

export async function cassandraStats(handle: CassandraHandle, config: CassandraConfig): Promise<StoreStats> {
  const { client } = handle;
  const local = (await client.execute('SELECT release_version, data_center FROM system.local')).first();
  const read = consistencyName(config.readConsistency);
  const write = consistencyName(config.writeConsistency);
  const stats: StoreStats = {
    server: 'Apache Cassandra',
    serverVersion: String(local?.get('release_version') ?? 'unknown'),
    driver: `cassandra-driver ${packageVersion('cassandra-driver')}`,
    extra: {
      keyspace: config.keyspace,
      replication: handle.replicationMap(),
      readConsistency: read,
      writeConsistency: write,
      scanBucketLength: config.scanBucketLength,
    },
    topology: await ringTopology(handle, config),
    consistency: {
      reads: `consistency level ${read}${config.readConsistency === 1 ? ' (one replica answers)' : ''}`,
      writes: `consistency level ${write}${config.writeConsistency === 1 ? ' (acknowledged by one replica)' : ''}`,
    },
    encrypted: config.tls,
  };
  try {
    // Virtual table of Cassandra 4.1+: on-disk size per table (SSTables; memtables not yet flushed are not counted).
    const usage = await client.execute(
      'SELECT mebibytes FROM system_views.disk_usage WHERE keyspace_name = ?',
      [config.keyspace],
      { prepare: true },
    );
    let mib = 0;
    for (const row of usage.rows) mib += Number(row.get('mebibytes') ?? 0);
    stats.diskBytes = mib * 1024 * 1024;
  } catch {
    // older servers: no disk figure
  }
  return stats;
}

/**
 * The ring as the driver knows it (every node the cluster's metadata lists, up or not) and the
 * keyspace's replication factor in the local data center, from the server's own schema table.
 */
async function ringTopology(handle: CassandraHandle, config: CassandraConfig): Promise<StoreTopology> {
  const hosts = handle.client.hosts.values();
  const topology: StoreTopology = {
    kind: hosts.length > 1 ? 'cassandra-ring' : 'single',
    nodes: hosts.length,
    down: hosts.filter((h) => !h.isUp()).length,
  };
  const row = (
    await handle.client.execute(
      'SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?',
      [config.keyspace],
      { prepare: true },
    )
  ).first();
  const factor = replicationFactorOf((row?.get('replication') ?? {}) as Record<string, string>, config.datacenter);
  if (factor !== undefined) topology.replicationFactor = factor;
  return topology;
}

/** SimpleStrategy's `replication_factor`, or NetworkTopologyStrategy's factor for the local data center. */
export function replicationFactorOf(replication: Record<string, string>, datacenter: string): number | undefined {
  const value = replication.replication_factor ?? replication[datacenter];
  const factor = value === undefined ? NaN : Number.parseInt(value, 10);
  return Number.isFinite(factor) ? factor : undefined;
}
