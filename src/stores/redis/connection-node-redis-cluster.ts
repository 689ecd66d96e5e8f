import { createCluster } from '@redis/client';
import { packageVersion } from '../../version.ts';
import type { RedisConnection, RedisNodeCaller } from './connection.ts';
import type { ClusterConnectionOptions } from './connection-detect.ts';
import { deadline } from './connection-node-redis.ts';
import { firstKey } from './command-keys.ts';

type Cluster = ReturnType<typeof createCluster>;

/** How soon after a node's error the slot map is read again, at most. */
const REDISCOVER_EVERY_MS = 250;

/**
 * node-redis's `createCluster`: the slot map read from the cluster, each command sent to the
 * master of its key's slot (the key named by command-keys.ts), MOVED and ASK followed, and the
 * slot map read again after a MOVED. Its node clients reconnect as the single client does, and
 * fail commands at once while a node is away (the offline queue is off).
 *
 * Driver workaround (@redis/client 5.12): the cluster client reads the slot map again only after a
 * MOVED or ASK reply. A master that dies never answers one, so after its replica has taken over
 * the client would keep sending that master's slots to the dead address until the node came back
 * (node-redis issue #2806). So a node's connection error schedules a new read of the slot map
 * (at most every 250 ms), from another node, through the client's own rediscovery
 * (`_slots.rediscover`, public in its typings); the seeds are every node the cluster listed when
 * docbench connected, so it works when the URL's node is the one that died.
 */
export class NodeRedisClusterConnection implements RedisConnection {
  readonly driver = `@redis/client ${packageVersion('@redis/client')}`;
  readonly isCluster = true;
  private readonly cluster: Cluster;
  private readonly commandTimeoutMs: number;
  private readonly seeds: readonly { host: string; port: number }[];
  private connectedOnce = false;
  private rediscovering = false;
  private lastRediscoverMs = 0;

  constructor(options: ClusterConnectionOptions) {
    const { url } = options;
    this.commandTimeoutMs = options.commandTimeoutMs;
    this.seeds = options.seeds.map((n) => ({ host: n.host.replace(/^\[|\]$/g, ''), port: n.port }));
    this.cluster = createCluster({
      rootNodes: this.seeds.map((socket) => ({ socket })),
      defaults: {
        ...(url.username !== undefined ? { username: url.username } : {}),
        ...(url.password !== undefined ? { password: url.password } : {}),
        socket: {
          ...(url.tls ? { tls: true as const } : {}),
          connectTimeout: options.connectTimeoutMs,
          reconnectStrategy: (retries: number) => (this.connectedOnce ? Math.min((retries + 1) * 50, 500) : false),
        },
        disableOfflineQueue: true,
      },
      useReplicas: false,
    });
    this.cluster.on('error', () => {});
    this.cluster.on('node-error', (_error: unknown, node: { host: string; port: number }) => this.rediscoverSoon(node));
  }

  async connect(): Promise<void> {
    await this.cluster.connect();
    await this.call(['PING']);
    this.connectedOnce = true;
  }

  call(args: readonly string[]): Promise<unknown> {
    return deadline(this.cluster.sendCommand(firstKey(args), false, args as string[]), this.commandTimeoutMs);
  }

  /** Each command to the master of its own slot, all at once (one pipeline cannot span nodes). */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return Promise.all(commands.map((c) => this.call(c)));
  }

  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const multi = this.cluster.multi();
    for (const c of commands) multi.addCommand(firstKey(c), false, c as string[]);
    return deadline(multi.exec() as Promise<unknown[]>, this.commandTimeoutMs);
  }

  /** The multi is routed by its first key; keyless commands (WAIT) follow on that node's connection. */
  onOneNode(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    const multi = this.cluster.multi();
    for (const c of commands) multi.addCommand(firstKey(c), false, c as string[]);
    return deadline(multi.execAsPipeline() as Promise<unknown[]>, this.commandTimeoutMs);
  }

  one(): RedisConnection {
    return this;
  }

  async masters(): Promise<RedisNodeCaller[]> {
    return Promise.all(
      this.cluster.masters.map(async (master) => {
        const client = await this.cluster.nodeClient(master);
        return {
          address: master.address,
          call: (args: readonly string[]) => deadline(client.sendCommand(args as string[]), this.commandTimeoutMs),
        };
      }),
    );
  }

  private rediscoverSoon(failed: { host: string; port: number }): void {
    if (!this.connectedOnce || this.rediscovering || Date.now() - this.lastRediscoverMs < REDISCOVER_EVERY_MS) return;
    const others = this.seeds.filter((s) => s.host !== failed.host || s.port !== failed.port);
    const from = others[Math.floor(Math.random() * others.length)] ?? this.seeds[0]!;
    this.rediscovering = true;
    this.lastRediscoverMs = Date.now();
    // rediscover() reads the slot map from the given client's options, else from the root nodes.
    const startWith = { options: { socket: from } } as unknown as Parameters<Cluster['_slots']['rediscover']>[0];
    this.cluster._slots
      .rediscover(startWith)
      .catch(() => {})
      .finally(() => {
        this.rediscovering = false;
      });
  }

  async close(): Promise<void> {
    this.connectedOnce = false;
    if (!this.cluster.isOpen) return;
    try {
      await this.cluster.close();
    } catch {
      this.cluster.destroy();
    }
  }
}
