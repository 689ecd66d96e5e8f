/**
 * A scenario file on every local store, through the CLI as a user runs it: seed, the mix (queries
 * with every answer checked, writes read back), the seeded state put back, every query's plan
 * recorded; a query outside a store's reach UNSUPPORTED with its reason; and the same file
 * served over HTTP. Collections are named by a scenario of this test's own (`itest_sf<pid>_…`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { openStore, type OpenStore } from '../../src/session/store-session.ts';
import { fileDialect } from '../../scenarios/file/run.ts';
import { loadScenario } from '../../scenarios/file/load.ts';
import { startServiceProcess } from '../../src/service/service-process.ts';
import { checkShaped } from '../../scenarios/file/answers.ts';
import type { ParameterPool, ScenarioInfo } from '../../scenarios/file/service.ts';
import { runDocbench } from '../support/cli.ts';
import { FILE_DIALECTS } from '../../scenarios/file/dialects.ts';
import { TEST_STORES as LOCAL_STORES } from '../support/stores.ts';

/** The local stores a scenario file runs on: every one with a file dialect. */
const TEST_STORES = LOCAL_STORES.filter((s) => FILE_DIALECTS.runsOn(s));

const work = mkdtempSync(join(tmpdir(), 'docbench-scenario-file-it-'));
const QUERIES = ['recent', 'with-buyer', 'spend', 'by-name', 'coupons', 'either'];
const NAME = `itest-sf${process.pid}`;
const FILE = join(work, 'shop.yaml');
writeFileSync(
  FILE,
  `name: ${NAME}
seed: 5
collections:
  customers:
    count: 60
    fields:
      name: { type: faker, method: person.lastName }
      tier: { type: enum, values: [gold, silver] }
  orders:
    count: 400
    fields:
      customer: { type: ref, collection: customers }
      placed: { type: date, from: 2024-01-01, to: 2024-12-31 }
      total: { type: decimal, min: 1, max: 300, scale: 2 }
      items: { type: array, of: { type: enum, values: [pen, ink, pad, clip] }, min: 1, max: 3 }
      gift: { type: bool, probability: 0.2 }
      coupon: { type: int, min: 1, max: 50, present: 0.3 }
    indexes: [[customer, -placed]]
  reviews:
    count: 100
    fields:
      order: { type: ref, collection: orders }
      stars: { type: int, min: 1, max: 5 }
queries:
  recent:
    collection: orders
    filter: { customer: $c, placed: { $gte: $from } }
    sort: { placed: -1 }
    limit: 5
    project: [placed, total]
    params: { c: { type: pick, from: orders.customer }, from: { type: date, from: 2024-01-01, to: 2024-10-01 } }
  with-buyer:
    collection: orders
    filter: { items: $item, gift: false }
    sort: { total: 1 }
    limit: 4
    join: { from: customers, on: customer, as: buyer, project: [name] }
    params: { item: { type: pick, from: orders.items } }
  spend:
    collection: orders
    filter: { items: $item }
    group: { by: customer, sum: total }
    params: { item: { type: pick, from: orders.items } }
  by-name:
    collection: customers
    filter: { tier: $tier }
    sort: { name: -1 }
    limit: 6
    params: { tier: { type: pick, from: customers.tier } }
  coupons:
    collection: orders
    filter: { coupon: { $exists: true } }
    sort: { coupon: -1 }
    skip: 2
    limit: 5
  either:
    collection: orders
    filter: { $or: [{ total: { $gt: $t } }, { gift: true }] }
    count: true
    params: { t: { type: int, min: 100, max: 290 } }
writes:
  review: { insert: reviews }
  rate: { update: reviews, set: [stars] }
  unreview: { delete: reviews }
mix: { recent: 0.25, with-buyer: 0.2, spend: 0.1, by-name: 0.05, coupons: 0.05, either: 0.05, review: 0.15, rate: 0.1, unreview: 0.05 }
run: { operationcount: 300, threadcount: 3, readbacksample: 1, parametersets: 30 }
`,
);

after(async () => {
  // Leave nothing on the shared servers.
  const scenario = loadScenario(FILE);
  for (const store of TEST_STORES) {
    let open: OpenStore | undefined;
    try {
      open = await openStore(store, undefined, { settings: {}, concurrency: 2 });
      await (await fileDialect(open.store, scenario)).drop();
    } catch {
      // a store that is down has nothing of ours
    } finally {
      await open?.store.close();
    }
  }
  rmSync(work, { recursive: true, force: true });
});

