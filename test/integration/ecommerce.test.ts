/**
 * The e-commerce scenario end to end on every local store, at a small size: seed customers and
 * orders, run pagination, JOIN (every variant the store has) and the pagination mix, every answer
 * checked against the oracle; then the key-value operations and their error cases, and the
 * `docbench run --scenario ecommerce` command with its result file. On the Couchbase stand-in
 * (KV only) seeding and key-value operations must run and every query must say UNSUPPORTED.
 *
 * The test seeds the scenario's own collections (as `docbench seed ecommerce` does) and drops
 * them at the end: a dataset seeded for a benchmark on the same local servers is replaced.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, type OpenStore } from '../../src/session/store-session.ts';
import { ProcessPool } from '../../src/runner/process-pool.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { CouchbaseStore } from '../../src/stores/couchbase/index.ts';
import type { EcommerceDialect } from '../../scenarios/ecommerce/dialect.ts';
import { ECOMMERCE_DIALECTS } from '../../scenarios/ecommerce/dialects.ts';
import { customerCore, generateCustomer } from '../../scenarios/ecommerce/generator.ts';
import { customerId, orderId, type Dataset } from '../../scenarios/ecommerce/model.ts';
import { EcommerceOracle } from '../../scenarios/ecommerce/oracle.ts';
import { seedEcommerce } from '../../scenarios/ecommerce/seed.ts';
import {
  ecommerceDialect,
  ecommerceWorkload,
  readDataset,
  restoreSeededState,
  runEcommerce,
} from '../../scenarios/ecommerce/session.ts';
import type { QueryKind } from '../../scenarios/ecommerce/queries.ts';
import { parseSettings } from '../../scenarios/ecommerce/settings.ts';
import { runDocbenchAsync } from '../support/forwarder.ts';
import { TEST_STORES } from '../support/stores.ts';

// The stores the scenario runs on (FerretDB v1 cannot hold its data: ECOMMERCE_DIALECTS says why).
const STORES = TEST_STORES.filter((s) => ECOMMERCE_DIALECTS.runsOn(s));
// Small zips, so YCSB-JSON's zip queries have several customers at this size.
const DATASET: Dataset = { seed: 2002, customers: 300, ordersPerCustomer: 4, customersPerZip: 10 };
const OPERATIONS = 150;

/** A target without SQL++ (the local Couchbase stand-in) cannot run the queries. */
function hasQueries(open: OpenStore): boolean {
  return !(open.store instanceof CouchbaseStore) || open.store.handle.capabilities().query;
}

const count = (statuses: ReadonlyMap<string, number>, status: string) => statuses.get(status) ?? 0;

