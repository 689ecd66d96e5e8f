/**
 * A store server of the test's own, on a free port: fault tests kill and restart it by its pid,
 * never the shared local servers other tests use.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
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

/** `polls` × 100 ms is how long a start may take. */
function serverOf(url: string, launch: (dir: string) => ChildProcess, ready: () => Promise<boolean>, missing?: string, polls = 300): PrivateServer {
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
      for (let i = 0; i < polls; i++) {
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

/**
 * A standalone HBase and its REST gateway of the test's own, on free ports: `master` (master,
 * region server and ZooKeeper in one JVM; its data survives a kill, replayed from its WAL) and
 * `gateway`, each killed and restarted alone.
 */
export async function privateHbase(): Promise<{ url: string; missing?: string; master: PrivateServer; gateway: PrivateServer; logs: string; dispose(): Promise<void> }> {
  const { gatewayCommand, masterCommand } = await import('../../src/stores/hbase/local-target.ts');
  const ports = { rest: await freePort(), zookeeper: await freePort(), master: await freePort(), regionserver: await freePort() };
  const url = `hbase+rest://127.0.0.1:${ports.rest}`;
  const missing = existsSync(installDir('hbase', 'lib')) ? undefined : 'HBase is not installed (docbench up hbase)';
  const dir = mkdtempSync(join(tmpdir(), 'docbench-fault-hbase-'));
  const launch = (command: { command: string; args: readonly string[]; env?: NodeJS.ProcessEnv }, log: string) => {
    const out = openSync(join(dir, log), 'a');
    try {
      return spawn(command.command, command.args, { cwd: dir, stdio: ['ignore', out, out], env: command.env ?? process.env });
    } finally {
      closeSync(out);
    }
  };
  const master = serverOf(url, () => launch(masterCommand(dir, join(dir, 'data'), ports), 'master.log'), async () => (await listening(ports.master)) && listening(ports.regionserver), missing, 1200);
  const gateway = serverOf(
    url,
    () => launch(gatewayCommand(dir, ports), 'gateway.log'),
    async () => (await fetch(`http://127.0.0.1:${ports.rest}/version/cluster`, { signal: AbortSignal.timeout(2000) })).ok,
    missing,
    1200,
  );
  return {
    url,
    ...(missing ? { missing } : {}),
    master,
    gateway,
    logs: dir,
    async dispose() {
      await gateway.dispose();
      await master.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
