/**
 * Local Redis: Debian's `redis-server`, our own instance on 127.0.0.1:16379 (DOCBENCH_REDIS_PORT
 * moves it) with its own data directory, pid file and log under the docbench cache folder (a
 * system Redis on 6379 is left alone). Persistence is Redis's built-in default (RDB snapshots, no
 * AOF), as a user's fresh install would have it. The real server, so there is no stand-in
 * workaround here. `docbench up redis --nodes N --replicas R` runs a Redis Cluster beside it
 * (local-cluster.ts).
 */
import { execFileSync } from 'node:child_process';
import { managedServer } from '../../local/managed-server.ts';
import { localPort, LOOPBACK, tcpProbe } from '../../local/ports.ts';
import { onPath } from '../../local/process.ts';
import { aptInstall } from '../../local/apt.ts';
import type { LocalTarget } from '../../local/target.ts';
import { localCluster } from './local-cluster.ts';

const PORT = localPort('redis', 16379);

async function install(log: (line: string) => void): Promise<void> {
  if (onPath('redis-server') && onPath('redis-benchmark')) return;
  aptInstall({ packages: ['redis-server', 'redis-tools'], missing: 'redis-server is not installed' }, log, 'redis');
}

function version(): string {
  try {
    return /v=([\d.]+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  } catch {
    return 'not installed';
  }
}

const single = managedServer({
  store: 'redis',
  program: 'redis-server',
  url: `redis://${LOOPBACK}:${PORT.port}`,
  ports: [PORT],
  // redis-server rewrites its command line to "redis-server 127.0.0.1:16379".
  recognise: 'redis-server',
  files: 'redis',
  install,
  command: ({ data }) => ({
    command: 'redis-server',
    args: ['--bind', LOOPBACK, '--port', String(PORT.port), '--dir', data, '--daemonize', 'no', '--logfile', ''],
  }),
  // PING over a plain socket: the server is up when it answers +PONG.
  healthy: () => tcpProbe(LOOPBACK, PORT.port, { send: 'PING\r\n', reply: (text) => text.startsWith('+PONG') }),
  startTimeoutMs: 20_000,
  info: async () => ({
    store: 'redis',
    product: `redis-server ${version()} (Debian package)`,
    standIn: false,
    limits: '',
  }),
});

/** The single server, and a Redis Cluster of several (local-cluster.ts) on other ports. */
export const localTarget: LocalTarget = { ...single, cluster: localCluster };
