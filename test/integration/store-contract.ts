/**
 * The store contract, asserted the same way for every store against its real local server:
 * each operation, its error mapping (missing records, unreachable server) and stats. Each
 * store's test file calls `describeStoreContract` with what differs (YCSB's update semantics).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { storeFactory } from '../../src/stores/stores.ts';
import {
  canInsertMany,
  UnreachableError,
  UnsupportedError,
  type FieldMap,
  type Store,
} from '../../src/stores/store.ts';

export interface ContractOptions {
  store: string;
  /** URL of a server that is not there, for the unreachable case. */
  unreachableUrl: string;
  /** Does update of a missing record report NOT_FOUND (false)? YCSB's Redis and Cassandra bindings upsert. */
  updateDetectsMissing: boolean;
  /** Does delete of a missing record report NOT_FOUND (false)? */
  deleteDetectsMissing: boolean;
  /** The local target cannot scan (reports UNSUPPORTED). */
  scanUnsupported?: boolean;
  settings?: Record<string, string>;
  /** Extra store-specific tests, given the connected store. */
  extra?: (get: () => Store) => void;
}

const FIELDS = ['field0', 'field1', 'field2'];
const record = (key: string): FieldMap => Object.fromEntries(FIELDS.map((f) => [f, `${key}-${f}-value`]));

export function describeStoreContract(options: ContractOptions): void {
  const table = `contract_${options.store}`;
  const schema = { table, fieldNames: FIELDS };
  // Scans get a table of their own, so the other tests' records don't sit in their range.
  const scanTable = `contract_scan_${options.store}`;
  const scanSchema = { table: scanTable, fieldNames: FIELDS };

  const title = `${options.store} store contract${
    options.settings
      ? ` (${Object.entries(options.settings)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')})`
      : ''
  }`;
  describe(title, { timeout: 300_000 }, () => {
    let store: Store;
    before(async () => {
      const target = await localTarget(options.store);
      const status = await target.start(() => {});
      store = (await storeFactory(options.store))({
        url: status.url,
        settings: options.settings ?? {},
        concurrency: 1,
      });
      await store.connect();
      for (const s of [schema, scanSchema]) {
        await store.drop(s);
        await store.prepare(s);
      }
    });
    after(async () => {
      if (!store) return;
      await store.drop(schema);
      await store.drop(scanSchema);
      await store.close();
    });

    it('inserts and reads all fields and selected fields', async () => {
      await store.insert(table, 'user100', record('user100'));
      assert.deepEqual(await store.read(table, 'user100', null), record('user100'));
      assert.deepEqual(await store.read(table, 'user100', ['field1']), { field1: 'user100-field1-value' });
    });

    it('reads a missing record as null (NOT_FOUND)', async () => {
      assert.equal(await store.read(table, 'user-missing', null), null);
      assert.equal(await store.read(table, 'user-missing', ['field0']), null);
    });

    it('updates some fields and keeps the others', async () => {
      await store.insert(table, 'user200', record('user200'));
      assert.equal(await store.update(table, 'user200', { field2: 'changed' }), true);
      assert.deepEqual(await store.read(table, 'user200', null), { ...record('user200'), field2: 'changed' });
    });

    it(`update of a missing record ${options.updateDetectsMissing ? 'reports NOT_FOUND' : "succeeds, as in YCSB's binding"}`, async () => {
      assert.equal(await store.update(table, 'user-missing-update', { field0: 'x' }), !options.updateDetectsMissing);
      await store.delete(table, 'user-missing-update');
    });

    it('deletes a record', async () => {
      await store.insert(table, 'user300', record('user300'));
      assert.equal(await store.delete(table, 'user300'), true);
      assert.equal(await store.read(table, 'user300', null), null);
      if (options.deleteDetectsMissing) assert.equal(await store.delete(table, 'user300'), false);
    });

    it('bulk inserts, then scans in ascending key order from any start key', async () => {
      // 250 keys inserted in a shuffled order, half through insertMany when the store has it.
      const keys = Array.from({ length: 250 }, (_, i) => `scan${String((i * 7919) % 100_000).padStart(5, '0')}`);
      const shuffled = [...keys].sort(
        (a, b) => ((a.charCodeAt(6) * 31 + a.charCodeAt(8)) % 17) - ((b.charCodeAt(6) * 31 + b.charCodeAt(8)) % 17),
      );
      const half = shuffled.slice(0, 125).map((key) => ({ key, fields: record(key) }));
      if (canInsertMany(store)) await store.insertMany(scanTable, half);
      else for (const r of half) await store.insert(scanTable, r.key, r.fields);
      for (const key of shuffled.slice(125)) await store.insert(scanTable, key, record(key));
      const sorted = [...keys].sort();
      for (const k of sorted)
        assert.deepEqual(await store.read(scanTable, k, ['field0']), { field0: `${k}-field0-value` });
      if (options.scanUnsupported) {
        await assert.rejects(store.scan(scanTable, 'scan', 10, null), UnsupportedError);
        return;
      }
      for (const [start, count] of [
        ['scan', 10],
        [sorted[40]!, 100],
        [`${sorted[100]!}0`, 50],
        [sorted[240]!, 100],
        ['scan99999', 5],
      ] as const) {
        const got = await store.scan(scanTable, start, count, null);
        const expected = sorted.filter((k) => k >= start).slice(0, count);
        assert.deepEqual(
          got.map((r) => r.key),
          expected,
          `scan(${start}, ${count})`,
        );
        for (const r of got) assert.deepEqual(r.fields, record(r.key));
      }
      const projected = await store.scan(scanTable, sorted[0]!, 3, ['field1']);
      assert.deepEqual(
        projected.map((r) => r.fields),
        sorted.slice(0, 3).map((k) => ({ field1: `${k}-field1-value` })),
      );
      // No field asked for (scankeysonly, Altoros 2022's workload E): the keys alone, in order.
      const keysOnly = await store.scan(scanTable, sorted[40]!, 100, []);
      assert.deepEqual(
        keysOnly.map((r) => r.key),
        sorted.slice(40, 140),
      );
      for (const r of keysOnly) assert.deepEqual(r.fields, {});
    });

    it('reports its server, version, driver and sizes', async () => {
      const stats = await store.stats();
      assert.ok(stats.server.length > 0);
      assert.match(stats.serverVersion, /^\d+\.\d+/);
      assert.match(stats.driver, /^\S+ \d+\.\d+\.\d+/);
    });

    it('fails fast with UnreachableError, one line naming the store, when the server is not there', async () => {
      const unreachable = (await storeFactory(options.store))({
        url: options.unreachableUrl,
        settings: options.settings ?? {},
        concurrency: 1,
      });
      const started = performance.now();
      await assert.rejects(unreachable.connect(), (error: unknown) => {
        assert.ok(error instanceof UnreachableError, String(error));
        assert.match(error.message, new RegExp(`^cannot reach ${options.store} at [^\\n]+$`));
        return true;
      });
      // "Fast" means within the store's own connect deadline (5 s for every store here), not a
      // driver's default of 30 s (MongoDB's serverSelectionTimeoutMS). 25 s tells the two apart
      // and leaves 20 s for a loaded machine, far more than load adds to a refused connection.
      const tookMs = performance.now() - started;
      assert.ok(tookMs < 25_000, `took ${Math.round(tookMs)} ms: a driver default, not the store's deadline?`);
      await unreachable.close();
    });

    options.extra?.(() => store);
  });
}
