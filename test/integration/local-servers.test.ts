/**
 * docbench's local servers: `up` twice is harmless; a stale pid file (its process gone, or its pid
 * now another program's) is detected and removed, and that program is neither signalled nor taken
 * for the server; a port held by another program is reported with the program, which is left alone.
 *
 * The shared servers are never stopped: every case that starts, stops or breaks something runs a
 * Redis of its own, in a cache folder of its own (DOCBENCH_CACHE) on a port of its own
 * (DOCBENCH_REDIS_PORT), and stops only that one. The shared servers are only asked to start
 * again, which must change nothing.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { assertUserError, type CliRun } from '../support/cli.ts';
import { TEST_STORES, testsStore } from '../support/stores.ts';
import { waitFor } from '../support/wait.ts';

const root = join(import.meta.dirname, '..', '..');

/** `docbench args…` with extra environment variables (runDocbench passes this process's own). */
function docbench(env: Record<string, string>, ...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'docbench.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A TCP listener on a free loopback port, held by this test process. */
async function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const { server, port } = await listen();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child that lives until killed, with `args` as its command line. */
function longLived(command: string, args: readonly string[]): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore' });
  assert.ok(child.pid !== undefined);
  return child;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

if (testsStore('redis')) {
  describe('local servers: a Redis of our own (own cache folder, own port)', { timeout: 300_000 }, () => {
    const cache = mkdtempSync(join(tmpdir(), 'docbench-local-'));
    let env: Record<string, string>;
    let pidFile: string;
    const children: ChildProcess[] = [];

    before(async () => {
      const port = await freePort();
      env = { DOCBENCH_CACHE: cache, DOCBENCH_REDIS_PORT: String(port) };
      pidFile = join(cache, 'run', `redis-${port}`, 'redis.pid');
    });

    after(() => {
      // Ours only: the Redis this file started (by its pid file), and the children it spawned.
      if (env) docbench(env, 'down', 'redis');
      for (const child of children) child.kill();
      rmSync(cache, { recursive: true, force: true });
    });

    const pidOf = (r: CliRun) => Number(/\((?:started|already running), pid (\d+)\)/.exec(r.stdout)?.[1]);

    it('up twice: the second finds it running and changes nothing', () => {
      const first = docbench(env, 'up', 'redis');
      assert.equal(first.code, 0, first.stderr);
      assert.match(
        first.stdout,
        new RegExp(`^redis +up +redis://127\\.0\\.0\\.1:${env.DOCBENCH_REDIS_PORT} .*\\(started, pid \\d+\\)$`, 'm'),
      );
      const pidFileBefore = readFileSync(pidFile, 'utf8');
      const second = docbench(env, 'up', 'redis');
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /\(already running, pid \d+\)$/m);
      assert.equal(pidOf(second), pidOf(first));
      assert.equal(second.stderr, '', 'nothing started, nothing to say');
      assert.equal(readFileSync(pidFile, 'utf8'), pidFileBefore);
      assert.match(docbench(env, 'status').stdout, new RegExp(`^redis +running \\(pid ${pidOf(first)}\\)`, 'm'));
    });

    it('a stale pid file whose process is gone: removed, and a new server started', () => {
      assert.equal(docbench(env, 'down', 'redis').code, 0);
      const gone = spawnSync(process.execPath, ['-e', '']).pid;
      writeFileSync(pidFile, `${gone}\n`);
      const up = docbench(env, 'up', 'redis');
      assert.equal(up.code, 0, up.stderr);
      assert.match(up.stderr, new RegExp(`removed the stale pid file .*redis\\.pid: pid ${gone} is no longer running`));
      assert.match(up.stdout, /\(started, pid \d+\)$/m);
      assert.notEqual(pidOf(up), gone);
    });

    it('a pid file naming an unrelated program: neither stopped nor believed, by status, down or up', async () => {
      assert.equal(docbench(env, 'down', 'redis').code, 0);
      const sleeper = longLived('sleep', ['60']);
      children.push(sleeper);
      writeFileSync(pidFile, `${sleeper.pid}\n`);

      const status = docbench(env, 'status');
      assert.match(status.stdout, /^redis +stopped /m);
      assert.match(
        status.stdout,
        new RegExp(`stale pid file \\(pid ${sleeper.pid} now belongs to another program \\(sleep 60\\)`),
      );
      assert.ok(existsSync(pidFile), 'status only reports');

      const down = docbench(env, 'down', 'redis');
      assert.match(down.stdout, /^redis +was not running$/m);
      assert.match(
        down.stderr,
        new RegExp(
          `removed the stale pid file .*: pid ${sleeper.pid} now belongs to another program \\(sleep 60\\), which docbench leaves alone`,
        ),
      );

      writeFileSync(pidFile, `${sleeper.pid}\n`);
      const up = docbench(env, 'up', 'redis');
      assert.equal(up.code, 0, up.stderr);
      assert.match(up.stdout, /\(started, pid \d+\)$/m);
      assert.notEqual(pidOf(up), sleeper.pid);
      assert.ok(alive(sleeper), 'the unrelated program still runs');
    });

    it('a reused pid whose command line even looks right is told apart by its start time', () => {
      assert.equal(docbench(env, 'down', 'redis').code, 0);
      // Its command line names redis-server, so only the start time in the pid file can tell.
      const lookalike = longLived(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'redis-server']);
      children.push(lookalike);
      writeFileSync(pidFile, `${lookalike.pid}\n1\n`);
      const down = docbench(env, 'down', 'redis');
      assert.match(down.stdout, /^redis +was not running$/m);
      assert.match(down.stderr, new RegExp(`pid ${lookalike.pid} now belongs to another program \\(.*redis-server\\)`));
      assert.ok(alive(lookalike), 'not signalled');
    });

    it('a port held by another program: reported with the program, which keeps running', async () => {
      const { server, port } = await listen();
      try {
        const taken = { ...env, DOCBENCH_REDIS_PORT: String(port) };
        assertUserError(
          docbench(taken, 'up', 'redis'),
          new RegExp(
            `redis: cannot start redis-server: port ${port} on 127\\.0\\.0\\.1 is in use by another program \\(pid ${process.pid}: [^)]*node[^)]*\\), not by a server docbench started; .*DOCBENCH_REDIS_PORT=<a free port>`,
          ),
        );
        assert.match(
          docbench(taken, 'status').stdout,
          new RegExp(`port ${port} is in use by another program \\(pid ${process.pid}:`),
        );
        assert.ok(server.listening, 'the listener was left alone');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('the default port held by a Redis this cache folder did not start: reported, neither adopted nor stopped', async () => {
      const shared = await (await localTarget('redis')).start(() => {});
      const r = docbench({ DOCBENCH_CACHE: cache }, 'up', 'redis');
      assertUserError(
        r,
        new RegExp(`port 16379 on 127\\.0\\.0\\.1 is in use by another program \\(pid ${shared.pid}: redis-server`),
      );
      const after = await (await localTarget('redis')).status();
      assert.equal(after.running, true);
      assert.equal(after.pid, shared.pid);
    });
  });
}

describe('local servers: the shared ones, asked to start again', { timeout: 600_000 }, () => {
  for (const store of TEST_STORES) {
    it(`${store}: up again finds it running, same pid`, async () => {
      const target = await localTarget(store);
      const first = await target.start(() => {});
      const lines: string[] = [];
      const again = await target.start((line) => lines.push(line));
      assert.equal(again.started, false);
      assert.equal(again.pid, first.pid);
      assert.deepEqual(lines, []);
      await waitFor(async () => (await target.status()).running, `${store} to report running`);
    });
  }
});
