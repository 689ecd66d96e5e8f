/**
 * The loopback ports local servers listen on: which port (a fixed default, movable with an
 * environment variable), whether it is free, and, when it is not, which program holds it, so
 * the message can name it. docbench never stops a program it did not start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { UserError } from '../common/user-error.ts';
import { processIdentity, shortCommand } from './process-identity.ts';

/** Local servers listen on the loopback interface only: nothing outside this machine reaches them. */
export const LOOPBACK = '127.0.0.1';

export interface LocalPort {
  readonly port: number;
  /** The environment variable that moves it, e.g. `DOCBENCH_REDIS_PORT`. */
  readonly variable: string;
  /** True when the variable moved it off its default. */
  readonly moved: boolean;
}

/**
 * A local server's port: `defaultPort`, or the value of DOCBENCH_<STORE>_PORT
 * (DOCBENCH_<STORE>_<ROLE>_PORT for a server's second port), so a second instance, or a machine
 * where the default is taken, can use another.
 */
export function localPort(store: string, defaultPort: number, role?: string): LocalPort {
  const variable = `DOCBENCH_${[store, role].filter(Boolean).join('_').toUpperCase()}_PORT`;
  const given = process.env[variable];
  if (given === undefined || given === '') return { port: defaultPort, variable, moved: false };
  const port = Number(given);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new UserError(`${variable}=${given}: expected a TCP port number (1-65535)`);
  return { port, variable, moved: port !== defaultPort };
}

/** True when a server could listen on host:port now (nothing else listens there). */
export function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Connect to host:port and, if `send` is given, write it and judge the first reply with `reply`;
 * without `send`, an accepted connection is the answer. False on any error or after `timeoutMs`.
 */
export function tcpProbe(
  host: string,
  port: number,
  options: { send?: string | Uint8Array; reply?: (text: string) => boolean; timeoutMs?: number } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(options.timeoutMs ?? 1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => (options.send === undefined ? done(true) : socket.write(options.send)));
    socket.once('data', (data) => done(options.reply?.(data.toString()) ?? true));
  });
}

/** The program listening on a TCP port, as "pid 1234: node server.js", or null when it cannot be found. */
export function portHolder(port: number): string | null {
  const pid = existsSync('/proc/net/tcp') ? listenerFromProc(port) : listenerFromLsof(port);
  if (pid === null) return null;
  const identity = processIdentity(pid);
  return identity ? `pid ${pid}: ${shortCommand(identity.commandLine)}` : `pid ${pid}`;
}

/** Linux: the listening socket's inode from /proc/net/tcp{,6}, then the process with that socket open. */
function listenerFromProc(port: number): number | null {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      // local_address is hex "ADDR:PORT"; state 0A is LISTEN; column 9 is the inode.
      if (columns[3] === '0A' && Number.parseInt(columns[1]?.split(':')[1] ?? '', 16) === port)
        inodes.add(`socket:[${columns[9]}]`);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${entry}/fd/${fd}`))) return Number(entry);
      } catch {
        // closed in between
      }
    }
  }
  return null;
}

/** Elsewhere (macOS, BSD): lsof, where it is installed. */
function listenerFromLsof(port: number): number | null {
  const result = spawnSync('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fp'], { encoding: 'utf8' });
  const match = result.status === 0 ? /^p(\d+)$/m.exec(result.stdout) : null;
  return match ? Number(match[1]) : null;
}
