/**
 * FerretDB against docbench's local FerretDB (built once into the cache, on the local PostgreSQL;
 * started here through `openStore` if not running, and left running). The store runs the MongoDB
 * store's code: the shared contract, then what is FerretDB's own: its name and version in the
 * stats (never MongoDB's), the same server reached as `--store mongodb --url …` named FerretDB in
 * the result and in the text output, and bad connections in one line each.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, requestOf, type OpenStore } from '../../src/session/store-session.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { FerretdbStore } from '../../src/stores/ferretdb/index.ts';
import { localTarget } from '../../src/stores/ferretdb/local-target.ts';
import { MissingDataError, UnreachableError } from '../../src/stores/store.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { describeStoreContract } from './store-contract.ts';

const props = (...overrides: string[]) =>
  requestOf(loadWorkload(['workloada'], ['threadcount=2', ...overrides]).properties);
const url = (database: string) => localTarget.url.replace('/?', `/${database}?`);

describe('FerretDB on the local target', { timeout: 1_800_000 }, () => {
  let open: OpenStore;
  let store: FerretdbStore;

  before(async () => {
    open = await openStore('ferretdb', undefined, props());
    assert.ok(open.store instanceof FerretdbStore);
    store = open.store;
  });

  after(async () => {
    await store?.close();
  });

  it('stats name FerretDB and its own version, MongoDB-compatible, not MongoDB', async () => {
    const stats = await store.stats();
    assert.equal(stats.server, 'FerretDB');
    assert.equal(stats.serverVersion, '1.24.2');
    assert.equal(stats.compatible?.version, 'v1.24.2');
    assert.equal(stats.compatible?.product, 'FerretDB');
    assert.match(stats.compatible!.note, /^MongoDB-compatible, not MongoDB/);
    assert.equal(stats.standIn, undefined);
    assert.match(String(stats.extra?.reportedMongoVersion), /^\d+\.\d+/);
  });

  it('a missing database is fine (MongoDB semantics: made at the first write); a missing collection is named with the load command', async () => {
    const other = await openStore('ferretdb', url(`docbench_missing_${process.pid}`), props());
    try {
      await assert.rejects(
        other.store.checkTable({ table: 'nothing_here', fieldNames: [] }),
        (e: Error) => e instanceof MissingDataError && /docbench load --store ferretdb/.test(e.message),
      );
    } finally {
      await other.store.close();
    }
  });

  it('a wrong port: one line naming ferretdb and the selection timeout', async () => {
    await assert.rejects(
      openStore(
        'ferretdb',
        'mongodb://127.0.0.1:1/?directConnection=true',
        props('ferretdb.serverSelectionTimeoutMS=1000'),
      ),
      (e: Error) => e instanceof UnreachableError && /^cannot reach ferretdb at .*1000 ms/.test(e.message),
    );
  });

  it('tls=true at the plain server: a TLS mismatch, in one line of the CLI', () => {
    const r = runDocbench(['run', '--store', 'ferretdb', '--url', `${localTarget.url}&tls=true`, '-P', 'workloada']);
    assertUserError(r, /cannot reach ferretdb at .*TLS mismatch: .* speaks MongoDB without TLS; remove tls=true/);
  });

  it('a table never loaded, and an unknown setting, through the CLI: one line each, exit 2', () => {
    const unloaded = runDocbench([
      'run',
      '--store',
      'ferretdb',
      '--url',
      url(`docbench_unloaded_${process.pid}`),
      '-P',
      'workloada',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(
      unloaded,
      /ferretdb at .*the collection .*usertable" does not exist; .*docbench load --store ferretdb/,
    );
    const unknown = runDocbench(['run', '--store', 'ferretdb', '-P', 'workloada', '-p', 'ferretdb.nosuch=1']);
    assertUserError(unknown, /unknown setting ferretdb\.nosuch; ferretdb understands ferretdb\.writeConcern/);
  });

  it('`--store mongodb --url <FerretDB>`: the result and its text output name FerretDB v1.24.2, not MongoDB', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docbench-ferretdb-'));
    const database = `docbench_compat_${process.pid}`;
    try {
      const common = ['--store', 'mongodb', '--url', url(database), '-P', 'workloada', '-p', 'recordcount=200'];
      const load = runDocbench(['load', ...common], { timeoutMs: 300_000 });
      assert.equal(load.code, 0, load.stderr);
      const out = join(dir, 'run.json');
      const run = runDocbench(['run', ...common, '-p', 'operationcount=400', '--out', out], { timeoutMs: 300_000 });
      assert.equal(run.code, 0, run.stderr);
      const result = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
      assert.equal(result.store.name, 'mongodb');
      assert.equal(result.store.server, 'FerretDB');
      assert.equal(result.store.serverVersion, '1.24.2');
      assert.equal(result.store.compatible?.product, 'FerretDB');
      assert.match(run.stdout + run.stderr, /FerretDB v1\.24\.2, MongoDB-compatible, not MongoDB/);
      assert.doesNotMatch(run.stdout, /on mongodb: MongoDB /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      // The database this test made, so the shared local server keeps none of it.
      const { MongoClient } = await import('mongodb');
      const client = new MongoClient(url(database), { serverSelectionTimeoutMS: 5000 });
      await client
        .db(database)
        .dropDatabase()
        .catch(() => {});
      await client.close();
    }
  });
});

// The shared store contract (YCSB's MongoDB binding semantics: update and delete tell a missing record).
describeStoreContract({
  store: 'ferretdb',
  unreachableUrl: 'mongodb://127.0.0.1:1/?directConnection=true',
  updateDetectsMissing: true,
  deleteDetectsMissing: true,
});
