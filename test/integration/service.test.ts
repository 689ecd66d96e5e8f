/**
 * `docbench serve` as users start it (a child process on a free port, 127.0.0.1), against the
 * local stores:
 *   - the YCSB routes on every store, and a security suite: malformed and injection payloads on
 *     every route answer 400 naming the parameter, and the data is untouched afterwards;
 *   - the same for the e-commerce routes (on the stores the scenario has code for) and the
 *     persons route, with the answers checked against the scenarios' oracles;
 *   - 503 with Retry-After while the store is unreachable (at start-up, and when it goes away
 *     mid-run), and recovery when it returns (a Redis server of the test's own);
 *   - graceful shutdown on SIGTERM and SIGINT (requests in flight finish, exit code 0);
 *   - --workers (node cluster) with stats summed over the workers;
 *   - --pool reaching the store's own pool (MongoDB maxPoolSize, CouchDB sockets);
 *   - a token from the environment: 401 without it, health open; none off loopback is refused;
 *   - one-line errors for bad arguments.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ECOMMERCE_DIALECTS } from '../../scenarios/ecommerce/dialects.ts';
import { EcommerceOracle } from '../../scenarios/ecommerce/oracle.ts';
import { ParameterChooser, type JoinRow } from '../../scenarios/ecommerce/queries.ts';
import { seedEcommerce } from '../../scenarios/ecommerce/seed.ts';
import { PERSONS_DIALECTS } from '../../scenarios/persons/dialects.ts';
import { expectedAnswers } from '../../scenarios/persons/oracle.ts';
import { seedPersons } from '../../scenarios/persons/run.ts';
import { summarizeIds } from '../../scenarios/shared/checksum.ts';
import { openStore, type OpenStore, requestOf } from '../../src/session/store-session.ts';
import { CouchbaseStore } from '../../src/stores/couchbase/index.ts';
import { startServiceProcess, type ServiceProcess } from '../../src/service/service-process.ts';
import type { FieldMap } from '../../src/stores/store.ts';
import { Random } from '../../src/workload/random.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { localUrlAt, TEST_STORES } from '../support/stores.ts';
import { waitFor } from '../support/wait.ts';

const root = join(import.meta.dirname, '..', '..');
const STORES = TEST_STORES;
const TABLE = 'svc_security';
const FIELDS = ['field0', 'field1', 'field2'];
const SETTINGS = [`table=${TABLE}`, 'fieldcount=3', 'maxscanlength=20'];
/** Stores whose local target cannot scan (the route must say so, never fake an answer). */
const SCAN_UNSUPPORTED = new Set(['couchbase']);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | null;
}

