import { createClient, TimeoutError } from '@redis/client';
import { packageVersion } from '../../version.ts';
import type { RedisConnection, RedisConnectionOptions, RedisNodeCaller } from './connection.ts';

type Client = ReturnType<typeof createClient>;

/** node-redis (`@redis/client`): Redis's own Node client (`redis.driver=node-redis`). */
export class NodeRedisConnection implements RedisConnection {
  readonly driver = `@redis/client ${packageVersion('@redis/client')}`;
  readonly isCluster = false;
  private readonly client: Client;
  private readonly address: string;
  private readonly commandTimeoutMs: number;
  /** Set once the first connect succeeded: from then on a lost connection is made again. */
  private connectedOnce = false;

  constructor(options: RedisConnectionOptions) {
    this.commandTimeoutMs = options.commandTimeoutMs;
    this.address = new URL(options.url).host;
    this.client = createClient({
      url: options.url,
      // Fail fast: an unreachable server at the start is an error, not a reason to wait; a
      // server lost mid-run is reconnected to (50 ms, 100 ms, … at most every 500 ms), and while
      // it is away each command fails at once (the offline queue is off).
      socket: {
        connectTimeout: options.connectTimeoutMs,
        reconnectStrategy: (retries: number) => (this.connectedOnce ? Math.min((retries + 1) * 50, 500) : false),
      },
      disableOfflineQueue: true,
    });
    // Errors surface through the failing command; without a listener the client would throw them.
    this.client.on('error', () => {});
  }

  async connect(): Promise<void> {
    // connect() selects the URL's database and rejects if that fails.
    await this.client.connect();
    await this.timed(this.client.sendCommand(['PING']));
    this.connectedOnce = true;
  }

  call(args: readonly string[]): Promise<unknown> {
    return this.timed(this.client.sendCommand(args as string[]));
  }

  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const multi = this.client.multi();
    for (const c of commands) multi.addCommand(c as string[]);
    return this.timed(multi.execAsPipeline() as Promise<unknown[]>);
  }

  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const multi = this.client.multi();
    for (const c of commands) multi.addCommand(c as string[]);
    return this.timed(multi.exec() as Promise<unknown[]>);
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

  /**
   * A stalled server (no answer on an open connection) fails the command as the client's own
   * TimeoutError after `redis.commandtimeout`, as ioredis's commandTimeout does (one timer per
   * command there too). node-redis's own `timeout` option only bounds the wait to be WRITTEN,
   * not the reply, and does not apply to pipelines or MULTI/EXEC. A reply that comes after the
   * deadline is still read in order by the client, so the connection stays usable.
   */
  private timed<T>(reply: Promise<T>): Promise<T> {
    return deadline(reply, this.commandTimeoutMs);
  }

  async close(): Promise<void> {
    this.connectedOnce = false;
    if (!this.client.isOpen) return;
    try {
      await this.client.close();
    } catch {
      this.client.destroy();
    }
  }
}

/** The reply, or the client's own TimeoutError once `ms` have passed (see `timed` above). */
export function deadline<T>(reply: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
  });
  return Promise.race([reply, limit]).finally(() => clearTimeout(timer));
}
