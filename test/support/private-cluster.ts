/**
 * Local clusters of the test's own, started by docbench's own code (the local cluster modules
 * `docbench up --nodes` uses) on free ports in a folder of the test's, so a fault test can kill,
 * pause and restart their nodes by their own pids, and never touches the shared local servers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  redisClusterNodes,
  redisClusterUrl,
  startRedisCluster,
  stopRedisCluster,
  type RedisClusterOptions,
} from '../../src/stores/redis/local-cluster.ts';
import type { ClusterNode } from '../../src/local/cluster-node.ts';
import { hasOpenssl, localCertificates } from '../../src/local/certificates.ts';
import { findJava } from '../../src/local/java.ts';
import {
  cassandraRingNodes,
  cassandraRingUrl,
  ringAddress,
  startCassandraRing,
  stopCassandraRing,
  type CassandraRingOptions,
} from '../../src/stores/cassandra/local-cluster.ts';
import { makeCertificates, type TestCertificates } from './private-server.ts';

const listenable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });

/** `count` consecutive free ports whose +10000 twins are free too (a Redis Cluster node's bus port). */
export async function freePortRange(count: number, withBus = true): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    let ok = true;
    for (let i = 0; i < count && ok; i++)
      ok = (await listenable(base + i)) && (!withBus || (await listenable(base + i + 10_000)));
    if (ok) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

export interface PrivateRedisCluster {
  url: string;
  options: RedisClusterOptions;
  nodes: ClusterNode[];
  certificates?: TestCertificates;
  /** Why it cannot run here (the test then skips), or undefined. */
  missing?: string;
  start(): Promise<void>;
  /** The pid a node's own pid file names (the node at `port`). */
  pidOf(port: number): number;
  /** Ask a node with redis-cli (the cluster's password and TLS applied). */
  cli(port: number, ...args: string[]): string;
  dispose(): Promise<void>;
}

const quiet = () => {};

export async function privateRedisCluster(layout: {
  masters: number;
  replicas: number;
  tls?: boolean;
  password?: string;
}): Promise<PrivateRedisCluster> {
  const missing =
    spawnSync('redis-server', ['--version']).status !== 0 || spawnSync('redis-cli', ['--version']).status !== 0
      ? 'redis-server and redis-cli are not on PATH'
      : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'docbench-cluster-'));
  const total = layout.masters * (1 + layout.replicas);
  const certificates = layout.tls && !missing ? makeCertificates(dir) : undefined;
  const options: RedisClusterOptions = {
    masters: layout.masters,
    replicas: layout.replicas,
    basePort: await freePortRange(total),
    dir,
    // Short, so a failover finishes within a short run.
    nodeTimeoutMs: 2000,
    ...(layout.password ? { password: layout.password } : {}),
    ...(certificates ? { tls: { cert: certificates.cert, key: certificates.key, ca: certificates.ca } } : {}),
  };
  const nodes = redisClusterNodes(options);
  const auth = options.password ? ['-a', options.password, '--no-auth-warning'] : [];
  const tls = certificates ? ['--tls', '--cacert', certificates.ca] : [];
  return {
    url: redisClusterUrl(options),
    options,
    nodes,
    ...(certificates ? { certificates } : {}),
    ...(missing ? { missing } : {}),
    async start() {
      await startRedisCluster(options, quiet);
    },
    pidOf(port) {
      return Number(readFileSync(join(dir, `node-${port}`, 'redis.pid'), 'utf8').split('\n')[0]);
    },
    cli(port, ...args) {
      const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...auth, ...tls, ...args], {
        encoding: 'utf8',
      });
      return r.stdout;
    },
    async dispose() {
      await stopRedisCluster(options, quiet).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateCassandraRing {
  url: string;
  options: CassandraRingOptions;
  nodes: ClusterNode[];
  /** The CA the ring's certificate is signed by (CQL over TLS), when openssl is here. */
  ca?: string;
  missing?: string;
  start(): Promise<void>;
  /** The pid node `i` (0-based)'s own pid file names. */
  pidOf(i: number): number;
  dispose(): Promise<void>;
}

/**
 * A Cassandra ring of the test's own (docbench's local-cluster code, as `docbench up cassandra
 * --nodes N` runs it) on free ports of 127.0.0.1 … 127.0.0.N, in a folder of the test's; its
 * nodes on the smallest heap docbench gives a node, so a ring fits beside the shared servers.
 */
export async function privateCassandraRing(nodes: number): Promise<PrivateCassandraRing> {
  const missing = findJava((_, major) => major === 17) === null ? 'no Java 17 runtime for Cassandra' : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'docbench-ring-'));
  const certificates =
    !missing && hasOpenssl()
      ? localCertificates(
          join(dir, 'tls'),
          Array.from({ length: nodes }, (_, i) => ringAddress(i)),
        )
      : undefined;
  const options: CassandraRingOptions = {
    nodes,
    dir,
    cqlPort: await freePortRange(1, false),
    storagePort: await freePortRange(2, false),
    jmxBasePort: await freePortRange(nodes, false),
    heapMiB: 512,
    ...(certificates ? { tlsPem: certificates.keyAndCert, tlsCa: certificates.ca } : {}),
  };
  const ringNodes = cassandraRingNodes(options);
  return {
    url: cassandraRingUrl(options),
    options,
    nodes: ringNodes,
    ...(certificates ? { ca: certificates.ca } : {}),
    ...(missing ? { missing } : {}),
    async start() {
      await startCassandraRing(options, quiet);
    },
    pidOf(i) {
      return Number(readFileSync(join(dir, `node-${ringAddress(i)}`, 'cassandra.pid'), 'utf8').split('\n')[0]);
    },
    async dispose() {
      await stopCassandraRing(options, quiet).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
