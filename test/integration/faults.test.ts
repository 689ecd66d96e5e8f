/**
 * Faults and interrupts, as a user meets them: a store killed mid-run and restarted (Redis,
 * PostgreSQL, the MongoDB stand-in, HBase's REST gateway and its region server, each a private server of
 * this test, killed by its own pid), a Redis paused (SIGSTOP) mid-run, a store that stays down (error budget, --on-error abort,
 * post-run stats that cannot be read), and Ctrl-C / SIGTERM mid-run. Every run must end with its
 * YCSB text and a complete result file saying what happened: errors counted per status, the
 * outage window, the recovery, or why it is partial. Only orderings and counts are asserted,
 * never wall-clock figures.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { runDocbench } from '../support/cli.ts';
import {
  privateHbase,
  privateMongodb,
  privatePostgres,
  privateRedis,
  type PrivateServer,
} from '../support/private-server.ts';
import { servingFor, statusLines } from '../support/status-lines.ts';
import { waitFor } from '../support/wait.ts';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'docbench-faults-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  stderr: () => string;
  stdout: () => string;
  signal(signal: NodeJS.Signals): void;
  exit: Promise<number | null>;
}

function startDocbench(args: readonly string[]): Running {
  const child = spawn(process.execPath, [join(root, 'bin', 'docbench.js'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    stderr: () => stderr,
    stdout: () => stdout,
    signal: (signal) => child.kill(signal),
    exit: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}

function readResult(path: string): Result {
  return resultSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

// One process unless a test asks for two (a later --processes wins): these runs reach servers on
// this machine by --url, which --processes auto would take for remote ones and spread over the cores.
const RUN = [
  '-P',
  'workloada',
  '-p',
  'recordcount=500',
  '-p',
  'status.interval=1',
  '--threads',
  '4',
  '--processes',
  '1',
];

async function loaded(server: PrivateServer, store: string): Promise<void> {
  await server.start();
  const load = runDocbench(['load', '--store', store, '--url', server.url, ...RUN, '-q'], { timeoutMs: 120_000 });
  assert.equal(load.code, 0, load.stderr);
}

/** Kill the server once the run has shown `after` status lines; restart it `downFor` status lines later (or never). */
async function outage(run: Running, server: PrivateServer, after: number, downFor?: number): Promise<void> {
  await waitFor(() => statusLines(run.stderr()) >= after, 'the run to get going', { limitMs: 60_000 });
  await server.kill();
  if (downFor === undefined) return;
  const killedAt = statusLines(run.stderr());
  await waitFor(() => statusLines(run.stderr()) >= killedAt + downFor, 'the outage to last', { limitMs: 60_000 });
  await server.start();
}

/** What the result file said about the fault, for the test's log. */
function summary(result: Result): string {
  return JSON.stringify({
    operations: result.overall.operations,
    returns: result.returns,
    partial: result.partial,
    faults: result.faults,
    unread: result.store.unread,
  });
}

/** Waits until the store has served again for `seconds` (status-lines.ts); the caller then interrupts the run, whose result is partial. */
async function servingAgain(run: Running, seconds: number, limitMs: number): Promise<void> {
  await waitFor(() => servingFor(run.stderr(), seconds), 'the store to serve again', { limitMs });
}

