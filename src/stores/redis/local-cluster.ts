/**
 * A local Redis Cluster: `docbench up redis --nodes N --replicas R` starts N masters and R
 * replicas of each (N×(1+R) `redis-server` processes, Debian's, as the single local server) on
 * 127.0.0.1, ports 17300, 17301, … (DOCBENCH_REDIS_CLUSTER_PORT moves them; each node's cluster
 * bus is its port + 10000), and forms the cluster with Redis's own tool, `redis-cli --cluster
 * create … --cluster-replicas R`. Each node persists to an append-only file (fsync every second),
 * so a node killed and restarted comes back with its data and rejoins (as a replica of the master
 * that took over), and its failure is detected after `cluster-node-timeout` (5 s here, Redis's
 * default is 15 s, so a failover is seen within a short run). Tests start their own clusters with
 * the same code on free ports, with TLS and a password where they test those.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { promisify } from 'node:util';
import { ClusterNode } from '../../local/cluster-node.ts';
import {
  readClusterRecord,
  writeClusterRecord,
  type ClusterLayout,
  type ClusterTargetStatus,
  type LocalClusterTarget,
} from '../../local/cluster-target.ts';
import { runDir } from '../../local/paths.ts';
import { localPort, LOOPBACK, tcpProbe } from '../../local/ports.ts';
import { StartFailedError, waitUntil } from '../../local/process.ts';
import { UserError } from '../../common/user-error.ts';

const run = promisify(execFile);

export interface RedisClusterOptions {
  masters: number;
  /** Replicas of each master. */
  replicas: number;
  /** Node i listens on basePort + i (its bus on + 10000). */
  basePort: number;
  /** Holds a folder per node. */
  dir: string;
  /** cluster-node-timeout: how long a node may be silent before it is taken for failing. */
  nodeTimeoutMs: number;
  /** Every node requires this password (requirepass, and masterauth for replication). */
  password?: string;
  /** Serve TLS only (clients, replication and the cluster bus), with this certificate. */
  tls?: { cert: string; key: string; ca: string };
}

/** The least Redis Cluster accepts: `redis-cli --cluster create` refuses fewer than 3 masters. */
export const MIN_MASTERS = 3;
const NODE_TIMEOUT_MS = 5000;
const FORM_TIMEOUT_MS = 60_000;

const ports = (o: RedisClusterOptions) =>
  Array.from({ length: o.masters * (1 + o.replicas) }, (_, i) => o.basePort + i);

/** The cluster's URL: every node a seed, the password in it, rediss:// under TLS. */
export function redisClusterUrl(o: RedisClusterOptions): string {
  return `${o.tls ? 'rediss' : 'redis'}://${o.password ? `:${encodeURIComponent(o.password)}@` : ''}${ports(o)
    .map((p) => `${LOOPBACK}:${p}`)
    .join(',')}`;
}

/** The nodes' processes (masters and replicas are told apart only once the cluster is formed). */
export function redisClusterNodes(o: RedisClusterOptions): ClusterNode[] {
  return ports(o).map(
    (port) =>
      new ClusterNode({
        name: `redis cluster node ${LOOPBACK}:${port}`,
        dir: join(o.dir, `node-${port}`),
        host: LOOPBACK,
        ports: [port, port + 10_000],
        recognise: 'redis-server',
        files: 'redis',
        command: (dir) => ({ command: 'redis-server', args: nodeArgs(o, port, dir) }),
        healthy: () => ping(o, port),
        startTimeoutMs: 20_000,
        stopGraceMs: 10_000,
      }),
  );
}

function nodeArgs(o: RedisClusterOptions, port: number, dir: string): string[] {
  const args = [
    '--bind',
    LOOPBACK,
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--logfile',
    '',
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
  ];
  args.push(
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(o.nodeTimeoutMs),
  );
  if (o.password) args.push('--requirepass', o.password, '--masterauth', o.password);
  if (o.tls) {
    args.push(
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      o.tls.cert,
      '--tls-key-file',
      o.tls.key,
      '--tls-ca-cert-file',
      o.tls.ca,
    );
    args.push('--tls-auth-clients', 'no', '--tls-replication', 'yes', '--tls-cluster', 'yes');
  } else {
    args.push('--port', String(port));
  }
  return args;
}

/** The node answers PING (+PONG, or -NOAUTH when it has a password). */
function ping(o: RedisClusterOptions, port: number): Promise<boolean> {
  const answers = (text: string) => text.startsWith('+PONG') || text.startsWith('-NOAUTH');
  if (!o.tls) return tcpProbe(LOOPBACK, port, { send: 'PING\r\n', reply: answers });
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: LOOPBACK, port, rejectUnauthorized: false });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('secureConnect', () => socket.write('PING\r\n'));
    socket.once('data', (data: Buffer) => done(answers(data.toString())));
  });
}

/** redis-cli against one node, with the cluster's password and TLS. */
async function cli(o: RedisClusterOptions, args: readonly string[], port = o.basePort): Promise<string> {
  const base = ['-h', LOOPBACK, '-p', String(port)];
  if (o.password) base.push('-a', o.password, '--no-auth-warning');
  if (o.tls) base.push('--tls', '--cacert', o.tls.ca);
  const { stdout } = await run('redis-cli', [...base, ...args], { encoding: 'utf8', timeout: 120_000 });
  return stdout;
}

