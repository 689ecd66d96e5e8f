import { createClient } from '@redis/client';
import { packageVersion } from '../../version.ts';
import type { RedisConnection, RedisConnectionOptions } from './connection.ts';

type Client = ReturnType<typeof createClient>;

/** node-redis (`@redis/client`): Redis's own Node client (`redis.driver=node-redis`). */
export class NodeRedisConnection implements RedisConnection {
  readonly driver = `@redis/client ${packageVersion('@redis/client')}`;
  private readonly client: Client;
  /** Set once the first connect succeeded: from then on a lost connection is made again. */
  private connectedOnce = false;

  constructor(options: RedisConnectionOptions) {
    this.client = createClient({
      url: options.url,
      // Fail fast: an unreachable server at the start is an error, not a reason to wait; a
      // server lost mid-run is reconnected to (50 ms, 100 ms, … at most every 500 ms), and while
      // it is away each command fails at once (the offline queue is off).
      socket: { connectTimeout: options.connectTimeoutMs, reconnectStrategy: (retries: number) => (this.connectedOnce ? Math.min((retries + 1) * 50, 500) : false) },
      disableOfflineQueue: true,
    });
    // Errors surface through the failing command; without a listener the client would throw them.
    this.client.on('error', () => {});
  }

  async connect(): Promise<void> {
    // connect() selects the URL's database and rejects if that fails.
    await this.client.connect();
    await this.client.sendCommand(['PING']);
    this.connectedOnce = true;
  }

  call(args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand(args as string[]);
  }

  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const multi = this.client.multi();
    for (const c of commands) multi.addCommand(c as string[]);
    return multi.execAsPipeline() as Promise<unknown[]>;
  }

  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const multi = this.client.multi();
    for (const c of commands) multi.addCommand(c as string[]);
    return multi.exec() as Promise<unknown[]>;
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
