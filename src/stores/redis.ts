/**
 * Redis on ioredis, with the semantics of YCSB's Redis binding: one hash per record (HSET,
 * HMGET/HGETALL), an update is an HSET that succeeds whether or not the record existed, and
 * a sorted set indexes the keys for scans.
 *
 * Where docbench does better: YCSB's binding scores its index by the key's Java hashCode, so its
 * scans come back in hash order. Here every member has score 0 and ZRANGE … BYLEX walks them in
 * lexicographic (= key) order, so a scan is the first `count` keys >= start, as the workload
 * means it. Records live at `<table>:<key>`, the index at `<table>#index` (a different
 * separator, so no record key can collide with it).
 *
 * Settings: URL credentials and database (`redis://user:pass@host:port/db`),
 * `redis.autopipelining=true` to let ioredis batch concurrent commands into one write
 * (off by default: YCSB's client sends one command per round trip).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { packageVersion } from '../version.ts';
import {
  UnreachableError,
  type BatchInserter,
  type FieldMap,
  type KeyedRecord,
  type Store,
  type StoreFactory,
  type StoreStats,
  type YcsbSchema,
} from './store.ts';

const recordKey = (table: string, key: string) => `${table}:${key}`;
const indexKey = (table: string) => `${table}#index`;

class RedisStore implements Store, BatchInserter {
  readonly name = 'redis';
  private readonly client: Redis;

  constructor(
    private readonly url: string,
    settings: Record<string, string>,
  ) {
    this.client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 5000,
      // Fail fast instead of queueing or retrying forever: an unreachable server is an error.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      enableAutoPipelining: settings['redis.autopipelining'] === 'true',
    });
    // Errors surface through the failing command; without a listener ioredis would also log them.
    this.client.on('error', () => {});
  }

  async connect(): Promise<void> {
    try {
      await this.client.connect();
      await this.client.ping();
    } catch (error) {
      this.client.disconnect();
      throw new UnreachableError('redis', this.url, error);
    }
  }

  /** Nothing to create: hashes and the index appear with the first insert. */
  async prepare(_schema: YcsbSchema): Promise<void> {}

  async drop(schema: YcsbSchema): Promise<void> {
    // Only this table's keys: never FLUSHDB a user's server.
    const stream = this.client.scanStream({ match: `${schema.table}:*`, count: 1000 });
    for await (const keys of stream as AsyncIterable<string[]>) if (keys.length > 0) await this.client.unlink(...keys);
    await this.client.unlink(indexKey(schema.table));
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    if (fields === null) {
      const record = await this.client.hgetall(recordKey(table, key));
      return hasAnyField(record) ? record : null;
    }
    const values = await this.client.hmget(recordKey(table, key), ...fields);
    return pickPresent(fields, values);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    const keys = await this.client.zrangebylex(indexKey(table), `[${startKey}`, '+', 'LIMIT', 0, count);
    if (keys.length === 0) return [];
    const pipeline = this.client.pipeline();
    for (const key of keys) {
      if (fields === null) pipeline.hgetall(recordKey(table, key));
      else pipeline.hmget(recordKey(table, key), ...fields);
    }
    const replies = (await pipeline.exec()) ?? [];
    const records: KeyedRecord[] = [];
    for (let i = 0; i < keys.length; i++) {
      const [error, reply] = replies[i] ?? [new Error('missing reply'), null];
      if (error) throw error;
      const record = fields === null ? (reply as Record<string, string>) : pickPresent(fields, reply as (string | null)[]);
      // A key in the index whose hash was deleted in between: skip it, as the binding does.
      if (record && hasAnyField(record)) records.push({ key: keys[i]!, fields: record });
    }
    return records;
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    await this.client.hset(recordKey(table, key), values);
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    // MULTI/EXEC: the record and its index entry appear together.
    const replies = await this.client.multi().hset(recordKey(table, key), values).zadd(indexKey(table), 0, key).exec();
    throwFirstError(replies);
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    const pipeline = this.client.pipeline();
    const members: (string | number)[] = [];
    for (const r of records) {
      pipeline.hset(recordKey(table, r.key), r.fields);
      members.push(0, r.key);
    }
    pipeline.zadd(indexKey(table), ...members);
    throwFirstError(await pipeline.exec());
  }

  async delete(table: string, key: string): Promise<boolean> {
    const replies = await this.client.multi().del(recordKey(table, key)).zrem(indexKey(table), key).exec();
    throwFirstError(replies);
    return (replies?.[0]?.[1] as number) > 0;
  }

  async stats(): Promise<StoreStats> {
    const info = parseInfo(await this.client.info());
    const stats: StoreStats = {
      server: 'Redis',
      serverVersion: info.redis_version ?? 'unknown',
      driver: `ioredis ${packageVersion('ioredis')}`,
      extra: {
        mode: info.redis_mode ?? 'unknown',
        aof: info.aof_enabled === '1',
      },
    };
    if (info.used_memory) stats.memoryBytes = Number(info.used_memory);
    stats.recordCount = await this.client.dbsize();
    const disk = await this.snapshotSize();
    if (disk !== undefined) stats.diskBytes = disk;
    return stats;
  }

  /** Size of the RDB snapshot, when the server runs on this machine and its file is readable here. */
  private async snapshotSize(): Promise<number | undefined> {
    const host = this.client.options.host ?? '';
    if (!['127.0.0.1', 'localhost', '::1'].includes(host)) return undefined;
    try {
      const [, dir] = (await this.client.config('GET', 'dir')) as string[];
      const [, file] = (await this.client.config('GET', 'dbfilename')) as string[];
      const path = join(dir ?? '', file ?? '');
      return existsSync(path) ? statSync(path).size : undefined;
    } catch {
      return undefined; // CONFIG may be disabled (managed Redis)
    }
  }

  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

function hasAnyField(record: Record<string, string>): boolean {
  for (const _ in record) return true;
  return false;
}

/** HMGET answers with nulls for missing fields, and only nulls for a missing record. */
function pickPresent(fields: readonly string[], values: readonly (string | null)[]): FieldMap | null {
  let record: FieldMap | null = null;
  for (let i = 0; i < fields.length; i++) {
    const value = values[i];
    if (value !== null && value !== undefined) (record ??= {})[fields[i]!] = value;
  }
  return record;
}

function throwFirstError(replies: [Error | null, unknown][] | null): void {
  if (replies === null) throw new Error('transaction aborted');
  for (const [error] of replies) if (error) throw error;
}

function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) out[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return out;
}

export const createRedisStore: StoreFactory = (options) => new RedisStore(options.url, options.settings);
