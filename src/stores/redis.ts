/**
 * Redis, with the semantics of YCSB's Redis binding: one hash per record (HSET, HMGET/HGETALL),
 * an update is an HSET that succeeds whether or not the record existed, and a sorted set
 * indexes the keys for scans.
 *
 * Where docbench does better: YCSB's binding scores its index by the key's Java hashCode, so its
 * scans come back in hash order. Here every member has score 0 and ZRANGEBYLEX walks them in
 * lexicographic (= key) order, so a scan is the first `count` keys >= start, as the workload
 * means it. Records live at `<table>:<key>`, the index at `<table>#index` (a different
 * separator, so no record key can collide with it).
 *
 * Clients: ioredis by default, or node-redis (`@redis/client`, the client Redis's own docs now
 * recommend) with `redis.driver=node-redis`. Both send exactly the same raw commands. ioredis
 * stays the default because it measured faster here: docbench workload C, 16 workers, 1 KB
 * records, ~73,000 ops/s with ioredis against ~49,000 with node-redis (bench/harness-overhead.ts).
 * Settings: URL credentials and database (`redis://user:pass@host:port/db`), `redis.driver`,
 * `redis.autopipelining=true` (ioredis only: coalesce concurrent commands into one write; it
 * measured slower here, ~43,000 ops/s on the same run, so it is off by default).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RedisConnection } from './redis/connection.ts';
import { IoredisConnection } from './redis/ioredis-connection.ts';
import { NodeRedisConnection } from './redis/node-redis-connection.ts';
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

export class RedisStore implements Store, BatchInserter {
  readonly name = 'redis';
  /** Transitional: scenario code uses the store itself until the handle moves to handle.ts. */
  get handle(): this {
    return this;
  }
  private readonly redis: RedisConnection;

  constructor(
    private readonly url: string,
    settings: Record<string, string>,
  ) {
    const driver = settings['redis.driver'] ?? 'ioredis';
    const options = { url, connectTimeoutMs: 5000, autoPipelining: settings['redis.autopipelining'] === 'true' };
    if (driver === 'node-redis') this.redis = new NodeRedisConnection(options);
    else if (driver === 'ioredis') this.redis = new IoredisConnection(options);
    else throw new Error(`redis.driver: expected node-redis or ioredis, got "${driver}"`);
  }

  /** The open client, for scenario code that runs its own Redis commands (query tables, index sets). */
  connection(): RedisConnection {
    return this.redis;
  }

  async connect(): Promise<void> {
    try {
      await this.redis.connect();
      await this.redis.call(['PING']);
    } catch (error) {
      await this.redis.close().catch(() => {});
      throw new UnreachableError('redis', this.url, error);
    }
  }

  /** Nothing to create: hashes and the index appear with the first insert. */
  async prepare(_schema: YcsbSchema): Promise<void> {}

  async drop(schema: YcsbSchema): Promise<void> {
    // Only this table's keys, found with SCAN: never FLUSHDB a user's server.
    let cursor = '0';
    do {
      const [next, keys] = (await this.redis.call(['SCAN', cursor, 'MATCH', `${schema.table}:*`, 'COUNT', '1000'])) as [string, string[]];
      if (keys.length > 0) await this.redis.call(['UNLINK', ...keys]);
      cursor = String(next);
    } while (cursor !== '0');
    await this.redis.call(['UNLINK', indexKey(schema.table)]);
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    if (fields === null) return fromPairs((await this.redis.call(['HGETALL', recordKey(table, key)])) as string[]);
    return pickPresent(fields, (await this.redis.call(['HMGET', recordKey(table, key), ...fields])) as (string | null)[]);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    const keys = (await this.redis.call(['ZRANGEBYLEX', indexKey(table), `[${startKey}`, '+', 'LIMIT', '0', String(count)])) as string[];
    if (keys.length === 0) return [];
    const commands = keys.map((key) => (fields === null ? ['HGETALL', recordKey(table, key)] : ['HMGET', recordKey(table, key), ...fields]));
    const replies = await this.redis.pipeline(commands);
    const records: KeyedRecord[] = [];
    for (let i = 0; i < keys.length; i++) {
      const reply = replies[i];
      const record = fields === null ? fromPairs(reply as string[]) : pickPresent(fields, reply as (string | null)[]);
      // A key still in the index whose hash was deleted in between: skip it, as the binding does.
      if (record !== null) records.push({ key: keys[i]!, fields: record });
    }
    return records;
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    await this.redis.call(hset(recordKey(table, key), values));
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    // MULTI/EXEC: the record and its index entry appear together.
    await this.redis.transaction([hset(recordKey(table, key), values), ['ZADD', indexKey(table), '0', key]]);
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    const commands: string[][] = records.map((r) => hset(recordKey(table, r.key), r.fields));
    const zadd = ['ZADD', indexKey(table)];
    for (const r of records) zadd.push('0', r.key);
    commands.push(zadd);
    await this.redis.pipeline(commands);
  }

  async delete(table: string, key: string): Promise<boolean> {
    const [deleted] = await this.redis.transaction([['DEL', recordKey(table, key)], ['ZREM', indexKey(table), key]]);
    return Number(deleted) > 0;
  }

  async stats(): Promise<StoreStats> {
    const info = parseInfo(String(await this.redis.call(['INFO'])));
    const stats: StoreStats = {
      server: 'Redis',
      serverVersion: info.redis_version ?? 'unknown',
      driver: this.redis.driver,
      recordCount: Number(await this.redis.call(['DBSIZE'])),
      extra: { mode: info.redis_mode ?? 'unknown', aof: info.aof_enabled === '1' },
    };
    if (info.used_memory) stats.memoryBytes = Number(info.used_memory);
    const disk = await this.snapshotSize();
    if (disk !== undefined) stats.diskBytes = disk;
    return stats;
  }

  /** Size of the RDB snapshot, when the server runs on this machine and its file is readable here. */
  private async snapshotSize(): Promise<number | undefined> {
    if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(this.redis.host)) return undefined;
    try {
      const [, dir] = (await this.redis.call(['CONFIG', 'GET', 'dir'])) as string[];
      const [, file] = (await this.redis.call(['CONFIG', 'GET', 'dbfilename'])) as string[];
      const path = join(dir ?? '', file ?? '');
      return existsSync(path) ? statSync(path).size : undefined;
    } catch {
      return undefined; // CONFIG may be disabled (managed Redis)
    }
  }

  async close(): Promise<void> {
    await this.redis.close();
  }
}

function hset(key: string, values: FieldMap): string[] {
  const args = ['HSET', key];
  for (const field in values) args.push(field, values[field]!);
  return args;
}

/** HGETALL's flat [field, value, …] reply as a record; null for a missing (empty) hash. */
function fromPairs(pairs: readonly string[]): FieldMap | null {
  if (pairs.length === 0) return null;
  const record: FieldMap = {};
  for (let i = 0; i < pairs.length; i += 2) record[pairs[i]!] = pairs[i + 1]!;
  return record;
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

function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) out[line.slice(0, colon)] = line.slice(colon + 1);
  }
  return out;
}

export const createRedisStore: StoreFactory<Store> = (options) => new RedisStore(options.url, options.settings);
