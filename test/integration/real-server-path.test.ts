/**
 * The path a user takes with servers of their own: every command that touches stores given
 * `--url <store>=URL` (or a config file) for servers on ports that are not docbench's, here the
 * local servers reached through TCP forwarders the test starts. Each command must go through the
 * forwarder (it counts connections), record the URL it used with the password masked, print no
 * password anywhere, and not mistake the server for docbench's own local one.
 *
 * Also the idempotent setup: the persons scenario run twice on the same CouchDB, then served by
 * two service processes that each build the views on their first request: zero errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { startServiceProcess } from '../../src/service/service-process.ts';
import { expectedAnswers } from '../../scenarios/persons/oracle.ts';
import { QUERIES } from '../../scenarios/persons/queries.ts';
import type { CliRun } from '../support/cli.ts';
import { forward, runDocbenchAsync, throughForwarder, type Forwarder } from '../support/forwarder.ts';
import { testsStore } from '../support/stores.ts';

const STORES = ['redis', 'mongodb', 'couchdb', 'cassandra'] as const;
type Name = (typeof STORES)[number];

const work = mkdtempSync(join(tmpdir(), 'docbench-real-path-'));
const forwarders = new Map<Name, Forwarder>();
/** Each store's local server, reached through its forwarder. */
const urls = new Map<Name, string>();
/** Secrets of those URLs, which no output may show. */
const secrets: string[] = [];

const docbench = (...args: string[]) => runDocbenchAsync(args, { cwd: work });
const skipUnless = (...stores: Name[]) => {
  const missing = stores.filter((s) => !testsStore(s));
  return missing.length > 0 ? `${missing.join(', ')} not among DOCBENCH_TEST_STORES` : false;
};
const urlFlag = (store: Name) => ['--url', `${store}=${urls.get(store)!}`];
const readResult = (file: string): Result => resultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));

/** The command succeeded and printed no password. */
function succeeded(r: CliRun): void {
  assert.equal(r.code, 0, `exit ${r.code}${r.signal ? ` (${r.signal})` : ''}: ${r.stderr.slice(-2000)}`);
  for (const secret of secrets) {
    assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'no password printed');
  }
}

/** The result was measured through the store's forwarder, says so with the password masked, and is not labelled as docbench's local server. */
function throughItsForwarder(result: Result, store: Name): void {
  assert.equal(result.store.name, store);
  assert.ok(
    result.store.url.includes(`127.0.0.1:${forwarders.get(store)!.port}`),
    `${store} result names the URL given: ${result.store.url}`,
  );
  for (const secret of secrets) assert.ok(!JSON.stringify(result).includes(secret), 'no password in the result');
  assert.equal(result.store.localTarget, false);
}

before(async () => {
  for (const store of STORES) {
    if (!testsStore(store)) continue;
    const target = await localTarget(store);
    const status = await target.start(() => {});
    const { hostname, port } = new URL(status.url.replace(/^(cassandra|mongodb):/, 'http:'));
    const forwarder = await forward(hostname, Number(port));
    forwarders.set(store, forwarder);
    urls.set(store, throughForwarder(status.url, forwarder));
    const password = /:\/\/[^:/@]+:([^@]+)@/.exec(status.url)?.[1];
    if (password) secrets.push(`:${password}@`);
  }
});

after(async () => {
  for (const forwarder of forwarders.values()) await forwarder.close();
  rmSync(work, { recursive: true, force: true });
});