const field = (info: string, name: string) => new RegExp(`^${name}:(\\S+)`, 'm').exec(info)?.[1];

/** Every node sees the cluster whole: state ok, every node known, every slot served. */
async function formed(o: RedisClusterOptions): Promise<boolean> {
  const total = ports(o).length;
  for (const port of ports(o)) {
    const info = await cli(o, ['CLUSTER', 'INFO'], port);
    if (
      field(info, 'cluster_state') !== 'ok' ||
      Number(field(info, 'cluster_known_nodes')) !== total ||
      Number(field(info, 'cluster_slots_ok')) !== 16_384
    )
      return false;
  }
  return true;
}

/** Start every node (in parallel), form the cluster unless its slots are assigned, and wait until every node sees it whole. */
export async function startRedisCluster(
  o: RedisClusterOptions,
  log: (line: string) => void,
): Promise<ClusterTargetStatus> {
  if (o.masters < MIN_MASTERS)
    throw new UserError(
      `redis --nodes ${o.masters}: a Redis Cluster needs at least ${MIN_MASTERS} masters (redis-cli --cluster create refuses fewer)`,
    );
  writeClusterRecord(o.dir, o);
  const nodes = redisClusterNodes(o);
  log(
    `redis: starting a cluster of ${o.masters} masters with ${o.replicas} replica(s) each on ${LOOPBACK}:${o.basePort}-${o.basePort + nodes.length - 1}`,
  );
  const started = (await Promise.all(nodes.map((n) => n.start(log)))).some(Boolean);
  const assigned = Number(field(await cli(o, ['CLUSTER', 'INFO']), 'cluster_slots_assigned'));
  if (assigned === 0) {
    log(`redis: forming the cluster: redis-cli --cluster create … --cluster-replicas ${o.replicas}`);
    await cli(o, [
      '--cluster',
      'create',
      ...ports(o).map((p) => `${LOOPBACK}:${p}`),
      '--cluster-replicas',
      String(o.replicas),
      '--cluster-yes',
    ]).catch((error: unknown) => {
      throw new StartFailedError(
        `redis-cli --cluster create failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`,
      );
    });
  }
  await waitUntil('the Redis Cluster', () => formed(o), { timeoutMs: FORM_TIMEOUT_MS, intervalMs: 500 });
  return { ...(await statusOf(o)), started };
}

export async function stopRedisCluster(
  o: Pick<RedisClusterOptions, 'dir'>,
  log: (line: string) => void,
): Promise<number[]> {
  const record = readClusterRecord<RedisClusterOptions>(o.dir);
  if (!record) return [];
  const stopped = await Promise.all(redisClusterNodes(record).map((n) => n.stop(log)));
  return stopped.filter((pid): pid is number => pid !== null);
}

async function statusOf(o: RedisClusterOptions): Promise<ClusterTargetStatus> {
  const nodes = await Promise.all(redisClusterNodes(o).map((n) => n.status()));
  return {
    url: redisClusterUrl(o),
    layout: `${o.masters} masters, ${o.replicas} replica${o.replicas === 1 ? '' : 's'} each (${nodes.length} processes)`,
    nodes,
  };
}

/** docbench's own local cluster: its folder under the cache, its ports (DOCBENCH_REDIS_CLUSTER_PORT). */
function localOptions(layout: ClusterLayout): RedisClusterOptions {
  return {
    masters: layout.nodes,
    replicas: layout.replicas,
    basePort: localPort('redis', 17300, 'cluster').port,
    dir: runDir('redis-cluster'),
    nodeTimeoutMs: NODE_TIMEOUT_MS,
  };
}

export const localCluster: LocalClusterTarget = {
  minNodes: MIN_MASTERS,
  replicasMeaning: 'replicas of each master',
  async start(layout, log) {
    const previous = readClusterRecord<RedisClusterOptions>(runDir('redis-cluster'));
    const wanted = localOptions(layout);
    if (
      previous &&
      (previous.masters !== wanted.masters || previous.replicas !== wanted.replicas) &&
      nodeFolders(previous.dir).length > 0
    ) {
      const running = (await statusOf(previous)).nodes.some((n) => n.pid !== null);
      throw new UserError(
        `redis: a local cluster of ${previous.masters} masters with ${previous.replicas} replica(s) each ${running ? 'runs' : 'was made'} in ${previous.dir}; ` +
          `${running ? 'stop it (docbench down redis) and ' : ''}remove that folder to make one of ${wanted.masters} masters with ${wanted.replicas} replica(s)`,
      );
    }
    return startRedisCluster(wanted, log);
  },
  stop: (log) => stopRedisCluster({ dir: runDir('redis-cluster') }, log),
  async status() {
    const record = readClusterRecord<RedisClusterOptions>(runDir('redis-cluster'));
    return record ? statusOf(record) : undefined;
  },
};

function nodeFolders(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((d) => d.startsWith('node-')) : [];
}
