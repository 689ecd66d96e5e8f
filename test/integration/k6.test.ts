/**
 * End-to-end mode with k6 (built into docbench's cache on first use) against local stores:
 *   - `docbench k6 ycsb-a`: load, service, k6, result: zero failed requests and a result file in
 *     the common schema, with the service's and k6's CPU per request;
 *   - a shipped script run with plain `k6 run` and environment variables, as on k6 cloud or
 *     under k6-operator, in the open model (constant-arrival-rate);
 *   - a script refusing a service started with another workload;
 *   - `docbench k6 pagination`: the e-commerce scenario seeded and driven through its routes.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installK6 } from '../../src/local/k6.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { startServiceProcess } from '../../src/service/service-process.ts';
import { TEST_STORES } from '../support/stores.ts';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'docbench-k6-test-'));
const STORES = TEST_STORES;
/** A table of these tests' own, so no other test's data is touched. */
const TABLE = 'k6test';

let k6 = '';
before(async () => {
  k6 = await installK6((line) => process.stderr.write(`${line}\n`));
});
after(() => rmSync(work, { recursive: true, force: true }));

function docbench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'bin', 'docbench.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

function readResult(path: string): Result {
  assert.ok(existsSync(path), `${path} written`);
  return resultSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

/** Zero failed requests: every operation row returned OK only, and no -FAILED rows. */
function assertAllOk(result: Result): void {
  assert.deepEqual(Object.keys(result.returns), ['OK'], `returns: ${JSON.stringify(result.returns)}`);
  assert.deepEqual(result.operations.filter((o) => o.name.endsWith('-FAILED')), []);
}

describe('docbench k6: YCSB through the service', { skip: !STORES.includes('redis') && 'needs redis', timeout: 600_000 }, () => {
  it('ycsb-a on redis: zero failed requests, a result in the common schema with service and k6 CPU', async () => {
    const out = join(work, 'ycsb-a.json');
    const r = await docbench(['k6', 'ycsb-a', '--store', 'redis', '-p', `table=${TABLE}`, '-p', 'recordcount=500', '--operations', '2000', '--threads', '4', '--out', out, '-q']);
    assert.equal(r.code, 0, r.stderr);
    const result = readResult(out);
    assert.equal(result.mode, 'http');
    assert.equal(result.kind, 'ycsb');
    assert.equal(result.workload.name, 'workloada');
    assert.equal(result.store.name, 'redis');
    assertAllOk(result);
    assert.equal(result.overall.operations, 2000);
    const read = result.operations.find((o) => o.name === 'READ')!;
    const update = result.operations.find((o) => o.name === 'UPDATE')!;
    assert.equal(read.latency.operations + update.latency.operations, 2000);
    // A 50/50 mix: each VU draws its operations from its own seeded stream, so however k6 spreads
    // the 2000 iterations over the VUs, reads and updates are each about 1000; 700 is over 13
    // standard deviations away.
    assert.ok(read.latency.operations > 700 && update.latency.operations > 700, `a 50/50 mix: ${read.latency.operations} reads, ${update.latency.operations} updates`);
    assert.ok(read.latency.percentilesUs['99']! >= read.latency.percentilesUs['50']!);
    // The service's own cost, measured between setup() and teardown(): every operation was one request.
    assert.equal(result.store.extra!['service.requests'], 2000);
    assert.ok(Number(result.store.extra!['service.cpuUsPerRequest']) > 0);
    // k6's CPU over the measured window, per operation and per request.
    assert.ok(result.clientCpu.usPerOp > 0);
    assert.ok(Number(result.store.extra!['client.cpuUsPerRequest']) > 0);
    assert.ok(result.notes.some((n) => /^client CPU \(k6 process, measured window\)/.test(n)), result.notes.join('\n'));
    assert.equal(result.workload.properties['k6.executor'], 'shared-iterations');
    assert.equal(result.workload.properties.threadcount, 4);
    // YCSB text on stdout, as in direct mode.
    assert.match(r.stdout, /\[OVERALL\], Throughput\(ops\/sec\), /);
    assert.match(r.stdout, /\[READ\], Return=OK, \d+/);
  });

  it('a shipped script under plain `k6 run`: open model from environment variables, result file from handleSummary', async () => {
    // The table ycsb-a loaded above, served for workload C (read only, so nothing changes).
    const service = await startServiceProcess(['--store', 'redis', '--port', '0', '--scenario', 'ycsb', '-P', 'workloadc', '-p', `table=${TABLE}`, '-p', 'recordcount=500']);
    try {
      const resultFile = join(work, 'open.json');
      const env = { ...process.env, BASE_URL: service.baseUrl, MODEL: 'open', RATE: '200', DURATION: '3s', VUS: '4', RESULT_FILE: resultFile };
      const run = spawnSync(k6, ['run', '--quiet', '--no-color', join(root, 'k6', 'ycsb-c.ts')], { env, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 0, `${run.error ?? `signal ${run.signal}`}: ${run.stderr}`);
      const result = readResult(resultFile);
      assertAllOk(result);
      assert.equal(result.workload.properties['k6.executor'], 'constant-arrival-rate');
      assert.equal(result.workload.properties.target, 200);
      // constant-arrival-rate starts iteration i at i/RATE and none once DURATION is over (the one
      // due at the very end may race the deadline): never more than RATE × DURATION + 1. A loaded
      // machine gets fewer (dropped for want of a free VU, or not reached in time), which an open
      // model reports rather than catches up; so only the schedule's ceiling is asserted, over
      // the iterations run and those k6 counted as dropped together.
      const dropped = Number(/^k6 dropped (\d+) iterations/m.exec(result.notes.join('\n'))?.[1] ?? 0);
      assert.ok(result.overall.operations > 0, 'some iterations ran');
      assert.ok(result.overall.operations + dropped <= 200 * 3 + 1, `${result.overall.operations} run + ${dropped} dropped, the schedule allows ${200 * 3 + 1}`);
      assert.equal(result.operations[0]!.name, 'READ');
      // handleSummary prints YCSB text too.
      assert.match(run.stdout, /\[READ\], Operations, \d+/);

      // A script for another workload refuses this service instead of measuring the wrong thing.
      const wrong = spawnSync(k6, ['run', '--quiet', '--no-color', join(root, 'k6', 'ycsb-a.ts')], { env: { ...env, MODEL: 'closed', ITERATIONS: '10', RESULT_FILE: join(work, 'wrong.json') }, encoding: 'utf8', timeout: 120_000 });
      assert.notEqual(wrong.status, 0);
      assert.match(wrong.stderr, /this script runs workloada, but the service was started with workloadc/);
      assert.equal(existsSync(join(work, 'wrong.json')), false);
    } finally {
      assert.equal(await service.stop(), 0);
    }
  });
});

describe('docbench k6: the scenarios through their routes', { skip: !STORES.includes('redis') && 'needs redis', timeout: 600_000 }, () => {
  it('pagination on redis: seeded by the scenario, every page verified, zero failed requests', async () => {
    const out = join(work, 'pagination.json');
    const r = await docbench(['k6', 'pagination', '--store', 'redis', '--customers', '2000', '--operations', '600', '--threads', '4', '--out', out, '-q']);
    assert.equal(r.code, 0, r.stderr);
    const result = readResult(out);
    assert.equal(result.mode, 'http');
    assert.equal(result.kind, 'ecommerce');
    assert.equal(result.workload.name, 'pagination');
    assert.equal(result.workload.properties.customers, 2000);
    assertAllOk(result);
    assert.equal(result.overall.operations, 600);
    assert.deepEqual(result.operations.map((o) => [o.name, o.returns]), [
      ['PAGINATION', { OK: 600 }],
      ['VERIFY', { OK: 600 }],
    ]);
    assert.equal(result.store.extra!['service.requests'], 600);
    assert.ok(Number(result.store.extra!['service.cpuUsPerRequest']) > 0);
    assert.ok(result.clientCpu.usPerOp > 0);
    assert.ok(result.notes.some((n) => /^pagination variant zrange:/.test(n)), result.notes.join('\n'));
  });

  it('persons on redis: Q1–Q5 in turn, every answer checked against the oracle', async () => {
    const out = join(work, 'persons.json');
    // Collections of this test's own (k6test_persons), apart from the persons scenario's.
    const r = await docbench(['k6', 'persons', '--store', 'redis', '--size', '1000', '-p', 'collection=k6test_persons', '--operations', '50', '--threads', '2', '--out', out, '-q']);
    assert.equal(r.code, 0, r.stderr);
    const result = readResult(out);
    assert.equal(result.kind, 'persons');
    assert.equal(result.workload.name, 'persons-flat-1000');
    assertAllOk(result);
    // Every query asked, every answer right: one row per query and the checks, all OK.
    assert.deepEqual(result.operations.map((o) => o.name), ['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'VERIFY']);
    for (const o of result.operations) assert.deepEqual(Object.keys(o.returns ?? {}), ['OK'], `${o.name}: ${JSON.stringify(o.returns)}`);
    const asked = result.operations.slice(0, 5).map((o) => o.returns!.OK!);
    assert.equal(result.overall.operations, 50);
    assert.equal(asked.reduce((a, b) => a + b, 0), 50);
    assert.equal(result.operations[5]!.returns!.OK, 50, 'every answer checked against the oracle');
    // How k6 spreads the 50 iterations over the 2 VUs is its business (not 25 each), but each VU
    // asks Q1, Q2, … Q5 in turn from Q1, so whatever the spread the counts never rise from Q1
    // to Q5 and differ by at most one partial round per VU.
    assert.ok(asked.every((n, i) => i === 0 || n <= asked[i - 1]!) && asked[0]! - asked[4]! <= 2, `Q1…Q5 asked ${asked.join(', ')} times`);
  });
});

after(async () => {
  if (!STORES.includes('redis')) return;
  const { openStore } = await import('../../src/cli/store-session.ts');
  const { loadWorkload } = await import('../../src/workload/workload-file.ts');
  const { PERSONS_DIALECTS } = await import('../../scenarios/persons/dialects.ts');
  const open = await openStore('redis', undefined, loadWorkload(['workloada'], [`table=${TABLE}`]).properties);
  try {
    await open.store.drop({ table: TABLE, fieldNames: [] });
    const persons = await PERSONS_DIALECTS.create(open.store, { shape: 'flat', indexes: false, size: 1000, collection: 'k6test_persons' });
    await persons.drop();
  } finally {
    await open.store.close();
  }
});
