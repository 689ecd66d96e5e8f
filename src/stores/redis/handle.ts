/**
 * What Redis code outside the YCSB adapter uses: the scenario dialects (query tables, index sets,
 * Lua scripts) and the store's own YCSB operations. Commands go as raw argument lists through
 * whichever client the store opened; `scanKeys` and `unlinkMatching` are the key walks every
 * layout needs, because a store that shares a user's server must never FLUSHDB it.
 */
import type { RedisConnection } from './connection.ts';

/** Keys asked of SCAN per step: a hint to the server, which may return more or fewer. */
const SCAN_COUNT = 1000;

export class RedisHandle {
  constructor(
    /** The open client (its `driver` names it). */
    readonly connection: RedisConnection,
  ) {}

  /** One command; resolves with its raw reply. */
  call(args: readonly string[]): Promise<unknown> {
    return this.connection.call(args);
  }

  /** Several commands in one round trip (not atomic). */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.connection.pipeline(commands);
  }

  /** Several commands as MULTI/EXEC (atomic). */
  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.connection.transaction(commands);
  }

  /**
   * The keys matching a glob, in batches, walked with SCAN (KEYS would block the server). SCAN
   * may return a key more than once; `distinct` drops the repeats, at the cost of remembering
   * every key seen.
   */
  async *scanKeys(pattern: string, options: { distinct?: boolean } = {}): AsyncGenerator<string[]> {
    const seen = options.distinct ? new Set<string>() : undefined;
    let cursor = '0';
    do {
      const [next, found] = (await this.call(['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(SCAN_COUNT)])) as [string, string[]];
      let keys = found;
      if (seen) {
        keys = found.filter((k) => !seen.has(k));
        for (const k of keys) seen.add(k);
      }
      if (keys.length > 0) yield keys;
      cursor = String(next);
    } while (cursor !== '0');
  }

  /** Remove every key matching a glob (UNLINK: the memory is freed in the background). */
  async unlinkMatching(pattern: string): Promise<void> {
    for await (const keys of this.scanKeys(pattern)) await this.call(['UNLINK', ...keys]);
  }
}
