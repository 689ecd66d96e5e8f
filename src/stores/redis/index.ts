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
 * Clients: node-redis (`@redis/client`, the client Redis's own docs recommend) by default, because
 * it spends less client CPU an operation than ioredis (bench/harness-overhead.ts and
 * bench/redis-benchmark.ts measure both; the figures are in the README), and on a machine whose
 * cores the server shares, client CPU per operation decides the throughput; ioredis with
 * `redis.driver=ioredis`. Both send exactly the same raw commands; a report names the client it used.
 * Settings: URL credentials and database (`redis://user:pass@host:port/db`, url.ts), `redis.driver`,
 * `redis.autopipelining=true` (ioredis only: coalesce concurrent commands into one write; it
 * measured slower, docs/harness-benchmarks.md, so it is off by default), `redis.connections=N`
 * (connections per client process, used in turn: connection-set.ts), `redis.commandtimeout=ms`
 * (default 30000: a command that waits that long for its answer, a stalled server, fails as
 * TIMEOUT); settings.ts.
 *
 * Connecting proves the run can work: the client connects (TLS for `rediss://`), passes AUTH
 * when the URL has a password, selects the database and gets PONG. A refused login (NOAUTH,
 * WRONGPASS) is an AccessDeniedError; a TLS mismatch is named as such (connection.ts).
 *
 * The folder: url.ts (the URL), settings.ts (settings -> configuration), connection.ts (the
 * client, opened and closed; the two clients in connection-*.ts), ycsb.ts (the YCSB operations),
 * handle.ts (what scenario dialects use), stats.ts, local-target.ts (docbench's local server).
 */
import type { StoreFactory, StoreOptions, StoreStats, YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { createConnection, openConnection } from './connection.ts';
import { RedisHandle } from './handle.ts';
import { redisConfig, type RedisConfig } from './settings.ts';
import { redisStats } from './stats.ts';
import { RedisYcsb } from './ycsb.ts';

export class RedisStore extends YcsbStore<RedisHandle> {
  readonly name = 'redis';
  readonly handle: RedisHandle;
  private readonly config: RedisConfig;
  protected readonly ycsb: RedisYcsb;

  /** Checks the URL and settings (user errors) without connecting. */
  constructor(options: StoreOptions) {
    super();
    this.config = redisConfig(options.url, options.settings);
    this.handle = new RedisHandle(createConnection(this.config), this.config.wait);
    this.ycsb = new RedisYcsb(this.handle);
  }

  connect(): Promise<void> {
    return openConnection(this.handle.connection, this.config);
  }

  /** Redis has no tables: an unloaded one is told by the run's verdict (reads that find nothing). */
  async checkTable(_schema: YcsbSchema): Promise<void> {}

  stats(): Promise<StoreStats> {
    return redisStats(this.handle, this.config);
  }

  close(): Promise<void> {
    return this.handle.connection.close();
  }
}

export const createStore: StoreFactory<RedisStore> = (options) => new RedisStore(options);
