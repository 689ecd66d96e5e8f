import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { statusOfError } from '../../src/measure/timed.ts';
import { decodeJson, decodeProtobuf, encodeJson, encodeProtobuf, type Row } from '../../src/stores/hbase/cellset.ts';
import { createStore } from '../../src/stores/hbase/index.ts';
import type { HbaseStore } from '../../src/stores/hbase/index.ts';
import { MissingDataError, UnreachableError } from '../../src/stores/store.ts';
import { localTarget } from '../../src/local/targets.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { describeStoreContract } from './store-contract.ts';

for (const format of ['protobuf', 'json']) {
  describeStoreContract({
    store: 'hbase',
    unreachableUrl: 'hbase+rest://127.0.0.1:1',
    // YCSB's HBase binding: a Put is an upsert and a Delete writes a tombstone whether or not the row was there.
    updateDetectsMissing: false,
    deleteDetectsMissing: false,
    settings: { 'hbase.format': format },
    extra: (get) => {
      it('reports regions and store files of its namespace', async () => {
        const stats = await get().stats();
        assert.equal(stats.server, 'Apache HBase');
        assert.equal(stats.extra?.namespace, 'default');
        assert.ok(Number(stats.extra?.regions) >= 1, JSON.stringify(stats.extra));
      });
    },
  });
}

describe('hbase cell sets', () => {
  const rows: Row[] = [
    {
      key: 'user1',
      cells: [
        { column: 'family:field0', value: 'a'.repeat(300) },
        { column: 'family:f1', value: 'é ü ✓' },
      ],
    },
    { key: 'ключ', cells: [{ column: 'p:x', value: '' }] },
  ];
  it('protobuf and JSON both round-trip rows (UTF-8, long and empty values)', () => {
    assert.deepEqual(decodeProtobuf(encodeProtobuf(rows)), rows);
    assert.deepEqual(decodeJson(encodeJson(rows)), rows);
  });
});

describe('hbase connection and tables', { timeout: 300_000 }, () => {
  it('a gateway that accepts and never answers: the call fails as a TIMEOUT after hbase.timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const store = createStore({
      url: `hbase+rest://127.0.0.1:${port}`,
      settings: { 'hbase.timeout': '300' },
      concurrency: 1,
    });
    try {
      const error = await store.read('usertable', 'user1', null).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.equal(statusOfError(error), 'TIMEOUT', String(error));
      assert.match(String(error), /had no answer within 300 ms \(hbase\.timeout\)/);
    } finally {
      await store.close();
      silent.close();
    }
  });

  it('a refused connection: one line naming the gateway, the password masked', async () => {
    const store = createStore({ url: 'hbase+rest://bench:s3cret@127.0.0.1:1', settings: {}, concurrency: 1 });
    const error = await store.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof UnreachableError, String(error));
    assert.match(
      error.message,
      /^cannot reach hbase at hbase\+rest:\/\/bench:\*\*\*@127\.0\.0\.1:1: connection refused/,
    );
    assert.doesNotMatch(error.message, /s3cret|\n/);
    await store.close();
  });

  it('a run on a missing table, or on a family the table lacks: MissingDataError naming it', async () => {
    const { url } = await (await localTarget('hbase')).start(() => {});
    const store = createStore({ url, settings: {}, concurrency: 1 }) as HbaseStore;
    await store.connect();
    try {
      const schema = { table: `itest_missing_${process.pid}`, fieldNames: ['field0'] };
      await assert.rejects(
        store.checkTable(schema),
        (e: unknown) => e instanceof MissingDataError && /the table "itest_missing_\d+" does not exist/.test(e.message),
      );
      await store.handle.ensureTable(schema.table, ['other']);
      await assert.rejects(
        store.checkTable(schema),
        (e: unknown) => e instanceof MissingDataError && /column family "family"/.test(e.message),
      );
      await store.drop(schema);
    } finally {
      await store.close();
    }
  });
});

describe('hbase settings through the CLI', { timeout: 120_000 }, () => {
  it('an unknown or bad hbase.* setting, a bad URL: exit 2, one line', () => {
    assertUserError(
      runDocbench(['run', '--store', 'hbase', '-P', 'workloada', '-p', 'hbase.formta=json', '-p', 'operationcount=1']),
      /did you mean "hbase\.format"\?/,
    );
    assertUserError(
      runDocbench(['run', '--store', 'hbase', '-P', 'workloada', '-p', 'hbase.format=xml', '-p', 'operationcount=1']),
      /hbase\.format=xml: expected one of protobuf, json/,
    );
    const r = runDocbench([
      'run',
      '--store',
      'hbase',
      '--url',
      'hbase://admin:s3cret@127.0.0.1:8080',
      '-P',
      'workloada',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(r, /the URL "hbase:\/\/admin:\*\*\*@127\.0\.0\.1:8080" is not an hbase\+rest:\/\//);
    assert.doesNotMatch(r.stderr, /s3cret/);
  });
});
