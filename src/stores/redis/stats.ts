/**
 * What the store reports about its server: INFO's version, mode, persistence and memory, DBSIZE,
 * and the RDB snapshot's size when the server runs on this machine. On a Redis Cluster: the
 * version of one master, the keys and memory of every master summed, and the cluster as
 * `CLUSTER NODES` describes it (nodes, masters, replicas, slots of each master).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreStats } from '../store.ts';
import { clusterShape, parseClusterNodes } from './cluster-topology.ts';
import type { RedisNodeCaller } from './connection.ts';
import type { RedisHandle } from './handle.ts';
import type { RedisConfig } from './settings.ts';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

export async function redisStats(redis: RedisHandle, config: RedisConfig): Promise<StoreStats> {
  const { url } = config;
  const masters = await redis.connection.masters();
  const infos = await Promise.all(masters.map(async (m) => parseInfo(String(await m.call(['INFO'])))));
  const info = infos[0] ?? {};
  const sizes = await Promise.all(masters.map(async (m) => Number(await m.call(['DBSIZE']))));
  const stats: StoreStats = {
    server: 'Redis',
    serverVersion: info.redis_version ?? 'unknown',
    driver: redis.connection.driver,
    recordCount: sizes.reduce((a, b) => a + b, 0),
    // DBSIZE counts the keys of the logical database the URL selects, named here.
    extra: {
      database: url.database,
      mode: info.redis_mode ?? 'unknown',
      aof: info.aof_enabled === '1',
      connections: config.connections,
    },
    encrypted: url.tls,
    consistency: {
      reads: redis.isCluster ? 'from the master of each slot (no replica reads)' : 'from the server',
      writes: config.wait
        ? `WAIT ${config.wait.replicas} ${config.wait.timeoutMs} after each YCSB write (redis.wait): acknowledged once ${config.wait.replicas} replica(s) have it`
        : 'acknowledged by the master alone; replication is asynchronous (no WAIT)',
    },
  };
  const memory = infos.reduce((sum, i) => sum + Number(i.used_memory ?? 0), 0);
  if (infos.some((i) => i.used_memory)) stats.memoryBytes = memory;
  if (redis.isCluster) {
    const shape = clusterShape(parseClusterNodes(String(await redis.call(['CLUSTER', 'NODES']))));
    stats.topology = {
      kind: 'redis-cluster',
      nodes: shape.nodes,
      masters: shape.masters,
      replicas: shape.replicas,
      slotsPerMaster: shape.slotsPerMaster,
      down: shape.failing,
    };
    stats.extra!.replicasPerMaster = shape.replicasPerMaster.join(',');
    stats.notes = [
      "Redis Cluster: an insert is two writes, the record then its index entry (a MULTI cannot span two slots), not one atomic MULTI; the scan index is one sorted set on one slot, as in YCSB's binding",
    ];
  } else {
    stats.topology = {
      kind: 'single',
      nodes: 1,
      ...(info.connected_slaves !== undefined ? { replicas: Number(info.connected_slaves) } : {}),
    };
  }
  const disk = !redis.isCluster && LOOPBACK_HOSTS.includes(url.host) ? await snapshotSize(masters[0]!) : undefined;
  if (disk !== undefined) stats.diskBytes = disk;
  return stats;
}

/** Size of the RDB snapshot, when its file is readable from here. */
async function snapshotSize(redis: RedisNodeCaller): Promise<number | undefined> {
  try {
    const [, dir] = (await redis.call(['CONFIG', 'GET', 'dir'])) as string[];
    const [, file] = (await redis.call(['CONFIG', 'GET', 'dbfilename'])) as string[];
    const path = join(dir ?? '', file ?? '');
    return existsSync(path) ? statSync(path).size : undefined;
  } catch {
    return undefined; // CONFIG may be disabled (managed Redis)
  }
}

/** INFO's `key:value` lines (sections and comments skipped). */
function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) out[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return out;
}