describe('a scenario file on every local store', { timeout: 900_000 }, () => {
  const out = join(work, 'out');
  let results: Result[] = [];

  before(() => {
    const r = runDocbench(['scenario', FILE, '--stores', TEST_STORES.join(','), '-q', '--out-dir', out], {
      timeoutMs: 840_000,
    });
    assert.equal(r.code, 0, `every answer right (exit 0): ${r.stderr.slice(-2000)}`);
    results = TEST_STORES.map((s) =>
      resultSchema.parse(JSON.parse(readFileSync(join(out, `${s}-${NAME}-run.json`), 'utf8'))),
    );
  });

  for (const [i, store] of TEST_STORES.entries()) {
    it(`${store}: every answer checked and right, writes read back, plans recorded, refusals with their reason`, () => {
      const r = results[i]!;
      const verify = r.operations.find((o) => o.name === 'VERIFY');
      assert.equal(verify?.returns?.UNEXPECTED_STATE ?? 0, 0);
      const translations = Object.entries(r.workload.properties).filter(([k]) => k.startsWith('translation.'));
      assert.equal(translations.length, 6);
      for (const query of QUERIES) {
        const plan = r.plans?.find((p) => p.query === query);
        assert.ok(plan, `${query}: a plan is recorded`);
        const translation = String(r.workload.properties[`translation.${query}`]);
        if (translation.startsWith('UNSUPPORTED: ')) {
          assert.ok(translation.length > 'UNSUPPORTED: '.length + 10, 'with its reason');
          assert.equal(r.operations.find((o) => o.name === query)?.returns?.UNSUPPORTED, 1);
        } else {
          assert.ok((r.operations.find((o) => o.name === query)?.returns?.OK ?? 0) > 0, `${query} ran`);
        }
      }
      // Every write ran and was read back (readbacksample 1); a delete's read-back finds nothing, rightly.
      for (const write of ['review', 'rate', 'unreview'])
        assert.ok((r.operations.find((o) => o.name === write)?.returns?.OK ?? 0) > 0, `${write} ran`);
      assert.ok((r.operations.find((o) => o.name === 'READBACK')?.returns?.OK ?? 0) > 0);
      assert.ok((verify?.returns?.OK ?? 0) > 0);
    });
  }

  it('MongoDB runs everything; the key-value stores refuse the $or with a parameter; CouchDB a text sort', () => {
    const byStore = new Map(results.map((r) => [r.store.name, r]));
    const translation = (store: string, q: string) =>
      String(byStore.get(store)!.workload.properties[`translation.${q}`]);
    // The local Couchbase stand-in has no query service: it refuses every query, for that reason.
    for (const store of [...byStore.keys()].filter((s) => s !== 'couchbase')) {
      // A text sort is right or refused, never wrong: CouchDB collates text by ICU, not by code point.
      if (store === 'couchdb')
        assert.match(translation(store, 'by-name'), /^UNSUPPORTED: name is text: Mango sorts strings by ICU/);
      else assert.doesNotMatch(translation(store, 'by-name'), /^UNSUPPORTED/, store);
      assert.doesNotMatch(translation(store, 'coupons'), /^UNSUPPORTED/, store);
    }
    if (byStore.has('mongodb')) for (const q of QUERIES) assert.doesNotMatch(translation('mongodb', q), /^UNSUPPORTED/);
    if (byStore.has('couchdb')) assert.doesNotMatch(translation('couchdb', 'either'), /^UNSUPPORTED/);
    for (const store of ['redis', 'cassandra']) {
      const r = byStore.get(store);
      if (r) assert.match(String(r.workload.properties['translation.either']), /^UNSUPPORTED: a parameter inside \$or/);
    }
  });

  it('the run put the seeded state back: a second run on the seeded data is right too', () => {
    const store = TEST_STORES.includes('redis') ? 'redis' : TEST_STORES[0]!;
    const r = runDocbench(
      [
        'scenario',
        FILE,
        '--stores',
        store,
        '--skip-seed',
        '-q',
        '--out-dir',
        join(work, 'again'),
        '-p',
        'operationcount=100',
      ],
      { timeoutMs: 300_000 },
    );
    assert.equal(r.code, 0, r.stderr.slice(-1000));
  });

  it('served over HTTP: POST /queries/<name> answers as the oracle says; a refused query is 501 with its reason', async () => {
    const store = TEST_STORES.includes('cassandra') ? 'cassandra' : TEST_STORES[0]!;
    const service = await startServiceProcess(['--store', store, '--port', '0', '--scenario', FILE]);
    try {
      const info = (await (await fetch(`${service.baseUrl}/_docbench/scenario`)).json()) as ScenarioInfo;
      assert.equal(info.name, NAME);
      for (const q of info.queries) {
        const pool = (await (
          await fetch(`${service.baseUrl}/_docbench/scenario/parameters?query=${q.name}`)
        ).json()) as ParameterPool;
        const entry = pool.entries[0]!;
        const response = await fetch(`${service.baseUrl}/queries/${q.name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ params: entry.params }),
        });
        if (!q.supported) {
          assert.equal(response.status, 501);
          assert.match(((await response.json()) as { message: string }).message, /not supported: /);
          continue;
        }
        assert.equal(response.status, 200, q.name);
        const body = (await response.json()) as { rows?: Record<string, never>[]; count?: number };
        const answer =
          body.rows !== undefined
            ? { kind: 'rows' as const, rows: body.rows }
            : { kind: 'count' as const, count: body.count! };
        assert.equal(checkShaped({ kind: q.kind, decimals: q.decimals }, entry.expected, answer), undefined, q.name);
      }
      const missing = await fetch(`${service.baseUrl}/queries/nope`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(missing.status, 404);
    } finally {
      await service.stop();
    }
  });
});
