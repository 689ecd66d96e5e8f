/**
 * A sharded run as Kubernetes runs it, here as local processes: N=4 parts of `docbench`, each
 * with what an Indexed Job gives its pod (JOB_COMPLETION_INDEX, `--shards 4`) and the start
 * barrier on 127.0.0.1, against the local Redis. The parts' load writes every key exactly once;
 * the run's inserts never collide (records after = recordcount + every acknowledged insert); the
 * merge sums the parts' counts (equal to one process's with the same settings) and takes its
 * percentiles from the union of their histograms; a missing or repeated part is refused in one
 * line. The barrier's own failures (a part that never comes, part 0 never up, part 0 holding a
 * registration it never answers) on BasicDB. A scenario file (the shipped blog example) seeded by
 * 4 parts and run by 4 parts on redis: every document written once, every answer checked against
 * the oracle, the merge's counts the parts' sum.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { Coordinator, waitAtBarrier, nowMs } from '../../src/shard/barrier.ts';
import { addEncodedHistogram, newLatencyHistogram, valueAtPercentile } from '../../src/measure/histogram.ts';
import type { Result } from '../../src/results/schema.ts';
import type { RedisHandle } from '../../src/stores/redis/handle.ts';
import { storeFactory } from '../../src/stores/stores.ts';
import { assertUserError, runDocbench, type CliRun } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const PARTS = 4;
const RECORDS = 400;
const OPERATIONS = 2000;
const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'docbench-shards-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on (the barrier's). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Run `docbench args…` as the parts `indexes` at once, each with its pod's JOB_COMPLETION_INDEX. */
function parts(indexes: readonly number[], args: (index: number) => string[]): Promise<CliRun[]> {
  return Promise.all(
    indexes.map(
      (index) =>
        new Promise<CliRun>((resolve) => {
          const child = spawn(process.execPath, [join(root, 'bin', 'docbench.js'), ...args(index)], {
            cwd: root,
            env: { ...process.env, JOB_COMPLETION_INDEX: String(index) },
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          const timer = setTimeout(() => child.kill('SIGTERM'), 120_000);
          child.on('close', (code, signal) => {
            clearTimeout(timer);
            resolve({ code, signal, stdout, stderr });
          });
        }),
    ),
  );
}

const all = Array.from({ length: PARTS }, (_, i) => i);
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Result;
const okOf = (r: Result, row: string) => r.operations.find((o) => o.name === row)?.returns?.OK ?? 0;

function assertAllOk(runs: readonly CliRun[]): void {
  for (const [i, r] of runs.entries()) assert.equal(r.code, 0, `part ${i}: ${r.stderr}`);
}

/** The merged result's percentiles are the union histogram's, row by row. */
function assertUnionPercentiles(merged: Result, partResults: readonly Result[]): void {
  for (const row of merged.operations) {
    if (row.latency.operations === 0) continue;
    const union = newLatencyHistogram();
    for (const p of partResults) {
      const h = p.operations.find((o) => o.name === row.name)?.histogram;
      if (h !== undefined) addEncodedHistogram(union, h);
    }
    assert.equal(Number(union.totalCount), row.latency.operations, row.name);
    for (const [percentile, us] of Object.entries(row.latency.percentilesUs))
      assert.equal(us, valueAtPercentile(union, Number(percentile)), `${row.name} p${percentile}`);
  }
}

describe('a sharded run’s bad input', () => {
  it('--shards without JOB_COMPLETION_INDEX, or a part index out of range, is one line', () => {
    const args = ['load', '--store', 'basic', '-P', 'workloada', '-p', 'recordcount=8', '--threads', '4', '-q'];
    const { JOB_COMPLETION_INDEX: _, ...env } = process.env;
    assert.equal(env.JOB_COMPLETION_INDEX, undefined);
    assertUserError(runDocbench([...args, '--shards', '4']), /--shards 4: JOB_COMPLETION_INDEX is not set/);
    assertUserError(
      runDocbench([...args, '--shard', '4/4']),
      /--shard 4\/4: the part index counts from 0 and must be below 4/,
    );
  });
});

describe('the start barrier', { timeout: 120_000 }, () => {
  const basic = (barrier: string, timeout: string) => (_: number) => [
    'run',
    '--store',
    'basic',
    '-P',
    'workloada',
    '-p',
    'recordcount=100',
    '-p',
    'operationcount=300',
    '--threads',
    '4',
    '-q',
    '--shards',
    '3',
    '--barrier',
    barrier,
    '--barrier-timeout',
    timeout,
  ];

  it('gives up on a part that never arrives, naming how many of N did', async () => {
    const barrier = `127.0.0.1:${await freePort()}`;
    // Long enough for part 1's process to start and register on a loaded machine: only part 2 is missing.
    const runs = await parts([0, 1], basic(barrier, '15'));
    for (const r of runs) assertUserError(r, /the barrier gave up after 15 s: 2 of 3 parts arrived \(missing: 2\)/);
  });

  it("a part whose own timeout comes first waits for the coordinator's answer: every part gives its count", async () => {
    // Part 0's coordinator started later than the parts' clocks (a pod that came up later): it
    // alone decides when the wait is over, so no part reports a coordinator that never answered.
    const port = await freePort();
    const address = `127.0.0.1:${port}`;
    const coordinator = await Coordinator.start({ host: '127.0.0.1', port }, { count: 3, run: 'r' }, 2000);
    try {
      const part = (index: number) =>
        waitAtBarrier({
          host: '127.0.0.1',
          port,
          address,
          arrival: { index, count: 3, run: 'r' },
          deadlineMs: nowMs() + 300,
        });
      for (const settled of await Promise.allSettled([part(0), part(1)])) {
        assert.equal(settled.status, 'rejected');
        assert.match(
          (settled as PromiseRejectedResult).reason.message,
          /the barrier gave up after 2 s: 2 of 3 parts arrived \(missing: 2\)/,
        );
      }
    } finally {
      coordinator.close();
    }
  });

  it('gives up on part 0 when its coordinator never answers', async () => {
    const barrier = `127.0.0.1:${await freePort()}`;
    const [r] = await parts([1], basic(barrier, '2'));
    assertUserError(r!, /part 0's coordinator did not answer before the barrier timeout \(ECONNREFUSED\)/);
  });

  it('a coordinator that takes the registration and never answers is given up at the barrier timeout', async () => {
    // Part 0 gone without closing its connections: clock probes answered, the registration held forever.
    const server = createHttpServer((req, res) => {
      if (req.url === '/time') res.end(JSON.stringify({ now: nowMs() }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      await assert.rejects(
        waitAtBarrier({
          host: '127.0.0.1',
          port,
          address: `127.0.0.1:${port}`,
          arrival: { index: 1, count: 2, run: 'r' },
          deadlineMs: nowMs() + 1500,
        }),
        /did not answer before the barrier timeout \(the registration was taken but never answered\)/,
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

if (testsStore('redis')) {
  describe('4 parts on redis, started together', { timeout: 300_000 }, () => {
    const table = `itest_shards_${process.pid}`;
    let url = '';
    const records = async () => {
      const store = (await storeFactory('redis'))({ url, settings: {}, concurrency: 1 });
      await store.connect();
      try {
        return Number(await (store.handle as RedisHandle).call(['ZCARD', `${table}#index`]));
      } finally {
        await store.close();
      }
    };
    before(async () => {
      url = (await (await localTarget('redis')).start(() => {})).url;
    });
    after(async () => {
      const store = (await storeFactory('redis'))({ url, settings: {}, concurrency: 1 });
      await store.connect();
      await store.drop({ table, fieldNames: [] });
      await store.close();
    });
    const phase = (name: 'load' | 'run', barrier: string, out: (i: number) => string) => (i: number) => [
      name,
      '--store',
      'redis',
      '--url',
      url,
      '-P',
      'workloadd',
      '-p',
      `recordcount=${RECORDS}`,
      '-p',
      `operationcount=${OPERATIONS}`,
      '-p',
      `table=${table}`,
      '--threads',
      '8',
      '-q',
      '--shards',
      String(PARTS),
      '--barrier',
      barrier,
      '--out',
      out(i),
    ];
    const loadOut = (i: number) => join(dir, `load-${i}.json`);
    const runOut = (i: number) => join(dir, `run-${i}.json`);

    it('load: the parts write every key exactly once; the merge records the parts and the keys', async () => {
      const runs = await parts(all, phase('load', `127.0.0.1:${await freePort()}`, loadOut));
      assertAllOk(runs);
      assert.equal(await records(), RECORDS);
      const partResults = all.map((i) => read(loadOut(i)));
      for (const p of partResults) assert.ok(p.shard?.start, 'each part started at the barrier');
      const m = runDocbench(['report', ...all.map(loadOut), '--merge', join(dir, 'load.json')]);
      assert.equal(m.code, 0, m.stderr);
      const merged = read(join(dir, 'load.json'));
      assert.equal(merged.overall.operations, RECORDS);
      assert.deepEqual(merged.shards?.keys, { first: 0, count: RECORDS });
      assert.equal(merged.shards?.synchronised, true);
      assertUnionPercentiles(merged, partResults);
    });

    it('run (workload D): inserts never collide; counts add up to one process’s; percentiles from the union', async () => {
      const runs = await parts(all, phase('run', `127.0.0.1:${await freePort()}`, runOut));
      assertAllOk(runs);
      const partResults = all.map((i) => read(runOut(i)));
      const inserted = partResults.reduce((n, r) => n + okOf(r, 'INSERT'), 0);
      assert.ok(inserted > 0, 'workload D inserted');
      assert.equal(await records(), RECORDS + inserted, 'every acknowledged insert is a record of its own');
      for (const p of partResults) assert.equal(p.verdict?.status, 'valid', JSON.stringify(p.verdict));
      const m = runDocbench(['report', ...all.map(runOut), '--merge', join(dir, 'run.json')]);
      assert.equal(m.code, 0, m.stderr);
      const merged = read(join(dir, 'run.json'));
      assert.equal(
        merged.overall.operations,
        partResults.reduce((n, r) => n + r.overall.operations, 0),
      );
      assert.equal(merged.overall.operations, OPERATIONS);
      assert.equal(merged.shards?.count, PARTS);
      assertUnionPercentiles(merged, partResults);

      // One process with the same settings does as many operations, on the same properties.
      const single = runDocbench(
        [
          'run',
          '--store',
          'redis',
          '--url',
          url,
          '-P',
          'workloadd',
          '-p',
          `recordcount=${RECORDS}`,
          '-p',
          `operationcount=${OPERATIONS}`,
          '-p',
          `table=${table}`,
          '--threads',
          '8',
          '-q',
          '--out',
          join(dir, 'single.json'),
        ],
        { timeoutMs: 120_000 },
      );
      assert.equal(single.code, 0, single.stderr);
      const one = read(join(dir, 'single.json'));
      assert.equal(one.overall.operations, merged.overall.operations);
      for (const key of ['threadcount', 'operationcount', 'recordcount', 'target', 'seed'])
        assert.equal(merged.workload.properties[key], one.workload.properties[key], key);
    });

    it('a missing or repeated part is refused in one line, writing nothing', () => {
      const out = join(dir, 'refused.json');
      assertUserError(
        runDocbench(['report', runOut(0), runOut(1), runOut(3), '--merge', out]),
        /^docbench: part 2 of 4 is missing$/,
        out,
      );
      assertUserError(
        runDocbench(['report', ...all.map(runOut), runOut(2), '--merge', out]),
        /^docbench: part 2 of 4 is given more than once$/,
        out,
      );
      assertUserError(
        runDocbench(['report', ...all.map(runOut), join(dir, 'single.json'), '--merge', out]),
        /cannot merge sharded and unsharded results/,
        out,
      );
    });
  });
}

if (testsStore('redis')) {
  describe('a scenario file seeded and run by 4 parts on redis', { timeout: 300_000 }, () => {
    // The shipped example under a name of its own: its keys are this test's alone.
    const name = `itest-shards-${process.pid}`;
    const prefix = name.replace(/-/g, '_');
    const file = join(dir, 'blog.yaml');
    const shipped = readFileSync(join(root, 'fixtures', 'scenarios', 'blog.yaml'), 'utf8');
    writeFileSync(file, shipped.replace(/^name: blog$/m, `name: ${name}`));
    const counts = Object.fromEntries(
      [...shipped.matchAll(/^ {2}(\w+):\n {4}count: (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]),
    );
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    let url = '';
    const withRedis = async <T>(work: (handle: RedisHandle) => Promise<T>): Promise<T> => {
      const store = (await storeFactory('redis'))({ url, settings: {}, concurrency: 1 });
      await store.connect();
      try {
        return await work(store.handle as RedisHandle);
      } finally {
        await store.close();
      }
    };
    /** The documents of a collection on the store: its keys `<prefix>:<collection>:<collection>-<index>`. */
    const stored = (collection: string) =>
      withRedis(async (handle) => {
        let cursor = '0';
        let n = 0;
        do {
          const [next, keys] = (await handle.call([
            'SCAN',
            cursor,
            'MATCH',
            `${prefix}:${collection}:${collection}-*`,
            'COUNT',
            '1000',
          ])) as [string, string[]];
          cursor = next;
          n += keys.length;
        } while (cursor !== '0');
        return n;
      });
    before(async () => {
      assert.equal(Object.keys(counts).length, 4, 'the example has four collections');
      url = (await (await localTarget('redis')).start(() => {})).url;
    });
    after(() => withRedis((handle) => handle.unlinkMatching(`${prefix}:*`)));
    const seedOut = (i: number) => join(dir, `scenario-seed-${i}.json`);
    const runOut = (i: number) => join(dir, `scenario-run-${i}.json`);
    const OPS = 400;

    it('seed: the parts write every document once, references into the whole; the merge counts them all', async () => {
      const barrier = `127.0.0.1:${await freePort()}`;
      const seeds = await parts(all, (i) => [
        'seed',
        'scenario',
        file,
        '--store',
        'redis',
        '--url',
        url,
        '-q',
        '--shards',
        String(PARTS),
        '--barrier',
        barrier,
        '--out',
        seedOut(i),
      ]);
      assertAllOk(seeds);
      for (const [collection, count] of Object.entries(counts))
        assert.equal(await stored(collection), count, collection);
      const partResults = all.map((i) => read(seedOut(i)));
      assert.deepEqual(
        partResults.map((r) => r.operations.some((o) => o.name === 'INDEX-BUILD')),
        [true, false, false, false],
        'part 0 alone builds the indexes',
      );
      const m = runDocbench(['report', ...all.map(seedOut), '--merge', join(dir, 'scenario-seed.json')]);
      assert.equal(m.code, 0, m.stderr);
      const merged = read(join(dir, 'scenario-seed.json'));
      assert.equal(merged.overall.operations, total);
      assert.deepEqual(merged.shards?.keys, { first: 0, count: total });
    });

    it('run: every answer checked against the oracle, the merge the parts’ sum; a missing part refused', async () => {
      const barrier = `127.0.0.1:${await freePort()}`;
      const runs = await parts(all, (i) => [
        'scenario',
        file,
        '--stores',
        'redis',
        '--url',
        url,
        '--skip-seed',
        '-p',
        `operationcount=${OPS}`,
        // Few parameter sets: each part's oracle answers them all before it starts.
        '-p',
        'parametersets=5',
        '--threads',
        '4',
        '-q',
        '--shards',
        String(PARTS),
        '--barrier',
        barrier,
        '--out',
        runOut(i),
      ]);
      // A wrong answer fails the part (it names the query); each part checks every query once more after all undid their writes.
      assertAllOk(runs);
      const partResults = all.map((i) => read(runOut(i)));
      for (const r of partResults) {
        assert.ok(okOf(r, 'VERIFY') > 0);
        assert.ok(!r.notes.some((n) => /WRONG|rejected/.test(n)), r.notes.join('\n'));
      }
      const m = runDocbench(['report', ...all.map(runOut), '--merge', join(dir, 'scenario-run.json')]);
      assert.equal(m.code, 0, m.stderr);
      const merged = read(join(dir, 'scenario-run.json'));
      assert.equal(merged.overall.operations, OPS);
      assert.equal(merged.verdict?.status === 'invalid', false);
      for (const row of merged.operations)
        for (const [status, n] of Object.entries(row.returns ?? {}))
          assert.equal(
            n,
            partResults.reduce(
              (sum, r) =>
                sum +
                ((r.operations.find((o) => o.name === row.name)?.returns as Record<string, number> | undefined)?.[
                  status
                ] ?? 0),
              0,
            ),
            `${row.name} ${status}`,
          );
      assert.equal(merged.workload.properties.threadcount, 4);
      assert.equal(merged.workload.properties.operationcount, OPS);
      // Every write undone by the part that made it: the dataset is the seeded one again.
      for (const [collection, count] of Object.entries(counts))
        assert.equal(await stored(collection), count, collection);
      assertUserError(
        runDocbench(['report', runOut(0), runOut(1), runOut(3), '--merge', join(dir, 'scenario-refused.json')]),
        /^docbench: part 2 of 4 is missing$/,
        join(dir, 'scenario-refused.json'),
      );
    });
  });
}
