/**
 * Local Redis: Debian's `redis-server`, our own instance on 127.0.0.1:16379 with its own data
 * directory, pid file and log under the docbench cache folder (a system Redis on 6379 is left
 * alone). Persistence is Redis's built-in default (RDB snapshots, no AOF), as a user's fresh
 * install would have it. The real server, so there is no stand-in workaround here.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { runDir } from '../../local/paths.ts';
import { livePid, MissingPrerequisiteError, spawnDetached, stopByPidFile, waitUntil } from '../../local/process.ts';
import type { LocalTarget, TargetInfo, TargetStatus } from '../../local/target.ts';

const HOST = '127.0.0.1';
const PORT = 16379;
const URL = `redis://${HOST}:${PORT}`;

const paths = () => {
  const dir = runDir('redis');
  return { dir, data: join(dir, 'data'), pidFile: join(dir, 'redis.pid'), logFile: join(dir, 'redis.log') };
};

function which(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** PING over a plain socket: the server is up when it answers +PONG. */
function ping(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export const localTarget: LocalTarget = {
  store: 'redis',
  url: URL,

  async install(log) {
    if (which('redis-server') && which('redis-benchmark')) return;
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot || !which('apt-get')) {
      throw new MissingPrerequisiteError('redis-server is not installed; install it (Debian/Ubuntu: sudo apt-get install redis-server redis-tools) or give --url');
    }
    log('redis: installing redis-server and redis-tools with apt-get');
    const aptInstall = () =>
      execFileSync('apt-get', ['install', '-y', '-qq', 'redis-server', 'redis-tools'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    try {
      aptInstall();
    } catch {
      // A fresh machine may have no package lists yet.
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
      aptInstall();
    }
  },

  async start(log) {
    const p = paths();
    if (livePid(p.pidFile) !== null && (await ping(HOST, PORT))) return this.status();
    await this.install(log);
    mkdirSync(p.data, { recursive: true });
    log(`redis: starting on ${HOST}:${PORT}`);
    const pid = spawnDetached('redis-server', ['--bind', HOST, '--port', String(PORT), '--dir', p.data, '--daemonize', 'no', '--logfile', ''], {
      logFile: p.logFile,
      pidFile: p.pidFile,
    });
    await waitUntil('redis-server', () => ping(HOST, PORT), {
      timeoutMs: 20_000,
      aliveCheck: () => livePid(p.pidFile) === pid,
      logFile: p.logFile,
    });
    return this.status();
  },

  async stop(log) {
    if (await stopByPidFile(paths().pidFile)) log('redis: stopped');
  },

  async status(): Promise<TargetStatus> {
    const p = paths();
    const pid = livePid(p.pidFile);
    return { running: pid !== null && (await ping(HOST, PORT)), pid, url: URL, logFile: p.logFile };
  },

  async info(): Promise<TargetInfo> {
    let version = 'not installed';
    try {
      version = /v=([\d.]+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
    } catch {
      // not installed yet
    }
    return { store: 'redis', product: `redis-server ${version} (Debian package)`, standIn: false, limits: '' };
  },
};
