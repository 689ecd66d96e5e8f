/**
 * A single server or a Redis Cluster: the same URL may name either (any node of a cluster), so
 * the store asks. On connect, a client for a single server opens to the first of the URL's nodes
 * that answers and reads `INFO cluster`; with cluster mode off, that client is the connection (one
 * of `redis.connections`), else it reads `CLUSTER NODES`, closes, and the driver's cluster client
 * opens with every node listed as a seed (ioredis `Cluster`, node-redis `createCluster`), one
 * per `redis.connections` (so N connections to every node). Calls before connect are a bug.
 */
import { UserError } from '../../common/user-error.ts';
import { packageVersion } from '../../version.ts';
import { clusterEnabled, parseClusterNodes } from './cluster-topology.ts';
import type { RedisConnection, RedisNodeCaller } from './connection.ts';
import { IoredisClusterConnection } from './connection-ioredis-cluster.ts';
import { IoredisConnection } from './connection-ioredis.ts';
import { NodeRedisClusterConnection } from './connection-node-redis-cluster.ts';
import { NodeRedisConnection } from './connection-node-redis.ts';
import { RedisConnectionSet } from './connection-set.ts';
import type { RedisConfig } from './settings.ts';
import { nodeAddress, nodeUrl, type RedisNode, type RedisUrl } from './url.ts';

/** What a cluster client is made from. */
export interface ClusterConnectionOptions {
  url: RedisUrl;
  /** Every node to learn the slot map from. */
  seeds: readonly RedisNode[];
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  autoPipelining: boolean;
}

/** The URL names several nodes, but the server is not a cluster node. */
export class NotAClusterError extends UserError {}

export class DetectingConnection implements RedisConnection {
  readonly driver: string;
  private inner: RedisConnection | undefined;

  constructor(private readonly config: RedisConfig) {
    this.driver =
      config.driver === 'node-redis'
        ? `@redis/client ${packageVersion('@redis/client')}`
        : `ioredis ${packageVersion('ioredis')}`;
  }

  get isCluster(): boolean {
    return this.inner?.isCluster ?? false;
  }

  async connect(): Promise<void> {
    const { probe, node, seeds } = await this.probe();
    const { config } = this;
    const n = config.connections;
    if (seeds === undefined) {
      const rest = Array.from({ length: n - 1 }, () => this.single(node));
      const connection = n === 1 ? probe : new RedisConnectionSet([probe, ...rest]);
      this.inner = connection;
      if (rest.length > 0)
        await new RedisConnectionSet(rest).connect().catch(async (error: unknown) => {
          await probe.close();
          throw error;
        });
      return;
    }
    await probe.close();
    const options: ClusterConnectionOptions = {
      url: config.url,
      seeds,
      connectTimeoutMs: config.connectTimeoutMs,
      commandTimeoutMs: config.commandTimeoutMs,
      autoPipelining: config.autoPipelining,
    };
    const one = () =>
      config.driver === 'node-redis' ? new NodeRedisClusterConnection(options) : new IoredisClusterConnection(options);
    const connection = n === 1 ? one() : new RedisConnectionSet(Array.from({ length: n }, one));
    this.inner = connection;
    await connection.connect();
  }

  /**
   * A connected single-server client to the first node that answers, and, when it is a cluster
   * node, every node the cluster lists (the URL's first, failing ones left out). Throws the first
   * node's error when none answers.
   */
  private async probe(): Promise<{ probe: RedisConnection; node: RedisNode; seeds?: RedisNode[] }> {
    const { url } = this.config;
    let firstError: unknown;
    for (const node of url.nodes) {
      const probe = this.single(node);
      try {
        await probe.connect();
      } catch (error) {
        await probe.close().catch(() => {});
        firstError ??= error;
        continue;
      }
      if (!clusterEnabled(String(await probe.call(['INFO', 'cluster'])))) {
        if (url.nodes.length > 1) {
          await probe.close();
          throw new NotAClusterError(
            `redis URL ${url.masked}: it lists ${url.nodes.length} nodes, but ${nodeAddress(node)} is not in cluster mode (cluster_enabled:0); give a single server's URL, or the nodes of a Redis Cluster`,
          );
        }
        return { probe, node };
      }
      const listed = parseClusterNodes(String(await probe.call(['CLUSTER', 'NODES'])))
        .filter((n) => !n.failing && n.address !== '' && !n.address.startsWith(':'))
        .map((n) => hostPort(n.address));
      const seeds = [node, ...listed.filter((n) => nodeAddress(n) !== nodeAddress(node))];
      return { probe, node, seeds };
    }
    throw firstError;
  }

  private single(node: RedisNode): RedisConnection {
    const { config } = this;
    const options = {
      url: nodeUrl(config.url, node),
      connectTimeoutMs: config.connectTimeoutMs,
      commandTimeoutMs: config.commandTimeoutMs,
      autoPipelining: config.autoPipelining,
    };
    return config.driver === 'node-redis' ? new NodeRedisConnection(options) : new IoredisConnection(options);
  }

  call(args: readonly string[]): Promise<unknown> {
    return this.inner!.call(args);
  }

  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.inner!.pipeline(commands);
  }

  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.inner!.transaction(commands);
  }

  onOneNode(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.inner!.onOneNode(commands);
  }

  one(): RedisConnection {
    return this.inner!.one();
  }

  masters(): Promise<RedisNodeCaller[]> {
    return this.inner!.masters();
  }

  async close(): Promise<void> {
    const inner = this.inner;
    this.inner = undefined;
    await inner?.close();
  }
}

/** `host:port` (IPv6 in brackets, as CLUSTER NODES writes it) as a node. */
function hostPort(address: string): RedisNode {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon);
  return {
    host: host.includes(':') && !host.startsWith('[') ? `[${host}]` : host,
    port: Number(address.slice(colon + 1)),
  };
}