for (const store of STORES) {
  describe(`ecommerce on ${store}`, { timeout: 300_000 }, () => {
    let open: OpenStore;
    let dialect: EcommerceDialect;
    const oracle = new EcommerceOracle(DATASET);

    before(async () => {
      open = await openStore(store, undefined, { settings: {}, concurrency: 4 });
      dialect = await ecommerceDialect(open.store);
    });

    after(async () => {
      if (!open) return;
      await dialect.drop();
      await open.store.close();
    });

    it('seeds customers and orders in bulk and writes the manifest last', async () => {
      const { outcome, manifest } = await seedEcommerce({
        store: open.store,
        dataset: DATASET,
        batchSize: 100,
        concurrency: 4,
        progress: false,
        label: `[${store}]`,
      });
      assert.equal(
        count(outcome.measurements.statusCounts('INSERT-BATCH'), 'OK'),
        3,
        'three bulk writes of 100 customers',
      );
      assert.equal(count(outcome.measurements.statusCounts('INSERT-BATCH'), 'ERROR'), 0);
      assert.deepEqual({ ...manifest, seededAt: '' }, { ...(await readDataset(dialect, store)), seededAt: '' });
      assert.equal(manifest.signupsUpTo, DATASET.customers);
    });

    // The workloads and the query kind each runs; pagination also as the study wrote it (no ORDER BY).
    const CASES: { workload: string; kind: QueryKind; extra?: string[] }[] = [
      { workload: 'pagination', kind: 'pagination' },
      { workload: 'pagination', kind: 'pagination', extra: ['ordered=false'] },
      { workload: 'join', kind: 'join' },
      { workload: 'join', kind: 'join', extra: ['parameters=independent'] },
      { workload: 'search', kind: 'soe-search' },
      { workload: 'page', kind: 'soe-page' },
      { workload: 'nestscan', kind: 'soe-nestscan' },
      { workload: 'arrayscan', kind: 'soe-arrayscan' },
      { workload: 'arraydeepscan', kind: 'soe-arraydeepscan' },
      { workload: 'report', kind: 'soe-report' },
    ];
    for (const { workload: name, kind, extra = [] } of CASES) {
      it(`${name}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}: every variant answers as the oracle does (UNSUPPORTED where the target has no queries)`, async () => {
        const row = kind.toUpperCase();
        const { runs } = await runEcommerce({
          store: open.store,
          workload: ecommerceWorkload(name),
          settings: parseSettings([`operationcount=${OPERATIONS}`, 'threadcount=4', ...extra]),
          status: false,
        });
        assert.equal(runs.length, dialect.variants[kind].length, 'one run per variant');
        for (const run of runs) {
          const m = run.outcome.measurements;
          assert.equal(run.mismatch, undefined, run.mismatch);
          // How the store ran the query in this variant, from its own evidence.
          assert.equal(run.plans.length, 1, 'one plan per query kind of the run');
          const plan = run.plans[0]!;
          assert.deepEqual([plan.query, plan.variant], [kind, run.variants[kind]]);
          assert.ok(plan.parameters?.startsWith('{'), 'the parameters the plan was taken with');
          if (hasQueries(open)) {
            assert.ok(
              plan.access === 'index' || plan.access === 'key',
              `${plan.variant}: ${plan.access} ${plan.warnings.join('; ')} ${plan.raw}`,
            );
            assert.ok(
              plan.used.length > 0 && !plan.flagged,
              `${plan.variant} names what served it: ${plan.used.join(', ')}`,
            );
          } else {
            assert.equal(plan.access, 'unknown');
            assert.match(plan.warnings.join('; '), /^no plan: /);
          }
          if (hasQueries(open)) {
            assert.equal(
              count(m.statusCounts(row), 'OK'),
              OPERATIONS,
              `${JSON.stringify(run.variants)}: ${m.errorSamples(row).join('; ')}`,
            );
            assert.equal(count(m.statusCounts('VERIFY'), 'OK'), OPERATIONS, 'every answer checked');
          } else {
            const unsupported = count(m.statusCounts(row), 'UNSUPPORTED');
            assert.ok(
              unsupported >= 1 && unsupported <= 4,
              `a query the stand-in cannot run is UNSUPPORTED, never a success; the run stops once every worker saw it (${unsupported})`,
            );
            assert.equal(count(m.statusCounts(row), 'OK'), 0);
            assert.ok(
              run.outcome.notes.some((n) =>
                /stopped after \d+ operations: every operation of this workload is UNSUPPORTED/.test(n),
              ),
              run.outcome.notes.join('; '),
            );
          }
        }
      });
    }

    it('mix: pages stay right while customers sign up and change; the next run starts from the seeded state', async () => {
      const { runs } = await runEcommerce({
        store: open.store,
        workload: ecommerceWorkload('mix'),
        settings: parseSettings(['operationcount=300', 'threadcount=4', 'seed=9', 'readbacksample=0.5']),
        status: false,
      });
      for (const run of runs) {
        const m = run.outcome.measurements;
        assert.equal(run.mismatch, undefined, run.mismatch);
        assert.ok(
          count(m.statusCounts('CUSTOMER-INSERT'), 'OK') > 0,
          `sign-ups inserted: ${m.errorSamples('CUSTOMER-INSERT').join('; ')}`,
        );
        assert.ok(
          count(m.statusCounts('CUSTOMER-UPDATE'), 'OK') > 0,
          `customers updated: ${m.errorSamples('CUSTOMER-UPDATE').join('; ')}`,
        );
        assert.ok(count(m.statusCounts('READBACK'), 'OK') > 0, 'a sample of the writes was read back and checked');
        assert.equal(count(m.statusCounts('VERIFY'), 'UNEXPECTED_STATE'), 0);
      }
      const manifest = await readDataset(dialect, store);
      assert.ok(manifest.signupsUpTo > DATASET.customers, 'the manifest records how far sign-ups may reach');
      const firstSignup = customerId(DATASET.customers);
      assert.notEqual(await dialect.readCustomer(firstSignup), null, 'the first sign-up was stored');
      const restored = await restoreSeededState(dialect, manifest);
      assert.equal(restored.signupsUpTo, DATASET.customers);
      assert.equal(await dialect.readCustomer(firstSignup), null, 'restoring removes every sign-up');
      if (hasQueries(open)) {
        const country = customerCore(DATASET, DATASET.customers).country;
        const page = { country, offset: 0, limit: oracle.countryCount(country) + 5 };
        assert.deepEqual(
          await dialect.pagination(dialect.variants.pagination[0]!.name, page),
          oracle.page(page),
          'the removed sign-up left no index entry',
        );
      }
    });

    it('mix in two worker processes: every answer checked in each, sign-ups seen across them, one merged result', async () => {
      const pool = await ProcessPool.start({ store, url: open.url, settings: {}, threadcount: 4, processes: 2 });
      try {
        const settings = parseSettings([
          'operationcount=300',
          'threadcount=4',
          'seed=12',
          'readbacksample=0.5',
          'paginationproportion=0.6',
          'customerinsertproportion=0.3',
          'customerupdateproportion=0.1',
        ]);
        const { runs } = await runEcommerce({
          store: open.store,
          workload: ecommerceWorkload('mix'),
          settings,
          status: false,
          pool,
        });
        for (const run of runs) {
          const m = run.outcome.measurements;
          assert.equal(run.mismatch, undefined, run.mismatch);
          assert.equal(run.outcome.processes, 2);
          const done = [
            ...m.statusCounts('PAGINATION').values(),
            ...m.statusCounts('CUSTOMER-INSERT').values(),
            ...m.statusCounts('CUSTOMER-UPDATE').values(),
          ].reduce((a, b) => a + b, 0);
          assert.equal(done, 300, 'the two processes ran the operation count between them');
          assert.ok(
            count(m.statusCounts('CUSTOMER-INSERT'), 'OK') > 0,
            `sign-ups inserted: ${m.errorSamples('CUSTOMER-INSERT').join('; ')}`,
          );
          assert.ok(count(m.statusCounts('READBACK'), 'OK') > 0, 'a sample of the writes was read back and checked');
          assert.equal(count(m.statusCounts('VERIFY'), 'UNEXPECTED_STATE'), 0);
        }
        const manifest = await readDataset(dialect, store);
        assert.ok(manifest.signupsUpTo > DATASET.customers, 'sign-ups from both processes are recorded');
        await restoreSeededState(dialect, manifest);
      } finally {
        await pool.close();
      }
    });

    it('key-value operations: documents read back whole, and the error cases say so', async () => {
      assert.equal(oracle.checkCustomer(7, await dialect.readCustomer(customerId(7))), undefined);
      assert.equal(oracle.checkOrder(7, 3, await dialect.readOrder(orderId(7, 3))), undefined);
      assert.equal(
        await dialect.readCustomer(customerId(DATASET.customers + 999)),
        null,
        'a missing customer reads as null',
      );
      assert.equal(await dialect.readOrder(orderId(7, 99)), null, 'a missing order reads as null');
      const patch = { ballance_current: '$1.00', linear_score: 1, weighted_score: 2, isActive: false };
      assert.equal(await dialect.updateCustomer(customerId(7), patch), true);
      const updated = await dialect.readCustomer(customerId(7));
      assert.equal(updated?.ballance_current, '$1.00');
      assert.equal(updated?.isActive, false);
      assert.equal(oracle.checkCustomer(7, updated), undefined, 'an update changes the patched fields only');
      if (store !== 'cassandra') {
        // Every Cassandra write is an upsert: it cannot tell a missing row without a lightweight transaction.
        assert.equal(
          await dialect.updateCustomer(customerId(DATASET.customers + 999), patch),
          false,
          'updating a missing customer reports it',
        );
        await assert.rejects(
          dialect.insertCustomer(generateCustomer(DATASET, 7)),
          'inserting an existing id is an error',
        );
      }
    });

    it('docbench run --scenario ecommerce --workload join writes a result per variant in the common schema', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'docbench-ecommerce-'));
      try {
        const out = join(dir, 'join.json');
        // Run without blocking this process: its own store connections stay looked after meanwhile
        // (a blocked event loop keeps keep-alive sockets the server has closed, and the next call fails).
        // On Redis the workers are spread over two processes: --processes reaches the scenario's run loop.
        const processes = store === 'redis' ? ['--processes', '2', '--threads', '2'] : [];
        const cli = await runDocbenchAsync(
          [
            'run',
            '--scenario',
            'ecommerce',
            '--store',
            store,
            '--workload',
            'join',
            '-p',
            'operationcount=50',
            ...processes,
            '-q',
            '--out',
            out,
          ],
          { timeoutMs: 240_000 },
        );
        // A target that cannot run the JOIN (the Couchbase stand-in has no SQL++) measured nothing:
        // its results are still written, and the run ends as INVALID with exit 2.
        if (/INVALID: all \d+ JOIN operations were UNSUPPORTED/.test(cli.stderr)) assert.equal(cli.code, 2, cli.stderr);
        else assert.equal(cli.code, 0, cli.stderr);
        assert.match(cli.stdout, /\[OVERALL\], Throughput\(ops\/sec\)/);
        assert.match(cli.stdout, /\| store/, 'the summary table is printed');
        const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
        assert.equal(files.length, dialect.variants.join.length, files.join(', '));
        for (const file of files) {
          const result = resultSchema.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
          assert.equal(result.workload.name, 'join');
          assert.equal(result.store.name, store);
          assert.equal(result.clientCpu.processes ?? 1, store === 'redis' ? 2 : 1);
          assert.equal(typeof result.workload.properties['variant.join'], 'string');
          assert.equal(result.plans?.[0]?.query, 'join', 'the result carries the plan');
          const joinRow = result.operations.find((o) => o.name === 'JOIN');
          assert.ok(joinRow, 'a JOIN row');
          if (hasQueries(open)) assert.equal(joinRow.returns?.OK, 50);
          else
            assert.ok(
              (joinRow.returns?.UNSUPPORTED ?? 0) >= 1 && joinRow.returns?.OK === undefined,
              JSON.stringify(joinRow.returns),
            );
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('without secondary indexes (--no-indexes) every answer is still right, and the plans say how the store found them', async () => {
      await seedEcommerce({
        store: open.store,
        dataset: DATASET,
        batchSize: 100,
        concurrency: 4,
        progress: false,
        label: `[${store}]`,
        indexes: false,
      });
      assert.equal((await readDataset(dialect, store)).indexes, false, 'the manifest records it');
      for (const [name, extra] of [
        ['join', []],
        ['pagination', ['ordered=false']],
        ['page', []],
      ] as const) {
        const { runs } = await runEcommerce({
          store: open.store,
          workload: ecommerceWorkload(name),
          settings: parseSettings(['operationcount=40', 'threadcount=2', ...extra]),
          status: false,
        });
        for (const run of runs) {
          assert.equal(run.mismatch, undefined, run.mismatch);
          const plan = run.plans[0]!;
          if (!hasQueries(open)) continue;
          assert.equal(
            count(run.outcome.measurements.statusCounts('VERIFY'), 'OK'),
            40,
            `${name} ${plan.variant}: every answer checked`,
          );
          // MongoDB, CouchDB's Mango and Couchbase have no index to use now; query tables, index sets and views are the data model.
          if (store === 'mongodb' || (store === 'couchdb' && plan.variant === 'mango'))
            assert.equal(plan.access, 'scan', `${name} ${plan.variant}: ${plan.raw}`);
          assert.equal(plan.flagged, false, 'a scan with no index built for it is not flagged');
        }
      }
      if (store === 'couchdb') {
        const { runs } = await runEcommerce({
          store: open.store,
          workload: ecommerceWorkload('pagination'),
          settings: parseSettings(['operationcount=10']),
          status: false,
        });
        assert.ok(
          count(runs[0]!.outcome.measurements.statusCounts('PAGINATION'), 'UNSUPPORTED') >= 1,
          'CouchDB cannot sort a _find without an index',
        );
      }
    });

    it("Altoros 2022's pagination: no ORDER BY, on an address.country-only index, every page checked as a set", async () => {
      const settings = parseSettings(['operationcount=40', 'threadcount=2', 'ordered=false']);
      assert.equal(
        settings.paginationindex,
        'country',
        "the unordered page seeds the study's index unless told otherwise",
      );
      const { manifest } = await seedEcommerce({
        store: open.store,
        dataset: DATASET,
        batchSize: 100,
        concurrency: 4,
        progress: false,
        label: `[${store}]`,
        paginationIndex: settings.paginationindex,
      });
      assert.equal((await readDataset(dialect, store)).paginationIndex, 'country', 'the manifest records it');
      assert.equal(manifest.paginationIndex, 'country');
      const { runs } = await runEcommerce({
        store: open.store,
        workload: ecommerceWorkload('pagination'),
        settings,
        status: false,
      });
      for (const run of runs) {
        assert.equal(run.mismatch, undefined, run.mismatch);
        if (!hasQueries(open)) continue;
        assert.equal(count(run.outcome.measurements.statusCounts('VERIFY'), 'OK'), 40, 'every page checked');
        const plan = run.plans[0]!;
        // Where the index is optional, the page came from the country-only index.
        if (store === 'mongodb') assert.deepEqual(plan.used, ['ecommerce_country'], plan.raw);
        if (store === 'couchdb') assert.match(plan.used.join(' '), /by-country-only/, plan.raw);
      }
      if (store === 'couchdb') {
        const { runs: ordered } = await runEcommerce({
          store: open.store,
          workload: ecommerceWorkload('pagination'),
          settings: parseSettings(['operationcount=10', 'paginationindex=country']),
          status: false,
        });
        assert.ok(
          count(ordered[0]!.outcome.measurements.statusCounts('PAGINATION'), 'UNSUPPORTED') >= 1,
          'CouchDB cannot sort by id on an index without it',
        );
      }
    });
  });
}