describe('--url <store>=URL on every command', { timeout: 900_000 }, () => {
  it('load and run (YCSB)', { skip: skipUnless('redis') }, async () => {
    const before = forwarders.get('redis')!.connections();
    const loaded = join(work, 'load.json');
    succeeded(
      await docbench(
        'load',
        '--store',
        'redis',
        ...urlFlag('redis'),
        '-P',
        'workloada',
        '-p',
        'recordcount=200',
        '--fresh',
        '-q',
        '--out',
        loaded,
      ),
    );
    throughItsForwarder(readResult(loaded), 'redis');
    const ran = join(work, 'run.json');
    succeeded(
      await docbench(
        'run',
        '--store',
        'redis',
        ...urlFlag('redis'),
        '-P',
        'workloada',
        '-p',
        'recordcount=200',
        '-p',
        'operationcount=300',
        '-q',
        '--out',
        ran,
      ),
    );
    const result = readResult(ran);
    throughItsForwarder(result, 'redis');
    assert.equal(result.overall.operations, 300);
    assert.ok(forwarders.get('redis')!.connections() > before, 'the commands connected through the forwarder');
  });

  it('compare, one URL per store', { skip: skipUnless('redis', 'mongodb') }, async () => {
    const out = join(work, 'compare');
    succeeded(
      await docbench(
        'compare',
        // One round: this checks where each store is, not the rounds.
        '--repetitions',
        '1',
        '--stores',
        'redis,mongodb',
        ...urlFlag('redis'),
        ...urlFlag('mongodb'),
        '--workloads',
        'c',
        '-p',
        'recordcount=200',
        '-p',
        'operationcount=200',
        '-q',
        '--out-dir',
        out,
      ),
    );
    for (const store of ['redis', 'mongodb'] as const) {
      const result = readResult(join(out, `${store}-workloadc-run.json`));
      throughItsForwarder(result, store);
      // Every store named by --url: --processes auto spreads compare's 8 workers over the cores.
      assert.equal(result.clientCpu.processes, Math.min(availableParallelism(), 8));
      assert.match(
        result.clientCpu.processesReason ?? '',
        /auto \(the default\), every store is remote, so one per core/,
      );
    }
  });

  it(
    'seed ecommerce, then ecommerce on two stores, each result with its plans',
    { skip: skipUnless('cassandra', 'redis') },
    async () => {
      const seeded = join(work, 'seed-ecommerce.json');
      succeeded(
        await docbench(
          'seed',
          'ecommerce',
          '--store',
          'cassandra',
          ...urlFlag('cassandra'),
          '--customers',
          '100',
          '-q',
          '--out',
          seeded,
        ),
      );
      throughItsForwarder(readResult(seeded), 'cassandra');
      const out = join(work, 'ecommerce');
      const r = await docbench(
        'ecommerce',
        '--stores',
        'cassandra,redis',
        ...urlFlag('cassandra'),
        ...urlFlag('redis'),
        '--customers',
        '100',
        '--workloads',
        'pagination',
        '-p',
        'operationcount=50',
        '-p',
        'maxexecutiontime=0',
        '-q',
        '--out-dir',
        out,
      );
      succeeded(r);
      assert.match(r.stdout, /#### Query plans/);
      for (const store of ['cassandra', 'redis'] as const) {
        const result = readResult(
          join(out, `${store}-ecommerce-pagination-${store === 'redis' ? 'zrange' : 'query-table'}.json`),
        );
        throughItsForwarder(result, store);
        assert.equal(result.plans?.length, 1, 'the pagination plan');
      }
    },
  );

  it(
    'seed persons and persons (twice: the setup is idempotent), then serve with two workers: zero errors',
    { skip: skipUnless('couchdb') },
    async () => {
      const seeded = join(work, 'seed-persons.json');
      succeeded(
        await docbench(
          'seed',
          'persons',
          '--store',
          'couchdb',
          ...urlFlag('couchdb'),
          '--size',
          '100',
          '-q',
          '--out',
          seeded,
        ),
      );
      throughItsForwarder(readResult(seeded), 'couchdb');
      const size = 300;
      for (const round of [1, 2]) {
        const out = join(work, `persons-${round}`);
        const r = await docbench(
          'persons',
          '--store',
          'couchdb',
          ...urlFlag('couchdb'),
          '--size',
          String(size),
          '--indexes',
          '--repeat',
          '1',
          '-q',
          '--out-dir',
          out,
        );
        succeeded(r);
        const run = readResult(join(out, `couchdb-persons-flat-${size}-indexed-run.json`));
        throughItsForwarder(run, 'couchdb');
        assert.equal(run.store.extra?.['couchdb.database'], 'persons', 'the result names the database the run used');
        assert.equal(
          run.plans?.filter((p) => p.access === 'index').length,
          10,
          'mango and view plans, every query served by an index',
        );
        assert.match(r.stdout, /#### Query plans/);
      }

      // The views' design document exists now (the runs built it): each service process builds
      // it again on its first view request, both at once, and must not fail on the update conflict.
      const service = await startServiceProcess([
        '--store',
        'couchdb',
        ...urlFlag('couchdb'),
        '--port',
        '0',
        '--workers',
        '2',
        '--scenario',
        'persons',
        '-p',
        `persons.size=${size}`,
        '-p',
        'persons.indexes=true',
      ]);
      try {
        const expected = expectedAnswers({ seed: 1337, size, shape: 'flat' });
        const requests = [];
        for (let round = 0; round < 4; round++) {
          for (const q of QUERIES) for (const variant of ['view', 'mango']) requests.push({ q, variant });
        }
        const answers = await Promise.all(
          requests.map(async ({ q, variant }) => {
            const response = await fetch(`${service.baseUrl}/persons?q=${q.id.slice(1)}&variant=${variant}`);
            return {
              q,
              variant,
              status: response.status,
              body: (await response.json()) as { count?: number; message?: string },
            };
          }),
        );
        for (const a of answers) {
          assert.equal(a.status, 200, `${a.variant} ${a.q.id}: ${a.status} ${a.body.message ?? ''}`);
          assert.equal(a.body.count, expected.get(a.q.id)!.count, `${a.variant} ${a.q.id}`);
        }
        const info = (await (await fetch(`${service.baseUrl}/_docbench/info`)).json()) as { store: { url: string } };
        assert.ok(info.store.url.includes(`127.0.0.1:${forwarders.get('couchdb')!.port}`), info.store.url);
        for (const secret of secrets) assert.ok(!info.store.url.includes(secret));
      } finally {
        await service.stop();
      }
    },
  );

  it('k6 drives the service in front of the given server', { skip: skipUnless('redis') }, async () => {
    const out = join(work, 'k6.json');
    const r = await docbench(
      'k6',
      'ycsb-c',
      '--store',
      'redis',
      ...urlFlag('redis'),
      '-p',
      'recordcount=200',
      '--operations',
      '300',
      '--threads',
      '2',
      '-q',
      '--out',
      out,
    );
    succeeded(r);
    const result = readResult(out);
    assert.equal(result.mode, 'http');
    throughItsForwarder(result, 'redis');
  });
});

describe('the config file', { timeout: 600_000 }, () => {
  it(
    'gives the stores, their URLs (passwords from the environment) and settings; -p still wins',
    { skip: skipUnless('couchdb', 'redis') },
    async () => {
      const couchdb = new URL(urls.get('couchdb')!);
      const password = decodeURIComponent(couchdb.password);
      couchdb.password = '${DOCBENCH_TEST_COUCHDB_PASSWORD}';
      const file = join(work, 'team.config.json');
      const configured = {
        stores: {
          couchdb: { url: decodeURI(couchdb.toString()), settings: { maxsockets: 3 } },
          redis: { url: urls.get('redis') },
        },
      };
      writeFileSync(file, JSON.stringify(configured, null, 2));
      const env = { ...process.env, DOCBENCH_TEST_COUCHDB_PASSWORD: password };

      const seeded = join(work, 'config-seed.json');
      const r = await runDocbenchAsync(
        ['seed', 'persons', '--store', 'couchdb', '--config', file, '--size', '100', '-q', '--out', seeded],
        { cwd: work, env },
      );
      succeeded(r);
      const load = readResult(seeded);
      throughItsForwarder(load, 'couchdb');
      assert.equal(load.store.extra?.['couchdb.maxsockets'], 3, 'the setting from the file');

      const overridden = join(work, 'config-seed-p.json');
      succeeded(
        await runDocbenchAsync(
          [
            'seed',
            'persons',
            '--store',
            'couchdb',
            '--config',
            file,
            '-p',
            'couchdb.maxsockets=5',
            '--size',
            '100',
            '-q',
            '--out',
            overridden,
          ],
          { cwd: work, env },
        ),
      );
      assert.equal(readResult(overridden).store.extra?.['couchdb.maxsockets'], 5, '-p overrides the file');

      // Without --stores, a comparison runs the file's stores.
      const out = join(work, 'config-compare');
      succeeded(
        await runDocbenchAsync(
          [
            'compare',
            '--repetitions',
            '1',
            '--config',
            file,
            '--workloads',
            'c',
            '-p',
            'recordcount=100',
            '-p',
            'operationcount=100',
            '-q',
            '--out-dir',
            out,
          ],
          { cwd: work, env },
        ),
      );
      assert.deepEqual(
        readdirSync(out)
          .filter((f) => f.endsWith('-run.json'))
          .sort(),
        ['couchdb-workloadc-run.json', 'redis-workloadc-run.json'],
      );
      throughItsForwarder(readResult(join(out, 'redis-workloadc-run.json')), 'redis');

      const unset = await runDocbenchAsync(
        ['seed', 'persons', '--store', 'couchdb', '--config', file, '--size', '100'],
        { cwd: work },
      );
      assert.equal(unset.code, 2);
      assert.match(
        unset.stderr.trim(),
        /^docbench: .*team.config.json: stores.couchdb.url: the environment variable DOCBENCH_TEST_COUCHDB_PASSWORD is not set$/,
      );
    },
  );
});
