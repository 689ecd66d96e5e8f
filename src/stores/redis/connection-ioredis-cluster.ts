import { Cluster } from 'ioredis';
import { packageVersion } from '../../version.ts';
import type { RedisConnection, RedisNodeCaller } from './connection.ts';
import type { ClusterConnectionOptions } from './connection-detect.ts';
import { asMethodCall, results } from './connection-ioredis.ts';

/**
 * ioredis's `Cluster`: the slot map read from the cluster, each command sent to the master of its
 * key's slot, MOVED and ASK followed. When a master is lost, a command on its slots fails with
 * "Connection is closed", which the client retries every 100 ms after reloading the slot map, up
 * to 16 times (its defaults, kept): a failover that finishes in that time is seen as slow
 * commands, a longer one as failed ones (SERVICE_UNAVAILABLE). Commands are never queued while
 * the cluster is not ready (enableOfflineQueue off, as for the single client).
 */
export class IoredisClusterConnection implements RedisConnection {
  readonly driver = `ioredis ${packageVersion('ioredis')}`;
  readonly isCluster = true;
  private readonly cluster: Cluster;
  private lastError: Error | undefined;
  private connectedOnce = false;

  constructor(options: ClusterConnectionOptions) {
    const { url } = options;
    this.cluster = new Cluster(
      options.seeds.map((n) => ({ host: n.host.replace(/^\[|\]$/g, ''), port: n.port })),
      {
        lazyConnect: true,
        enableOfflineQueue: false,
        enableAutoPipelining: options.autoPipelining,
        // An unreachable cluster at the start is an error; one lost mid-run is reconnected to.
        clusterRetryStrategy: (times) => (this.connectedOnce ? Math.min(times * 50, 500) : null),
        redisOptions: {
          ...(url.username !== undefined ? { username: url.username } : {}),
          ...(url.password !== undefined ? { password: url.password } : {}),
          ...(url.tls ? { tls: {} } : {}),
          connectTimeout: options.connectTimeoutMs,
          commandTimeout: options.commandTimeoutMs,
          maxRetriesPerRequest: 1,
        },
      },
    );
    this.cluster.on('error', (error: Error) => {
      this.lastError = error;
    });
  }

  async connect(): Promise<void> {
    this.lastError = undefined;
    try {
      await this.cluster.connect();
      await this.cluster.call('PING');
    } catch (error) {
      this.cluster.disconnect();
      throw this.lastError ?? error;
    }
    this.connectedOnce = true;
  }

  call(args: readonly string[]): Promise<unknown> {
    return this.cluster.call(args[0]!, ...args.slice(1));
  }

  /** Each command to the master of its own slot, all at once (one pipeline cannot span nodes). */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return Promise.all(commands.map((c) => this.call(c)));
  }

  async transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return results(await this.cluster.multi(commands.map(asMethodCall)).exec());
  }

  /** ioredis sends a pipeline to the node of its keys (they must share a node); keyless commands ride along. */
  async onOneNode(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return results(await this.cluster.pipeline(commands.map(asMethodCall)).exec());
  }

  one(): RedisConnection {
    return this;
  }

  async masters(): Promise<RedisNodeCaller[]> {
    return this.cluster.nodes('master').map((node) => ({
      address: `${node.options.host}:${node.options.port}`,
      call: (args: readonly string[]) => node.call(args[0]!, ...args.slice(1)),
    }));
  }

  async close(): Promise<void> {
    this.connectedOnce = false;
    if (this.cluster.status === 'end') return;
    try {
      await this.cluster.quit();
    } catch {
      this.cluster.disconnect();
    }
  }
}