async function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Answer> {
  const raw = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${base}${path}`, {
    method,
    ...(raw !== undefined ? { body: raw, headers: { 'content-type': contentType } } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

/**
 * A request that declares a body over the limit and waits for the answer before writing it: the
 * service answers 413 from the headers and may close the connection, which HTTP allows, so a
 * client still writing the body can meet EPIPE (fetch then reports a failed request) depending on
 * who wins that race. Writing nothing until the answer arrives takes the race out of the test.
 */
function requestOversized(
  base: string,
  method: string,
  path: string,
  bytes: number,
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method, headers: { 'content-type': 'application/json', 'content-length': bytes } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          req.destroy();
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : null });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.flushHeaders();
  });
}

const recordOf = (key: string): FieldMap => Object.fromEntries(FIELDS.map((f) => [f, `${key}:${f}`]));

/** Malformed and injection payloads for every route: [what, method, path, body, parameter the 400 names]. */
function attacks(key: string): [string, string, string, unknown, string][] {
  const k = encodeURIComponent(key);
  const routes = {
    read: `/${TABLE}/${k}`,
    update: `/${TABLE}/${k}`,
    remove: `/${TABLE}/${k}`,
  };
  return [
    // GET /table/:key
    ['read: operator object as key', 'GET', `/${TABLE}/${encodeURIComponent('{"$gt":""}')}`, undefined, 'key'],
    ['read: $ operator key', 'GET', `/${TABLE}/%24gt`, undefined, 'key'],
    ['read: CouchDB reserved id', 'GET', `/${TABLE}/_all_docs`, undefined, 'key'],
    ['read: design document path', 'GET', `/${TABLE}/_design%2Fx`, undefined, 'key'],
    ['read: encoded slash', 'GET', `/${TABLE}/a%2F..%2F_users`, undefined, 'key'],
    ['read: quote (CQL/SQL++ injection)', 'GET', `/${TABLE}/${encodeURIComponent("a' OR '1'='1")}`, undefined, 'key'],
    ['read: NUL byte', 'GET', `/${TABLE}/a%00b`, undefined, 'key'],
    ['read: CRLF (Redis protocol injection)', 'GET', `/${TABLE}/a%0D%0AFLUSHALL`, undefined, 'key'],
    ['read: key over 250 characters', 'GET', `/${TABLE}/${'k'.repeat(251)}`, undefined, 'key'],
    ['read: unknown field', 'GET', `${routes.read}?fields=field0,%24where`, undefined, 'fields'],
    ['read: repeated fields', 'GET', `${routes.read}?fields=field0&fields=field1`, undefined, 'fields'],
    ['read: unknown query parameter', 'GET', `${routes.read}?filter=%7B%7D`, undefined, 'filter'],
    ['read: invalid percent-encoding', 'GET', `/${TABLE}/%E0%A4%A`, undefined, 'path'],
    // PUT /table/:key
    ['update: $set as field name', 'PUT', routes.update, { $set: { field0: 'x' } }, '$set'],
    ['update: operator object as value', 'PUT', routes.update, { field0: { $gt: '' } }, 'field0'],
    ['update: number as value', 'PUT', routes.update, { field0: 1 }, 'field0'],
    ['update: unknown field', 'PUT', routes.update, { field0: 'x', _rev: '1-abc' }, '_rev'],
    ['update: array body', 'PUT', routes.update, [{ field0: 'x' }], 'body'],
    ['update: empty object', 'PUT', routes.update, {}, 'body'],
    ['update: invalid JSON', 'PUT', routes.update, '{"field0": ', 'body'],
    ['update: __proto__ poisoning', 'PUT', routes.update, '{"field0":"x","__proto__":{"admin":true}}', 'body'],
    [
      'update: constructor.prototype poisoning',
      'PUT',
      routes.update,
      '{"constructor":{"prototype":{"admin":true}}}',
      'body',
    ],
    [
      'update: operator object as key',
      'PUT',
      `/${TABLE}/${encodeURIComponent('{"$ne":null}')}`,
      { field0: 'x' },
      'key',
    ],
    ['update: query parameter', 'PUT', `${routes.update}?upsert=true`, { field0: 'x' }, 'upsert'],
    // DELETE /table/:key
    ['delete: $ operator key', 'DELETE', `/${TABLE}/%24ne`, undefined, 'key'],
    ['delete: wildcard key', 'DELETE', `/${TABLE}/*`, undefined, 'key'],
    ['delete: query parameter', 'DELETE', `${routes.remove}?all=true`, undefined, 'all'],
    // POST /table
    ['insert: operator object as key', 'POST', `/${TABLE}`, { key: { $gt: '' }, fields: { field0: 'x' } }, 'key'],
    ['insert: array as key', 'POST', `/${TABLE}`, { key: ['a', 'b'], fields: { field0: 'x' } }, 'key'],
    ['insert: key with a space', 'POST', `/${TABLE}`, { key: 'svc attack', fields: { field0: 'x' } }, 'key'],
    ['insert: missing fields', 'POST', `/${TABLE}`, { key: 'svcattack1' }, 'fields'],
    [
      'insert: unknown field',
      'POST',
      `/${TABLE}`,
      { key: 'svcattack2', fields: { field0: 'x', $where: '1' } },
      'fields.$where',
    ],
    ['insert: extra member', 'POST', `/${TABLE}`, { key: 'svcattack3', fields: { field0: 'x' }, _id: 'other' }, '_id'],
    [
      'insert: value object',
      'POST',
      `/${TABLE}`,
      { key: 'svcattack4', fields: { field0: { $ne: 1 } } },
      'fields.field0',
    ],
    ['insert: string body', 'POST', `/${TABLE}`, '"svcattack5"', 'body'],
    ['insert: text body', 'POST', `/${TABLE}`, 'svcattack6', 'body'],
    // GET /table?start=&count=
    ['scan: bracket operator', 'GET', `/${TABLE}?start[%24gt]=&count=5`, undefined, 'start'],
    ['scan: repeated start', 'GET', `/${TABLE}?start=a&start=b&count=5`, undefined, 'start'],
    ['scan: $ in start', 'GET', `/${TABLE}?start=%24gt&count=5`, undefined, 'start'],
    ['scan: count not a number', 'GET', `/${TABLE}?start=a&count=5%3B%20DROP%20TABLE%20x`, undefined, 'count'],
    ['scan: negative count', 'GET', `/${TABLE}?start=a&count=-1`, undefined, 'count'],
    ['scan: count over maxscanlength', 'GET', `/${TABLE}?start=a&count=21`, undefined, 'count'],
    ['scan: missing count', 'GET', `/${TABLE}?start=a`, undefined, 'count'],
    ['scan: unknown parameter', 'GET', `/${TABLE}?start=a&count=5&sort=-1`, undefined, 'sort'],
  ];
}

/** Keys some attack names in an otherwise plausible request: none may exist afterwards. */
const ATTACK_KEYS = [
  'svcattack1',
  'svcattack2',
  'svcattack3',
  'svcattack4',
  'svcattack5',
  'svcattack6',
  'other',
  '$ne',
  '$gt',
];

for (const storeName of STORES) {
  describe(`docbench serve on ${storeName}: YCSB routes and their safety`, { timeout: 300_000 }, () => {
    const keys = [0, 1, 2, 3].map((i) => `svcsec-${storeName}-${i}`);
    const fresh = `svcsec-${storeName}-new`;
    let open: OpenStore;
    let service: ServiceProcess;

    const snapshot = async () => Promise.all(keys.map((key) => open.store.read(TABLE, key, null)));

    before(async () => {
      open = await openStore(storeName, undefined, requestOf(loadWorkload(['workloada'], SETTINGS).properties));
      const schema = { table: TABLE, fieldNames: FIELDS };
      await open.store.drop(schema);
      await open.store.prepare(schema);
      for (const key of [...keys, fresh, ...ATTACK_KEYS]) await open.store.delete(TABLE, key).catch(() => false);
      for (const key of keys) await open.store.insert(TABLE, key, recordOf(key));
      service = await startServiceProcess([
        '--store',
        storeName,
        '--port',
        '0',
        '--scenario',
        'ycsb',
        ...SETTINGS.flatMap((p) => ['-p', p]),
      ]);
    });

    after(async () => {
      const code = await service?.stop();
      assert.equal(code, 0, `graceful exit on SIGTERM (stderr: ${service?.stderr()})`);
      if (!open) return;
      for (const key of [...keys, fresh]) await open.store.delete(TABLE, key).catch(() => false);
      await open.store.drop({ table: TABLE, fieldNames: FIELDS });
      await open.store.close();
    });

    it('listens on 127.0.0.1 and serves read, update, insert, delete and scan', async () => {
      const base = service.baseUrl;
      assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual((await request(base, 'GET', `/${TABLE}/${keys[0]}`)).body, {
        key: keys[0],
        fields: recordOf(keys[0]!),
      });
      assert.deepEqual((await request(base, 'GET', `/${TABLE}/${keys[0]}?fields=field1`)).body, {
        key: keys[0],
        fields: { field1: `${keys[0]}:field1` },
      });
      assert.equal((await request(base, 'GET', `/${TABLE}/svcsec-${storeName}-missing`)).status, 404);

      assert.equal((await request(base, 'POST', `/${TABLE}`, { key: fresh, fields: recordOf(fresh) })).status, 201);
      assert.equal((await request(base, 'PUT', `/${TABLE}/${fresh}`, { field2: 'changed' })).status, 204);
      assert.deepEqual((await request(base, 'GET', `/${TABLE}/${fresh}`)).body, {
        key: fresh,
        fields: { ...recordOf(fresh), field2: 'changed' },
      });
      assert.equal((await request(base, 'DELETE', `/${TABLE}/${fresh}`)).status, 204);
      assert.equal((await request(base, 'GET', `/${TABLE}/${fresh}`)).status, 404);

      const scan = await request(base, 'GET', `/${TABLE}?start=${keys[1]}&count=2&fields=field0`);
      if (SCAN_UNSUPPORTED.has(storeName)) {
        assert.equal(scan.status, 501, JSON.stringify(scan.body));
        assert.equal(scan.body!.error, 'unsupported');
      } else {
        assert.equal(scan.status, 200, JSON.stringify(scan.body));
        assert.deepEqual(scan.body, {
          records: [keys[1], keys[2]].map((key) => ({ key, fields: { field0: `${key}:field0` } })),
        });
      }
    });

    it('answers 400 naming the parameter to every malformed or injection payload, and leaves the data untouched', async () => {
      const before = await snapshot();
      assert.deepEqual(before, keys.map(recordOf));
      for (const [what, method, path, body, parameter] of attacks(keys[0]!)) {
        const r = await request(
          service.baseUrl,
          method,
          path,
          body,
          what.endsWith('text body') ? 'text/plain' : 'application/json',
        );
        assert.equal(r.status, 400, `${what}: ${method} ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
        assert.equal(r.body!.parameter, parameter, `${what}: ${JSON.stringify(r.body)}`);
        assert.match(String(r.body!.message), /\S/, what);
      }
      assert.deepEqual(await snapshot(), before, 'records unchanged');
      for (const key of ATTACK_KEYS) assert.equal(await open.store.read(TABLE, key, null), null, `no record ${key}`);
      // Every attack was counted as a 400 on its route, none reached a store error.
      const stats = (await request(service.baseUrl, 'GET', '/_docbench/stats')).body as {
        routes: Record<string, { statuses: Record<string, number> }>;
      };
      for (const [route, s] of Object.entries(stats.routes))
        assert.equal(s.statuses['500'], undefined, `${route}: ${JSON.stringify(s.statuses)}`);
    });

    it('refuses a body over the limit with 413 naming the body', async () => {
      const r = await requestOversized(service.baseUrl, 'PUT', `/${TABLE}/${keys[0]}`, 1100 * 1024);
      assert.equal(r.status, 413);
      assert.equal(r.body!.parameter, 'body');
      assert.deepEqual(await open.store.read(TABLE, keys[0]!, null), recordOf(keys[0]!));
    });
  });
}

/** A target without SQL++ (the local Couchbase stand-in) answers queries with 501. */
function hasQueries(open: OpenStore): boolean {
  return !(open.store instanceof CouchbaseStore) || open.store.handle.capabilities().query;
}

const PERSONS_COLLECTION = 'svc_persons';
const PERSONS_SIZE = 300;

for (const storeName of STORES) {
  describe(
    `docbench serve on ${storeName}: e-commerce and persons routes and their safety`,
    { timeout: 300_000 },
    () => {
      let open: OpenStore;
      let service: ServiceProcess;
      let ecommerce = false;
      let oracle: EcommerceOracle;
      const dataset = { seed: 1, customers: 300, ordersPerCustomer: 2 };
      const persons = {
        seed: 1337,
        size: PERSONS_SIZE,
        shape: 'flat' as const,
        indexes: false,
        batchSize: 100,
        concurrency: 2,
        repeat: 1,
      };

      before(async () => {
        open = await openStore(storeName, undefined, requestOf(loadWorkload(['workloada'], []).properties));
        // Every store has an e-commerce dialect: one that fails to load must fail this test, not skip it.
        ecommerce = ECOMMERCE_DIALECTS.runsOn(storeName);
        if (ecommerce) await ECOMMERCE_DIALECTS.create(open.store, {});
        if (ecommerce) {
          await seedEcommerce({
            store: open.store,
            dataset,
            batchSize: 100,
            concurrency: 2,
            progress: false,
            label: 'svc test',
          });
          oracle = new EcommerceOracle(dataset);
        }
        await seedPersons(open, persons, { progress: false, collection: PERSONS_COLLECTION });
        const scenarios = ecommerce ? 'ecommerce,persons' : 'persons';
        service = await startServiceProcess([
          '--store',
          storeName,
          '--port',
          '0',
          '--scenario',
          scenarios,
          '-p',
          `persons.collection=${PERSONS_COLLECTION}`,
          '-p',
          `persons.size=${PERSONS_SIZE}`,
        ]);
      });

      after(async () => {
        const code = await service?.stop();
        assert.equal(code, 0, `graceful exit (stderr: ${service?.stderr()})`);
        if (!open) return;
        const dialect = await PERSONS_DIALECTS.create(open.store, {
          shape: 'flat',
          indexes: false,
          size: PERSONS_SIZE,
          collection: PERSONS_COLLECTION,
        });
        await dialect.drop();
        await dialect.close?.();
        await open.store.close();
      });

      /** A page and a sales report the oracle knows, to compare before and after the attacks. */
      const sample = async () => {
        const chooser = new ParameterChooser(dataset, new Random(7), {
          maxoffset: 2,
          minlimit: 5,
          maxlimit: 10,
          requestdistribution: 'uniform',
        });
        const page = chooser.page();
        const sales = chooser.join();
        return {
          page,
          sales,
          gotPage: await request(
            service.baseUrl,
            'GET',
            `/customers?country=${encodeURIComponent(page.country)}&offset=${page.offset}&limit=${page.limit}`,
          ),
          gotSales: await request(service.baseUrl, 'GET', `/reports/sales?zip=${sales.zip}&month=${sales.month}`),
        };
      };

      it('e-commerce: pages of customers and sales reports, as the oracle says', async (t) => {
        if (!ecommerce) return t.skip(`the e-commerce scenario does not run on ${storeName} (its registry says why)`);
        const { page, sales, gotPage, gotSales } = await sample();
        if (!hasQueries(open)) {
          // The KV-only stand-in: both routes say so, never an empty success.
          for (const r of [gotPage, gotSales]) {
            assert.equal(r.status, 501, JSON.stringify(r.body));
            assert.equal(r.body!.error, 'unsupported');
          }
          return;
        }
        assert.equal(gotPage.status, 200, JSON.stringify(gotPage.body));
        assert.deepEqual(gotPage.body!.ids, oracle.page(page));
        assert.ok((gotPage.body!.ids as string[]).length > 0, 'a non-empty page');
        assert.equal(gotSales.status, 200, JSON.stringify(gotSales.body));
        assert.equal(oracle.checkJoin(sales, gotSales.body!.rows as JoinRow[]), undefined);
        const unknownVariant = await request(
          service.baseUrl,
          'GET',
          '/customers?country=Germany&limit=5&variant=nosuch',
        );
        assert.equal(unknownVariant.status, 400);
        assert.equal(unknownVariant.body!.parameter, 'variant');
      });

      it('e-commerce: 400 naming the parameter to every malformed or injection payload, answers unchanged', async (t) => {
        if (!ecommerce) return t.skip(`the e-commerce scenario does not run on ${storeName} (its registry says why)`);
        const before = await sample();
        const cases: [string, string, string][] = [
          ['operator object as country', '/customers?country[%24ne]=x&limit=5', 'country'],
          ['unknown country', '/customers?country=Atlantis&limit=5', 'country'],
          [
            'quote injection in country',
            `/customers?country=${encodeURIComponent("Germany' OR '1'='1")}&limit=5`,
            'country',
          ],
          ['repeated country', '/customers?country=Germany&country=France&limit=5', 'country'],
          ['missing limit', '/customers?country=Germany', 'limit'],
          ['limit zero', '/customers?country=Germany&limit=0', 'limit'],
          ['limit over the bound', '/customers?country=Germany&limit=1001', 'limit'],
          ['negative offset', '/customers?country=Germany&offset=-1&limit=5', 'offset'],
          ['offset over the bound', '/customers?country=Germany&offset=10001&limit=5', 'offset'],
          [
            'offset as an expression',
            '/customers?country=Germany&offset=1%3B%20DROP%20TABLE%20customers&limit=5',
            'offset',
          ],
          ['unknown query parameter', '/customers?country=Germany&limit=5&sort=%7B%22%24natural%22%3A-1%7D', 'sort'],
          ['variant too long', `/customers?country=Germany&limit=5&variant=${'v'.repeat(65)}`, 'variant'],
          ['zip wildcard', '/reports/sales?zip=*&month=1', 'zip'],
          ['zip operator object', `/reports/sales?zip=${encodeURIComponent('{"$gt":""}')}&month=1`, 'zip'],
          ['zip bracket operator', '/reports/sales?zip[%24gt]=&month=1', 'zip'],
          ['zip too long', `/reports/sales?zip=${'1'.repeat(13)}&month=1`, 'zip'],
          ['month 13', '/reports/sales?zip=10007&month=13', 'month'],
          ['month 0', '/reports/sales?zip=10007&month=0', 'month'],
          ['month fraction', '/reports/sales?zip=10007&month=1.5', 'month'],
          ['month missing', '/reports/sales?zip=10007', 'month'],
          ['unknown report parameter', '/reports/sales?zip=10007&month=1&group=%24zip', 'group'],
          ['parameters: unknown kind', '/_docbench/ecommerce/parameters?kind=%24where&stream=0&count=1', 'kind'],
          [
            'parameters: block too big',
            '/_docbench/ecommerce/parameters?kind=pagination&stream=0&count=10001',
            'count',
          ],
          ['parameters: negative stream', '/_docbench/ecommerce/parameters?kind=join&stream=-1&count=1', 'stream'],
        ];
        for (const [what, path, parameter] of cases) {
          const r = await request(service.baseUrl, 'GET', path);
          assert.equal(r.status, 400, `${what}: ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
          assert.equal(r.body!.parameter, parameter, `${what}: ${JSON.stringify(r.body)}`);
        }
        for (const [method, path] of [
          ['POST', '/customers'],
          ['DELETE', '/customers'],
          ['PUT', '/reports/sales'],
        ] as const) {
          assert.equal((await request(service.baseUrl, method, path, {})).status, 404, `${method} ${path} is no route`);
        }
        const afterwards = await sample();
        assert.deepEqual(afterwards.gotPage.body, before.gotPage.body);
        assert.deepEqual(afterwards.gotSales.body, before.gotSales.body);
        if (hasQueries(open))
          assert.equal(
            oracle.checkPage(before.page, afterwards.gotPage.body!.ids as string[]),
            undefined,
            'the data is still the seeded data',
          );
      });

      it('persons: the thesis queries answer as the oracle says (or 501 where the target cannot run them), and refuse bad input with 400', async () => {
        const expected = expectedAnswers({ seed: persons.seed, size: PERSONS_SIZE, shape: 'flat' });
        const q1 = await request(service.baseUrl, 'GET', '/persons?q=1&nested=false');
        if (q1.status === 501) {
          assert.equal(q1.body!.error, 'unsupported');
        } else {
          assert.equal(q1.status, 200, JSON.stringify(q1.body).slice(0, 300));
          assert.equal(q1.body!.count, expected.get('Q1')!.count);
          // The ids and the bodies' checksum, as the oracle says.
          assert.deepEqual({ ...summarizeIds(q1.body!.ids as string[]), bodies: q1.body!.bodies }, expected.get('Q1'));
          const q4 = await request(service.baseUrl, 'GET', '/persons?q=Q4');
          assert.deepEqual({ ...summarizeIds(q4.body!.ids as string[]), bodies: q4.body!.bodies }, expected.get('Q4'));
        }
        const cases: [string, string, string][] = [
          ['query 6', '/persons?q=6', 'q'],
          ['query 0', '/persons?q=0', 'q'],
          ['query as an expression', `/persons?q=${encodeURIComponent('1 || this.salary > 0')}`, 'q'],
          ['query as an operator object', '/persons?q[%24where]=1', 'q'],
          ['repeated query', '/persons?q=1&q=2', 'q'],
          ['nested not a boolean', '/persons?q=1&nested=yes', 'nested'],
          ['unknown parameter', '/persons?q=1&filter=%7B%22salary%22%3A%7B%22%24gt%22%3A0%7D%7D', 'filter'],
          ['unknown variant', '/persons?q=1&variant=nosuch', 'variant'],
        ];
        for (const [what, path, parameter] of cases) {
          const r = await request(service.baseUrl, 'GET', path);
          assert.equal(r.status, 400, `${what}: ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
          assert.equal(r.body!.parameter, parameter, `${what}: ${JSON.stringify(r.body)}`);
        }
        if (q1.status === 200)
          assert.deepEqual((await request(service.baseUrl, 'GET', '/persons?q=1')).body, q1.body, 'answers unchanged');
      });
    },
  );
}

describe('docbench serve when the store is unreachable', { timeout: 300_000 }, () => {
  for (const storeName of STORES) {
    it(`${storeName}: starts anyway, answers 503 with Retry-After on every route and on health`, async () => {
      const port = await freePort();
      const service = await startServiceProcess([
        '--store',
        storeName,
        '--url',
        await localUrlAt(storeName, port),
        '--port',
        '0',
        '--scenario',
        'ycsb',
      ]);
      try {
        for (const [method, path, body] of [
          ['GET', '/usertable/user1', undefined],
          ['PUT', '/usertable/user1', { field0: 'x' }],
          ['POST', '/usertable', { key: 'user1', fields: { field0: 'x' } }],
          ['DELETE', '/usertable/user1', undefined],
          ['GET', '/usertable?start=user1&count=5', undefined],
          ['GET', '/_docbench/health', undefined],
        ] as const) {
          const r = await request(service.baseUrl, method, path, body);
          assert.equal(r.status, 503, `${method} ${path}: ${JSON.stringify(r.body)}`);
          assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
          assert.ok(Number(r.body!.retryAfterSeconds) >= 1);
        }
        // Validation still comes first: a bad request is a 400 whatever the store's state.
        assert.equal((await request(service.baseUrl, 'GET', '/usertable/%24gt')).status, 400);
        assert.match(service.stderr(), new RegExp(`store unreachable: cannot reach ${storeName}`));
        assert.doesNotMatch(service.stderr(), /\n\s+at /, 'no stack traces');
      } finally {
        assert.equal(await service.stop(), 0);
      }
    });
  }

  it('redis: a store that goes away mid-run gets 503, and the service recovers when it returns', async (t) => {
    if (spawnSync('redis-server', ['--version']).status !== 0) return t.skip('redis-server is not on PATH');
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'docbench-svc-redis-'));
    const startRedis = (): ChildProcess =>
      spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: 'ignore' },
      );
    let redis = startRedis();
    const service = await startServiceProcess([
      '--store',
      'redis',
      '--url',
      `redis://127.0.0.1:${port}`,
      '--port',
      '0',
      '--scenario',
      'ycsb',
    ]);
    try {
      const base = service.baseUrl;
      await waitFor(async () => (await request(base, 'GET', '/_docbench/health')).status === 200, 'the store');
      assert.equal((await request(base, 'POST', '/usertable', { key: 'user1', fields: { field0: 'a' } })).status, 201);

      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      const down = await request(base, 'GET', '/usertable/user1');
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.ok(Number(down.headers.get('retry-after')) >= 1);
      assert.equal((await request(base, 'GET', '/_docbench/health')).status, 503);

      redis = startRedis();
      await waitFor(
        async () => (await request(base, 'GET', '/usertable/user1')).status === 404,
        'recovery (the new server is empty: 404)',
      );
      assert.equal((await request(base, 'POST', '/usertable', { key: 'user2', fields: { field0: 'b' } })).status, 201);
      assert.deepEqual((await request(base, 'GET', '/usertable/user2')).body, {
        key: 'user2',
        fields: { field0: 'b' },
      });
      assert.match(service.stderr(), /store unreachable/);
      assert.match(service.stderr(), /store reachable again: serving/);
    } finally {
      assert.equal(await service.stop(), 0);
      redis.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docbench serve: shutdown, workers, arguments', { timeout: 120_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: requests in flight finish, then the process exits 0`, async () => {
      // BasicDB with a delay: each call takes up to 400 ms, so requests are in flight when the signal arrives.
      // basic.verbose prints each operation as the store starts it: the signal goes once all three
      // requests have reached the store (a fixed sleep raced them on a loaded machine).
      const service = await startServiceProcess([
        '--store',
        'basic',
        '--port',
        '0',
        '-p',
        'basic.simulatedelay=400',
        '-p',
        'basic.verbose=true',
      ]);
      const inFlight = Promise.all([1, 2, 3].map(() => request(service.baseUrl, 'GET', '/usertable/user1')));
      await waitFor(
        () => (service.stderr().match(/^read usertable user1/gm) ?? []).length === 3,
        'three requests at the store',
      );
      const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
      service.child.kill(signal);
      const answers = await inFlight;
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200],
      );
      assert.equal(await exited, 0);
      assert.match(service.stderr(), new RegExp(`${signal}: finishing requests in flight`));
      await assert.rejects(fetch(`${service.baseUrl}/_docbench/health`), 'no longer listening');
    });
  }

  it('--workers 2: one port, stats summed over the workers, graceful exit', async () => {
    const service = await startServiceProcess([
      '--store',
      'basic',
      '--port',
      '0',
      '--workers',
      '2',
      '-p',
      'basic.store=true',
    ]);
    try {
      for (let i = 0; i < 20; i++)
        assert.equal((await request(service.baseUrl, 'GET', `/usertable/user${i}`)).status, 404);
      const stats = (await request(service.baseUrl, 'GET', '/_docbench/stats')).body as {
        workers: number;
        requests: number;
        processes: unknown[];
        cpuUserUs: number;
      };
      assert.equal(stats.workers, 2);
      assert.equal(stats.requests, 20);
      assert.equal(stats.processes.length, 3, 'the primary and two workers');
      assert.ok(stats.cpuUserUs > 0);
      const info = (await request(service.baseUrl, 'GET', '/_docbench/info')).body as { service: { workers: number } };
      assert.equal(info.service.workers, 2);
    } finally {
      assert.equal(await service.stop(), 0, service.stderr());
    }
  });

  /** Where each store with a pool of its own reports its size (its stats, in /_docbench/info). */
  const POOL_SETTING: Partial<Record<string, string>> = {
    mongodb: 'mongodb.maxPoolSize',
    couchdb: 'couchdb.maxsockets',
  };
  for (const storeName of STORES.filter((s) => POOL_SETTING[s] !== undefined)) {
    it(`--pool reaches ${storeName}'s own pool, and the service says what it runs with`, async () => {
      const service = await startServiceProcess([
        '--store',
        storeName,
        '--port',
        '0',
        '--scenario',
        'ycsb',
        '--pool',
        '7',
      ]);
      try {
        await waitFor(
          async () => (await request(service.baseUrl, 'GET', '/_docbench/health')).status === 200,
          'the store',
        );
        const info = (await request(service.baseUrl, 'GET', '/_docbench/info')).body as {
          service: { pool: number };
          store: { extra: Record<string, unknown> };
        };
        assert.equal(info.service.pool, 7);
        assert.equal(info.store.extra[POOL_SETTING[storeName]!], 7, JSON.stringify(info.store.extra));
      } finally {
        assert.equal(await service.stop(), 0);
      }
    });
  }

  it('a token from the environment: 401 without it on every route but health, served with it', async () => {
    const token = 'svc-test-0123456789abcdef0123456789abcdef';
    const service = await startServiceProcess(['--store', 'basic', '--port', '0', '-p', 'basic.store=true'], {
      env: { ...process.env, DOCBENCH_TOKEN: token },
    });
    try {
      for (const path of ['/usertable/user1', '/_docbench/info', '/_docbench/stats']) {
        const r = await request(service.baseUrl, 'GET', path);
        assert.equal(r.status, 401, path);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="docbench"');
      }
      assert.equal((await request(service.baseUrl, 'GET', '/_docbench/health')).status, 200);
      const answer = await fetch(`${service.baseUrl}/usertable/user1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(answer.status, 404, 'served: no such record');
    } finally {
      assert.equal(await service.stop(), 0);
    }
  });

  const docbench = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin', 'docbench.js'), ...args], { encoding: 'utf8', timeout: 60_000 });

  it('a port in use gets one line naming --port, with one worker or several', async () => {
    const taken = await startServiceProcess(['--store', 'basic', '--port', '0']);
    try {
      const port = new URL(taken.baseUrl).port;
      for (const workers of ['1', '2']) {
        const r = docbench('serve', '--store', 'basic', '--port', port, '--workers', workers);
        assert.equal(r.status, 2, r.stderr);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.match(
          r.stderr,
          new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use \\(choose another with --port`),
        );
      }
    } finally {
      assert.equal(await taken.stop(), 0);
    }
  });

  for (const [what, args, pattern] of [
    ['unknown store', ['serve', '--store', 'nosuch'], /unknown store "nosuch"/],
    ['bad port', ['serve', '--store', 'basic', '--port', '70000'], /--port expects 0 … 65535/],
    ['bad workers', ['serve', '--store', 'basic', '--workers', 'all'], /--workers expects a whole number/],
    [
      'unknown scenario',
      ['serve', '--store', 'basic', '--scenario', 'shop'],
      /--scenario expects some of ycsb, ecommerce, persons/,
    ],
    [
      'scenario the store has no code for',
      ['serve', '--store', 'basic', '--scenario', 'ecommerce'],
      /the ecommerce scenario does not run on basic/,
    ],
    [
      'scenario setting for a scenario not served',
      ['serve', '--store', 'basic', '-p', 'ecommerce.maxlimit=5'],
      /the ecommerce scenario is not served/,
    ],
    ['unknown workload property', ['serve', '--store', 'basic', '-p', 'recordcont=5'], /unknown property "recordcont"/],
    [
      'a host other than loopback without a token',
      ['serve', '--store', 'basic', '--host', '0.0.0.0'],
      /--host 0\.0\.0\.0: anyone who reaches this address could read, write and delete through the service; give it a token/,
    ],
    [
      'a short token',
      ['serve', '--store', 'basic', '--token', 'secret'],
      /--token: the token must be at least 32 visible ASCII characters/,
    ],
    ['bad pool', ['serve', '--store', 'basic', '--pool', '0'], /--pool expects a whole number/],
    ['k6: unknown script', ['k6', 'nosuchscript', '--store', 'basic'], /k6 script nosuchscript not found/],
    [
      'k6: --out with two stores',
      ['k6', 'ycsb-a', '--store', 'basic,redis', '--out', join(tmpdir(), 'x.json')],
      /--out takes one result/,
    ],
    ['k6: unknown store', ['k6', 'ycsb-a', '--store', 'redis,nosuch'], /--store: unknown store "nosuch"/],
    [
      'k6: --direct for a scenario script',
      ['k6', 'pagination', '--store', 'redis', '--direct'],
      /--direct compares YCSB workloads/,
    ],
    [
      'k6: seeding option of another scenario',
      ['k6', 'ycsb-a', '--store', 'redis', '--customers', '10'],
      /--customers is the ecommerce scenario's; ycsb-a.ts drives ycsb/,
    ],
    [
      'k6: bad k6 setting',
      ['k6', 'ycsb-a', '--store', 'redis', '-e', 'not a setting'],
      /--k6-env not a setting: expected NAME=value/,
    ],
  ] as const) {
    it(`bad input gets one line and exit code 2: ${what}`, () => assertUserError(runDocbench(args), pattern));
  }
});
