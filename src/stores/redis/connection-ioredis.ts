import { Redis } from 'ioredis';
import { packageVersion } from '../../version.ts';
import type { RedisConnection, RedisConnectionOptions, RedisNodeCaller } from './connection.ts';

/** Reconnection attempts after a lost connection: 50 ms, 100 ms, … at most every 500 ms. */
const RECONNECT_STEP_MS = 50;
const MAX_RECONNECT_DELAY_MS = 500;

/** ioredis: the long-popular client, the store's default (`redis.driver=ioredis`). */
export class IoredisConnection implements RedisConnection {
  readonly driver = `ioredis ${packageVersion('ioredis')}`;
  readonly isCluster = false;
  private readonly client: Redis;
  private readonly address: string;
  /**
   * ioredis reports why a connection failed (refused, timed out, bad password, no such database)
   * only as an 'error' event; the call that failed rejects with a bare "Connection is closed.".
   */
  private lastError: Error | undefined;
  /** Set once the first connect succeeded: from then on a lost connection is made again. */
  private connectedOnce = false;

  constructor(options: RedisConnectionOptions) {
    this.address = new URL(options.url).host;
    this.client = new Redis(options.url, {
      lazyConnect: true,
      connectTimeout: options.connectTimeoutMs,
      // Fail fast instead of queueing: while the server is away each command fails at once
      // (counted as SERVICE_UNAVAILABLE), so a run keeps its schedule.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      // A stalled server (no answer on an open connection) fails the command as a timeout.
      commandTimeout: options.commandTimeoutMs,
      // An unreachable server at the start is an error; a server lost mid-run is reconnected to,
      // so the run recovers when it comes back.
      retryStrategy: (times) =>
        this.connectedOnce ? Math.min(times * RECONNECT_STEP_MS, MAX_RECONNECT_DELAY_MS) : null,
      enableAutoPipelining: options.autoPipelining,
    });
    this.client.on('error', (error: Error) => {
      this.lastError = error;
    });
  }

  async connect(): Promise<void> {
    this.lastError = undefined;
    try {
      await this.client.connect();
      await this.client.call('PING');
    } catch (error) {
      this.client.disconnect();
      throw this.lastError ?? error;
    }
    // A failed SELECT of the URL's database is only an 'error' event (ioredis then stays on
    // database 0); it came before the PING's reply, so it is known by now.
    if (this.lastError) {
      this.client.disconnect();
      throw this.lastError;
    }
    this.connectedOnce = true;
  }

  call(args: readonly string[]): Promise<unknown> {
    return this.client.call(args[0]!, ...args.slice(1));
  }

  async pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return results(await this.client.pipeline(commands.map(asMethodCall)).exec());
  }

  async transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return results(await this.client.multi(commands.map(asMethodCall)).exec());
  }

  onOneNode(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.pipeline(commands);
  }

  one(): RedisConnection {
    return this;
  }

  async masters(): Promise<RedisNodeCaller[]> {
    return [{ address: this.address, call: (args) => this.call(args) }];
  }

  async close(): Promise<void> {
    this.connectedOnce = false;
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

/**
 * ioredis runs each pipelined entry as a method call; `call` sends the command as it is and
 * returns the raw reply (its named methods would reshape some replies, e.g. HGETALL into an object).
 */
export function asMethodCall(command: readonly string[]): string[] {
  return ['call', ...command];
}

export function results(replies: [Error | null, unknown][] | null): unknown[] {
  if (replies === null) throw new Error('transaction aborted');
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
