/**
 * A store server of the test's own, on a free port: fault tests kill and restart it by its pid,
 * never the shared local servers other tests use.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installDir } from '../../src/local/paths.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivateServer {
  url: string;
  /** Why it cannot run here (the test then skips), or undefined. */
  missing?: string;
  start(): Promise<void>;
  /** SIGKILL the server and wait for it to be gone. */
  kill(): Promise<void>;
  /** Kill it if it runs and remove its files. */
  dispose(): Promise<void>;
}

function serverOf(url: string, launch: (dir: string) => ChildProcess, ready: () => Promise<boolean>, missing?: string): PrivateServer {
  const dir = mkdtempSync(join(tmpdir(), 'docbench-fault-'));
  let child: ChildProcess | undefined;
  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await gone;
  };
  return {
    url,
    ...(missing ? { missing } : {}),
    async start() {
      child = launch(dir);
      for (let i = 0; i < 300; i++) {
        if (await ready().catch(() => false)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the private server for ${url} did not start`);
    },
    kill,
    async dispose() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Is something accepting connections on the port? */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    import('node:net').then(({ connect }) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  });
}

/**
 * A redis-server of the test's own. It persists (an append-only file synced every second), as a
 * production server does, so that after a kill and a restart the records are there again and a
 * run's reads measure records, not misses.
 */
export async function privateRedis(): Promise<PrivateServer> {
  const port = await freePort();
  const missing = spawnSync('redis-server', ['--version']).status === 0 ? undefined : 'redis-server is not on PATH';
  return serverOf(
    `redis://127.0.0.1:${port}`,
    (dir) => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir], { stdio: 'ignore' }),
    () => listening(port),
    missing,
  );
}

/** A SecantusDB (the local MongoDB stand-in) of the test's own; its data survives a kill, as a real server's. */
export async function privateMongodb(): Promise<PrivateServer> {
  const port = await freePort();
  const binary = installDir('mongodb', 'bin', 'secantusd-rs');
  const missing = existsSync(binary) ? undefined : 'SecantusDB is not installed (docbench up mongodb)';
  return serverOf(
    `mongodb://127.0.0.1:${port}/?directConnection=true`,
    (dir) => {
      const config = join(dir, 'secantusd.toml');
      writeFileSync(config, '# empty: no configuration auto-discovery\n');
      return spawn(binary, ['--config', config, '--host', '127.0.0.1', '--port', String(port), '--storage-path', join(dir, 'data'), '--log-level', 'ERROR', '--cache-size', '256M'], { stdio: 'ignore' });
    },
    () => listening(port),
    missing,
  );
}
