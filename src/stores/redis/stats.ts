/**
 * What the store reports about its server: INFO's version, mode, persistence and memory, DBSIZE,
 * and the RDB snapshot's size when the server runs on this machine.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreStats } from '../store.ts';
import type { RedisHandle } from './handle.ts';
import type { RedisUrl } from './url.ts';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

export async function redisStats(redis: RedisHandle, url: RedisUrl): Promise<StoreStats> {
  const info = parseInfo(String(await redis.call(['INFO'])));
  const stats: StoreStats = {
    server: 'Redis',
    serverVersion: info.redis_version ?? 'unknown',
    driver: redis.connection.driver,
    recordCount: Number(await redis.call(['DBSIZE'])),
    // DBSIZE counts the keys of the logical database the URL selects, named here.
    extra: { database: url.database, mode: info.redis_mode ?? 'unknown', aof: info.aof_enabled === '1' },
  };
  if (info.used_memory) stats.memoryBytes = Number(info.used_memory);
  const disk = LOOPBACK_HOSTS.includes(url.host) ? await snapshotSize(redis) : undefined;
  if (disk !== undefined) stats.diskBytes = disk;
  return stats;
}

/** Size of the RDB snapshot, when its file is readable from here. */
async function snapshotSize(redis: RedisHandle): Promise<number | undefined> {
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