function assertRecovered(result: Result, text: string, outageStatuses: readonly string[], stoppedBy?: 'SIGINT'): void {
  const faults = result.faults!;
  assert.ok(faults.failedOperations > 0, 'failed operations counted');
  const counted = outageStatuses.reduce((n, s) => n + (result.returns[s as keyof Result['returns']] ?? 0), 0);
  assert.ok(counted > 0, `outage statuses counted: ${JSON.stringify(result.returns)}`);
  assert.ok(faults.outages.length >= 1, JSON.stringify(faults));
  const first = faults.outages[0]!;
  assert.ok(first.fromSecond < first.toSecond && first.failedOperations > 0, JSON.stringify(first));
  assert.equal(faults.outages.at(-1)!.recovered, true, 'the run recovered');
  // Operations succeeded before the outage and after it.
  const ok = (p: Result['timeSeries'][number]) => p.operations - (p.failed ?? 0);
  assert.ok(
    result.timeSeries.some((p) => p.t <= first.fromSecond && ok(p) > 0),
    'operations before the outage',
  );
  assert.ok(
    result.timeSeries.some((p) => p.t > faults.outages.at(-1)!.toSecond && ok(p) > 0),
    'operations after the recovery',
  );
  // Failures are not throughput: OVERALL counts only the operations that did their work.
  const okOperations = Object.entries(result.returns)
    .filter(([s]) => s === 'OK' || s === 'NOT_FOUND')
    .reduce((n, [, c]) => n + c, 0);
  assert.ok(
    result.overall.operations <= okOperations,
    `${result.overall.operations} operations, ${okOperations} OK/NOT_FOUND calls`,
  );
  assert.equal(result.partial?.reason, stoppedBy);
  assert.match(text, /^# OUTAGE: the store was out of reach from /m);
  assert.match(text, /^\[OVERALL\], Throughput\(ops\/sec\), /m);
}

describe('a store dying mid-run', { concurrency: false, timeout: 600_000 }, () => {
  it('Redis killed and restarted: errors counted as SERVICE_UNAVAILABLE, the window recorded, the run recovers (2 processes)', async (t) => {
    const redis = await privateRedis();
    if (redis.missing) return t.skip(redis.missing);
    try {
      await loaded(redis, 'redis');
      const out = join(dir, 'redis-outage.json');
      const run = startDocbench([
        'run',
        '--store',
        'redis',
        '--url',
        redis.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=12',
        '--target',
        '1000',
        '--processes',
        '2',
        '--out',
        out,
      ]);
      await outage(run, redis, 2, 3);
      assert.equal(await run.exit, 0, run.stderr());
      t.diagnostic(summary(readResult(out)));
      assertRecovered(readResult(out), run.stdout(), ['SERVICE_UNAVAILABLE', 'TIMEOUT']);
      assert.match(
        run.stderr(),
        / \d+ failed \(\d+% errors now\); /,
        'the status line shows the failures and the error rate',
      );
    } finally {
      await redis.dispose();
    }
  });

  it("MongoDB (stand-in) killed and restarted: the same, through the driver's own reconnection", async (t) => {
    const mongodb = await privateMongodb();
    if (mongodb.missing) return t.skip(mongodb.missing);
    try {
      await loaded(mongodb, 'mongodb');
      const out = join(dir, 'mongodb-outage.json');
      // The driver holds an operation while it selects a server, and retries a read once: with
      // its 5 s default a 3 s outage can pass without one failure (a restart that is quick
      // enough hides it). A 1 s selection timeout makes operations during the outage fail.
      const run = startDocbench([
        'run',
        '--store',
        'mongodb',
        '--url',
        mongodb.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=60',
        '-p',
        'mongodb.serverSelectionTimeoutMS=1000',
        '--target',
        '200',
        '--out',
        out,
      ]);
      await outage(run, mongodb, 2, 3);
      await servingAgain(run, 3, 50_000);
      run.signal('SIGINT');
      assert.equal(await run.exit, 130, run.stderr());
      t.diagnostic(summary(readResult(out)));
      assertRecovered(readResult(out), run.stdout(), ['SERVICE_UNAVAILABLE', 'TIMEOUT'], 'SIGINT');
    } finally {
      await mongodb.dispose();
    }
  });

  it('PostgreSQL killed (the postmaster and every backend) and restarted: an outage of SERVICE_UNAVAILABLE, not errors; the pool reconnects', async (t) => {
    const postgres = await privatePostgres();
    if (postgres.missing) return t.skip(postgres.missing);
    try {
      await loaded(postgres, 'postgres');
      const out = join(dir, 'postgres-outage.json');
      const run = startDocbench([
        'run',
        '--store',
        'postgres',
        '--url',
        postgres.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=60',
        '-p',
        'postgres.connectTimeoutMs=1000',
        '--target',
        '500',
        '--out',
        out,
      ]);
      await outage(run, postgres, 2, 3);
      await servingAgain(run, 3, 50_000);
      run.signal('SIGINT');
      assert.equal(await run.exit, 130, run.stderr());
      const result = readResult(out);
      t.diagnostic(summary(result));
      assertRecovered(result, run.stdout(), ['SERVICE_UNAVAILABLE', 'TIMEOUT'], 'SIGINT');
      assert.equal(
        result.returns.ERROR ?? 0,
        0,
        `no call filed as the store's own error: ${JSON.stringify(result.returns)}`,
      );
    } finally {
      await postgres.dispose();
    }
  });

  it('Redis paused (SIGSTOP) mid-run: no call fails within its timeout, and the seconds with no completion are an outage', async (t) => {
    const redis = await privateRedis();
    if (redis.missing) return t.skip(redis.missing);
    try {
      await loaded(redis, 'redis');
      const out = join(dir, 'redis-paused.json');
      const run = startDocbench([
        'run',
        '--store',
        'redis',
        '--url',
        redis.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=12',
        '--target',
        '500',
        '--out',
        out,
      ]);
      await waitFor(() => statusLines(run.stderr()) >= 2, 'the run to get going', { limitMs: 60_000 });
      await redis.pause();
      const pausedAt = statusLines(run.stderr());
      try {
        await waitFor(() => statusLines(run.stderr()) >= pausedAt + 4, 'the pause to last', { limitMs: 60_000 });
      } finally {
        redis.resume();
      }
      assert.equal(await run.exit, 0, run.stderr());
      const result = readResult(out);
      t.diagnostic(summary(result));
      // redis.commandtimeout (30 s) outlasts the pause: every call waited and then succeeded.
      const faults = result.faults!;
      assert.equal(faults.failedOperations, 0);
      assert.equal(faults.byOperation, undefined, 'no operation kind was refused');
      assert.equal(faults.outages.length, 1, JSON.stringify(faults.outages));
      const [stall] = faults.outages;
      assert.ok(stall!.toSecond - stall!.fromSecond >= 2 && stall!.outageCalls === 0, JSON.stringify(stall));
      assert.equal(stall!.recovered, true);
      const ok = (p: Result['timeSeries'][number]) => p.operations - (p.failed ?? 0);
      assert.ok(
        result.timeSeries.every((p) => p.t <= stall!.fromSecond || p.t > stall!.toSecond || p.operations === 0),
        'nothing finished inside the window',
      );
      assert.ok(
        result.timeSeries.some((p) => p.t > stall!.toSecond && ok(p) > 0),
        'operations after the pause',
      );
      assert.match(
        run.stdout(),
        /^# OUTAGE: the store was out of reach from .*no operation finished \(the store stalled\); it answered again from /m,
      );
    } finally {
      await redis.dispose();
    }
  });

  it('a store that stays down: the error budget stops the run, whose partial result says so and what could not be read after it', async (t) => {
    const redis = await privateRedis();
    if (redis.missing) return t.skip(redis.missing);
    try {
      await loaded(redis, 'redis');
      const out = join(dir, 'redis-budget.json');
      const run = startDocbench([
        'run',
        '--store',
        'redis',
        '--url',
        redis.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=60',
        '-p',
        'maxerrorrate=0.2',
        '--target',
        '500',
        '--out',
        out,
      ]);
      await outage(run, redis, 2);
      assert.equal(await run.exit, 2, run.stderr());
      const lastLine = run.stderr().trim().split('\n').at(-1)!;
      assert.match(
        lastLine,
        /^docbench: redis workloada run: INVALID: stopped after .*over the error budget \(maxerrorrate=0\.2\)/,
      );
      const result = readResult(out);
      t.diagnostic(summary(result));
      assert.equal(result.partial?.reason, 'error-budget');
      assert.ok(result.faults!.errorRate > 0.2);
      assert.ok(
        (result.store.unread ?? []).some((what) => what.startsWith('server, version')),
        JSON.stringify(result.store),
      );
      assert.match(run.stdout(), /^# PARTIAL RESULT: stopped after /m);
    } finally {
      await redis.dispose();
    }
  });

  it('--on-error abort: the first failure ends the run, with its partial result', async (t) => {
    const redis = await privateRedis();
    if (redis.missing) return t.skip(redis.missing);
    try {
      await loaded(redis, 'redis');
      const out = join(dir, 'redis-abort.json');
      const run = startDocbench([
        'run',
        '--store',
        'redis',
        '--url',
        redis.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=60',
        '--on-error',
        'abort',
        '--target',
        '500',
        '--processes',
        '2',
        '--out',
        out,
      ]);
      await outage(run, redis, 2);
      assert.equal(await run.exit, 2, run.stderr());
      const result = readResult(out);
      t.diagnostic(summary(result));
      assert.equal(result.partial?.reason, 'on-error');
      assert.ok(result.faults!.failedOperations >= 1);
      assert.match(run.stdout(), /^# PARTIAL RESULT: aborted at the first failed operation/m);
    } finally {
      await redis.dispose();
    }
  });
});

describe('HBase dying mid-run: its gateway, then its region server', { concurrency: false, timeout: 600_000 }, () => {
  it('a killed REST gateway, then a killed region server (the master JVM): SERVICE_UNAVAILABLE, the window recorded, the run recovers each time', async (t) => {
    const hbase = await privateHbase();
    if (hbase.missing) return t.skip(hbase.missing);
    try {
      await hbase.master.start();
      await hbase.gateway.start();
      // Serving once a write goes through (the region server's regions online): the load retries its prepare until then.
      await waitFor(
        () =>
          runDocbench(['load', '--store', 'hbase', '--url', hbase.url, ...RUN, '--fresh', '-q'], { timeoutMs: 120_000 })
            .code === 0,
        'a first load',
        { everyMs: 2000, limitMs: 180_000 },
      );

      const gatewayOut = join(dir, 'hbase-gateway-outage.json');
      const gatewayRun = startDocbench([
        'run',
        '--store',
        'hbase',
        '--url',
        hbase.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=45',
        '--target',
        '200',
        '--out',
        gatewayOut,
      ]);
      await outage(gatewayRun, hbase.gateway, 2, 3);
      await servingAgain(gatewayRun, 3, 40_000);
      gatewayRun.signal('SIGINT');
      assert.equal(await gatewayRun.exit, 130, gatewayRun.stderr());
      t.diagnostic(summary(readResult(gatewayOut)));
      assertRecovered(readResult(gatewayOut), gatewayRun.stdout(), ['SERVICE_UNAVAILABLE'], 'SIGINT');

      // The gateway stays up and answers 503 once its HBase client gives up; a restarted HBase replays its WAL first.
      // Both runs may last long enough for a JVM to restart on a loaded machine (tens of seconds),
      // and are interrupted once the store has served again for 3 s.
      const serverOut = join(dir, 'hbase-regionserver-outage.json');
      const serverRun = startDocbench([
        'run',
        '--store',
        'hbase',
        '--url',
        hbase.url,
        ...RUN,
        '-p',
        'operationcount=0',
        '-p',
        'maxexecutiontime=120',
        '--target',
        '200',
        '--out',
        serverOut,
      ]);
      await outage(serverRun, hbase.master, 2, 3);
      await servingAgain(serverRun, 3, 110_000);
      serverRun.signal('SIGINT');
      assert.equal(await serverRun.exit, 130, serverRun.stderr());
      t.diagnostic(summary(readResult(serverOut)));
      assertRecovered(readResult(serverOut), serverRun.stdout(), ['SERVICE_UNAVAILABLE', 'TIMEOUT'], 'SIGINT');
      assert.ok(
        (readResult(serverOut).returns.SERVICE_UNAVAILABLE ?? 0) > 0,
        "the gateway's 503 is SERVICE_UNAVAILABLE",
      );
    } finally {
      await hbase.dispose();
    }
  });
});

describe('interrupts', { concurrency: false, timeout: 300_000 }, () => {
  const longRun = (out: string) => [
    'run',
    '--store',
    'basic',
    '-P',
    'workloada',
    '-p',
    'operationcount=0',
    '-p',
    'maxexecutiontime=120',
    '-p',
    'status.interval=1',
    '--target',
    '1000',
    '--processes',
    '2',
    '--out',
    out,
  ];

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} mid-run (2 processes): exit ${code}, YCSB text and a result marked partial`, async () => {
      const out = join(dir, `${signal}.json`);
      const run = startDocbench(longRun(out));
      await waitFor(() => statusLines(run.stderr()) >= 2, 'the run to get going', { limitMs: 60_000 });
      run.signal(signal);
      assert.equal(await run.exit, code, run.stderr());
      const result = readResult(out);
      assert.equal(result.partial?.reason, signal);
      assert.ok(result.overall.operations > 0);
      assert.match(run.stdout(), /^# PARTIAL RESULT: interrupted by /m);
      assert.match(run.stdout(), /^\[OVERALL\], Throughput\(ops\/sec\), /m);
    });
  }

  it('a second Ctrl-C exits at once and leaves no half-written file', async () => {
    const outDir = mkdtempSync(join(dir, 'twice-'));
    const out = join(outDir, 'r.json');
    const run = startDocbench(longRun(out));
    await waitFor(() => statusLines(run.stderr()) >= 2, 'the run to get going', { limitMs: 60_000 });
    run.signal('SIGINT');
    run.signal('SIGINT');
    assert.equal(await run.exit, 130, run.stderr());
    assert.deepEqual(
      readdirSync(outDir).filter((f) => f !== 'r.json'),
      [],
      'no temporary file left',
    );
    // Either no result (the second signal came first) or a whole one.
    if (existsSync(out)) assert.equal(readResult(out).partial?.reason, 'SIGINT');
  });
});
