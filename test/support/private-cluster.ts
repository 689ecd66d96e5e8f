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
import { redisClusterNodes, redisClusterUrl, startRedisCluster, stopRedisCluster, type RedisClusterOptions } from '../../src/stores/redis/local-cluster.ts';
import type { ClusterNode } from '../../src/local/cluster-node.ts';
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
    for (let i = 0; i < count && ok; i++) ok = (await listenable(base + i)) && (!withBus || (await listenable(base + i + 10_000)));
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

export async function privateRedisCluster(layout: { masters: number; replicas: number; tls?: boolean; password?: string }): Promise<PrivateRedisCluster> {
  const missing = spawnSync('redis-server', ['--version']).status !== 0 || spawnSync('redis-cli', ['--version']).status !== 0 ? 'redis-server and redis-cli are not on PATH' : undefined;
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
      const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...auth, ...tls, ...args], { encoding: 'utf8' });
      return r.stdout;
    },
    async dispose() {
      await stopRedisCluster(options, quiet).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
