/**
 * Reaching a local server on a port that is not its own, as a user's server would be: a TCP
 * forwarder on a free loopback port, started by the test, that pipes every connection to the
 * server and counts them (so a test can tell the command really went through it). And the CLI
 * run asynchronously, since a forwarder in the test's process must keep forwarding while the
 * command runs (spawnSync would block it).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { join } from 'node:path';
import type { CliRun } from './cli.ts';

export interface Forwarder {
  /** The loopback port it listens on. */
  readonly port: number;
  /** Connections forwarded so far. */
  connections(): number;
  /**
   * Stop forwarding: connections stay open (and new ones are accepted) but no byte passes either
   * way, as with a stalled server or a network that drops packets. `resume()` delivers what was held.
   */
  pause(): void;
  resume(): void;
  /** Reset every open connection (TCP RST to both sides), as when the server's process dies with a request unread; new connections are forwarded. */
  reset(): void;
  /** Close every open connection (FIN to both sides), as when the server's process exits with nothing unread; new connections are forwarded. */
  hangUp(): void;
  /** Stop listening and reset every open connection: new connections are refused, as with a server that is down. */
  refuse(): Promise<void>;
  /** Listen again on the same port after `refuse()`. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

/** Forward 127.0.0.1:<free port> to host:port. */
export async function forward(host: string, port: number): Promise<Forwarder> {
  let connections = 0;
  let paused = false;
  const open = new Set<Socket>();
  const held: (() => void)[] = [];
  const server = createServer((client) => {
    connections++;
    const upstream = connect(port, host);
    // By hand rather than pipe(): a paused forwarder holds what arrives instead of passing it on.
    const relay = (from: Socket, to: Socket) => {
      from.on('data', (chunk: Buffer) => (paused ? held.push(() => to.write(chunk)) : to.write(chunk)));
      from.on('end', () => (paused ? held.push(() => to.end()) : to.end()));
    };
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    relay(client, upstream);
    relay(upstream, client);
  });
  const listen = () =>
    new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(listenPort, '127.0.0.1', () => resolve()),
    );
  let listenPort = 0;
  await listen();
  listenPort = (server.address() as AddressInfo).port;
  const resetAll = () => {
    for (const socket of open) socket.resetAndDestroy();
    open.clear();
    held.length = 0;
  };
  return {
    port: listenPort,
    connections: () => connections,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      for (const deliver of held.splice(0)) deliver();
    },
    reset: resetAll,
    hangUp: () => {
      for (const socket of open) socket.destroy();
      open.clear();
      held.length = 0;
    },
    refuse: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        resetAll();
      }),
    accept: listen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

/**
 * A TLS-terminating forwarder (what stunnel or a load balancer does in front of a server):
 * TLS on 127.0.0.1:<free port> with the given certificate, plain to host:port.
 */
export async function forwardTls(
  host: string,
  port: number,
  certificate: { cert: string; key: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server = createTlsServer(
    { cert: readFileSync(certificate.cert), key: readFileSync(certificate.key) },
    (client) => {
      const upstream = connect(port, host);
      for (const socket of [client, upstream]) {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', () => {}); // a plain client at this port: its handshake fails, which is the point
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The URL with its host:port replaced by the forwarder's (credentials, path and query kept). */
export function throughForwarder(url: string, forwarder: Forwarder): string {
  return url.replace(
    /@?(127\.0\.0\.1|localhost):\d+/,
    (match) => `${match.startsWith('@') ? '@' : ''}127.0.0.1:${forwarder.port}`,
  );
}

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'docbench.js');

/** Run `docbench args…` without blocking this process; the time limit only turns a hang into a failure. */
export function runDocbenchAsync(
  args: readonly string[],
  options: {
    cwd?: string;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
    onStderr?: (chunk: string) => void;
    /** Aborted: the run gets a SIGINT, as from Ctrl-C. */
    interrupt?: AbortSignal;
  } = {},
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      options.onStderr?.(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs ?? 240_000);
    options.interrupt?.addEventListener('abort', () => child.kill('SIGINT'), { once: true });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
