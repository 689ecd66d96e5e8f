/**
 * What Redis code outside the YCSB adapter uses: the scenario dialects (query tables, index sets,
 * Lua scripts) and the store's own YCSB operations. Commands go as raw argument lists through
 * whichever client the store opened; `scanKeys` and `unlinkMatching` are the key walks every
 * layout needs, because a store that shares a user's server must never FLUSHDB it. On a Redis
 * Cluster the walks visit every master, and `isCluster` tells a dialect that a MULTI or a script
 * can no longer span its keys unless they share a slot.
 */
import type { RedisConnection } from './connection.ts';
import type { RedisWait } from './settings.ts';

/** Keys asked of SCAN per step: a hint to the server, which may return more or fewer. */
const SCAN_COUNT = 1000;

/** WAIT answered with fewer replicas than `redis.wait` asks for: the write is not acknowledged. */
export class ReplicationTimeoutError extends Error {
  constructor(acknowledged: number, wait: RedisWait) {
    super(
      `WAIT ${wait.replicas} ${wait.timeoutMs}: ${acknowledged} of ${wait.replicas} replicas acknowledged the write within ${wait.timeoutMs} ms (redis.wait)`,
    );
    // Its name says timeout, as it is one: the failure kinds file it as TIMEOUT.
    this.name = 'ReplicationTimeoutError';
  }
}

export class RedisHandle {
  constructor(
    /** The open client (its `driver` names it). */
    readonly connection: RedisConnection,
    /** `redis.wait`: replicas each YCSB write waits for, or undefined. */
    readonly wait?: RedisWait,
  ) {}

  /** True when the store runs against a Redis Cluster (known once connected). */
  get isCluster(): boolean {
    return this.connection.isCluster;
  }

  /** One command; resolves with its raw reply. */
  call(args: readonly string[]): Promise<unknown> {
    return this.connection.call(args);
  }

  /** Several commands, not atomic: one round trip on a single server, each to its own node on a cluster. */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.connection.pipeline(commands);
  }

  /** Several commands as MULTI/EXEC (atomic; on a cluster, within one slot). */
  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.connection.transaction(commands);
  }

  /**
   * One write, acknowledged as `redis.wait` asks: without it, as the server answers; with it, the
   * write and a WAIT in one round trip on the connection to the key's node, and a
   * ReplicationTimeoutError when fewer replicas than asked acknowledged it in time.
   */
  async write(command: readonly string[]): Promise<unknown> {
    const wait = this.wait;
    if (wait === undefined) return this.connection.call(command);
    const [reply, acknowledged] = await this.connection.onOneNode([
      command,
      ['WAIT', String(wait.replicas), String(wait.timeoutMs)],
    ]);
    checkWait(Number(acknowledged), wait);
    return reply;
  }

  /** Several writes, not atomic (as `pipeline`), each acknowledged as `redis.wait` asks. */
  async writeAll(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const wait = this.wait;
    if (wait === undefined) return this.connection.pipeline(commands);
    if (this.isCluster) return Promise.all(commands.map((c) => this.write(c)));
    const replies = await this.connection.onOneNode([
      ...commands,
      ['WAIT', String(wait.replicas), String(wait.timeoutMs)],
    ]);
    checkWait(Number(replies.pop()), wait);
    return replies;
  }

  /** A MULTI/EXEC acknowledged as `redis.wait` asks: the WAIT follows the EXEC on the same connection. */
  async writeAtomically(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const wait = this.wait;
    if (wait === undefined) return this.connection.transaction(commands);
    const connection = this.connection.one();
    const replies = await connection.transaction(commands);
    checkWait(Number(await connection.call(['WAIT', String(wait.replicas), String(wait.timeoutMs)])), wait);
    return replies;
  }

  /**
   * The keys matching a glob, in batches, walked with SCAN on each master (KEYS would block the
   * server). SCAN may return a key more than once; `distinct` drops the repeats, at the cost of
   * remembering every key seen.
   */
  async *scanKeys(pattern: string, options: { distinct?: boolean } = {}): AsyncGenerator<string[]> {
    const seen = options.distinct ? new Set<string>() : undefined;
    for (const node of await this.connection.masters()) {
      let cursor = '0';
      do {
        const [next, found] = (await node.call(['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT)])) as [
          string,
          string[],
        ];
        let keys = found;
        if (seen) {
          keys = found.filter((k) => !seen.has(k));
          for (const k of keys) seen.add(k);
        }
        if (keys.length > 0) yield keys;
        cursor = String(next);
      } while (cursor !== '0');
    }
  }

  /**
   * Remove every key matching a glob (UNLINK: the memory is freed in the background). A cluster
   * refuses a command whose keys hash to different slots, so there each key is its own UNLINK.
   */
  async unlinkMatching(pattern: string): Promise<void> {
    for await (const keys of this.scanKeys(pattern)) {
      if (this.isCluster) await this.pipeline(keys.map((k) => ['UNLINK', k]));
      else await this.call(['UNLINK', ...keys]);
    }
  }
}

function checkWait(acknowledged: number, wait: RedisWait): void {
  if (!(acknowledged >= wait.replicas)) throw new ReplicationTimeoutError(acknowledged, wait);
}
