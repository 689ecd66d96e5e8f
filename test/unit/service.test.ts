import { fileURLToPath } from 'node:url';
/**
 * The HTTP service without a server: its routes through Fastify's inject() on an in-memory store
 * (YCSB's BasicDB keeping records), the parameter validation and field lists, the store gate (503
 * and recovery, 409 for write conflicts), the bearer token, the YCSB plan blocks, the stats, and
 * the pure parts of the k6 side (settings and ramps, thresholds, the result conversion from
 * handleSummary's data and from k6's summary export, the k6 command's mapping of YCSB's load shape).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { scenarioOfScript, workloadOfScript } from '../../src/cli/k6-run.ts';
import { completeResult, k6Environment } from '../../src/client/k6-process.ts';
import { renderModeComparison } from '../../src/report/mode-comparison.ts';
import { describeMachine } from '../../src/results/machine.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { buildApp, oneLine, type ServiceInfo } from '../../src/service/app.ts';
import { checkToken } from '../../src/service/auth.ts';
import { drawPlan, planLines, planText, unplannable } from '../../src/service/ycsb-plan.ts';
import { registerPlanRoute } from '../../src/service/ycsb-plan-route.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { Random } from '../../src/workload/random.ts';
import { isConflict } from '../../src/service/conflicts.ts';
import { CpuSampler, processCpu } from '../../src/measure/process-cpu.ts';
import { splitScenarioSettings } from '../../src/service/scenarios.ts';
import { tableLayout } from '../../src/service/server.ts';
import { combineStats, RequestCounter } from '../../src/service/stats.ts';
import { StoreGate } from '../../src/service/store-gate.ts';
import { keySchema, parseParameters, ValidationError, ycsbSchemas } from '../../src/service/validation.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import { UnsupportedError, type Store } from '../../src/stores/store.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { burnCpu, cpuMsSince } from '../support/cpu.ts';
import { elapse, waitFor } from '../support/wait.ts';
import {
  CONFLICTS_METRIC,
  failedMetricName,
  okLatencyMetric,
  statusMetricName,
  SERVICE_CPU_METRIC,
  SERVICE_REQUESTS_METRIC,
  statusOfHttp,
} from '../../k6/lib/metric-names.ts';
import { scriptOptions } from '../../k6/lib/options.ts';
import {
  durationSeconds,
  loadSettings,
  maxVusOf,
  maxVusOfScenario,
  scenarioFor,
  scheduledIterations,
} from '../../k6/lib/settings.ts';
import {
  CLIENT_CPU_NOT_MEASURED,
  fromSummaryExport,
  loadShape,
  renderThresholds,
  toResult,
  type SummaryData,
  type SummarySetup,
} from '../../k6/lib/summary.ts';

const properties = loadWorkload(['workloada'], ['fieldcount=3', 'maxscanlength=50']).properties;
const layout = tableLayout(properties);

/** An app on BasicDB keeping records, optionally with a store that fails or throws UnsupportedError. */
async function appOn(
  options: {
    store?: Store;
    open?: () => Promise<Store>;
    bodyLimitBytes?: number;
    token?: string;
    probe?: (s: Store) => Promise<unknown>;
  } = {},
) {
  const store =
    options.store ?? createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
  const gate = new StoreGate({
    open: options.open ?? (async () => store),
    probe: options.probe ?? ((s) => s.read(layout.table, 'probe', null)),
    retryIntervalMs: 50,
    log: () => {},
  });
  await gate.start();
  const counter = new RequestCounter();
  const app = buildApp({
    gate,
    layout,
    bodyLimitBytes: options.bodyLimitBytes ?? 64 * 1024,
    counter,
    stats: async () => combineStats([counter.snapshot()], 1),
    info: async () => ({}) as ServiceInfo,
    log: () => {},
    token: options.token ?? null,
  });
  await app.ready();
  return { app, gate, store, counter };
}

async function call(
  app: FastifyInstance,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const raw = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
  const response = await app.inject({
    method,
    url,
    ...(raw !== undefined
      ? { payload: raw, headers: { 'content-type': 'application/json', ...headers } }
      : { headers }),
  });
  const text = response.body;
  return {
    status: response.statusCode,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

describe('service: YCSB routes', () => {
  it('insert, read (all and some fields), update, scan, delete, with REST status codes', async () => {
    const { app } = await appOn();
    const fields = { field0: 'a', field1: 'b', field2: 'c' };
    const created = await call(app, 'POST', '/usertable', { key: 'user1', fields });
    assert.equal(created.status, 201);
    assert.equal(created.headers.location, '/usertable/user1');
    await call(app, 'POST', '/usertable', { key: 'user2', fields });
    assert.deepEqual((await call(app, 'GET', '/usertable/user1')).body, { key: 'user1', fields });
    assert.deepEqual((await call(app, 'GET', '/usertable/user1?fields=field1,field2')).body, {
      key: 'user1',
      fields: { field1: 'b', field2: 'c' },
    });
    assert.equal((await call(app, 'PUT', '/usertable/user1', { field0: 'z' })).status, 204);
    assert.equal(((await call(app, 'GET', '/usertable/user1')).body!.fields as Record<string, string>).field0, 'z');
    const scan = await call(app, 'GET', '/usertable?start=user1&count=5&fields=field0');
    assert.deepEqual(scan.body, {
      records: [
        { key: 'user1', fields: { field0: 'z' } },
        { key: 'user2', fields: { field0: 'a' } },
      ],
    });
    assert.equal((await call(app, 'DELETE', '/usertable/user1')).status, 204);
    assert.deepEqual((await call(app, 'GET', '/usertable/user1')).body, { error: 'not found', key: 'user1' });
    assert.equal((await call(app, 'GET', '/usertable/user1')).status, 404);
    assert.equal((await call(app, 'DELETE', '/usertable/user1')).status, 404);
    assert.equal((await call(app, 'PUT', '/usertable/user1', { field0: 'x' })).status, 404);
    await app.close();
  });

  it('hands the store one field list per set of fields: de-duplicated, in the table order, all fields as null', async () => {
    const base = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
    const asked: (readonly string[] | null)[] = [];
    const recording: Store = Object.assign(Object.create(base) as Store, {
      read: async (table: string, key: string, fields: readonly string[] | null) => {
        asked.push(fields);
        return base.read(table, key, fields);
      },
      scan: async (table: string, start: string, count: number, fields: readonly string[] | null) => {
        asked.push(fields);
        return base.scan(table, start, count, fields);
      },
    });
    const { app } = await appOn({ store: recording });
    await base.insert('usertable', 'user1', { field0: 'a', field1: 'b', field2: 'c' });
    for (const query of ['field2,field0', 'field0,field2,field0', 'field0,field2']) {
      assert.deepEqual(
        (await call(app, 'GET', `/usertable/user1?fields=${query}`)).body,
        { key: 'user1', fields: { field0: 'a', field2: 'c' } },
        query,
      );
    }
    await call(app, 'GET', '/usertable/user1?fields=field2,field1,field0');
    await call(app, 'GET', '/usertable?start=user1&count=1&fields=field1,field1');
    assert.deepEqual(asked, [['field0', 'field2'], ['field0', 'field2'], ['field0', 'field2'], null, ['field1']]);
    const long = await call(app, 'GET', '/usertable/user1?fields=field0,field0,field0,field0');
    assert.equal(long.status, 400);
    assert.equal(long.body!.parameter, 'fields');
    assert.match(String(long.body!.message), /lists 4 names; usertable has 3 fields/);
    await app.close();
  });

  it('answers 400 naming the parameter for every kind of bad input, and leaves the data alone', async () => {
    const { app, store } = await appOn();
    await store.insert('usertable', 'user1', { field0: 'a', field1: 'b', field2: 'c' });
    const cases: [string, 'GET' | 'PUT' | 'POST' | 'DELETE', string, unknown, string][] = [
      ['operator object as insert key', 'POST', '/usertable', { key: { $gt: '' }, fields: { field0: 'x' } }, 'key'],
      ['operator object as field value', 'PUT', '/usertable/user1', { field0: { $set: 'x' } }, 'field0'],
      ['operator as field name', 'PUT', '/usertable/user1', { $set: { field0: 'x' } }, '$set'],
      ['array body', 'POST', '/usertable', [{ key: 'user9' }], 'body'],
      ['unknown body member', 'POST', '/usertable', { key: 'user9', fields: { field0: 'x' }, upsert: true }, 'upsert'],
      ['unknown field', 'POST', '/usertable', { key: 'user9', fields: { nofield: 'x' } }, 'fields.nofield'],
      ['empty update', 'PUT', '/usertable/user1', {}, 'body'],
      ['number value', 'PUT', '/usertable/user1', { field0: 1 }, 'field0'],
      ['operator-looking path key', 'GET', `/usertable/${encodeURIComponent('{"$gt":""}')}`, undefined, 'key'],
      ['$ in key', 'GET', '/usertable/%24where', undefined, 'key'],
      ['CouchDB reserved id', 'GET', '/usertable/_all_docs', undefined, 'key'],
      ['slash in key', 'DELETE', '/usertable/a%2Fb', undefined, 'key'],
      ['NUL in key', 'GET', '/usertable/a%00b', undefined, 'key'],
      ['key too long', 'GET', `/usertable/${'k'.repeat(251)}`, undefined, 'key'],
      ['bracket query (qs-style object)', 'GET', '/usertable?start[$gt]=&count=5', undefined, 'start'],
      ['repeated query parameter', 'GET', '/usertable?start=a&start=b&count=5', undefined, 'start'],
      ['count not a number', 'GET', '/usertable?start=a&count=ten', undefined, 'count'],
      ['count over maxscanlength', 'GET', '/usertable?start=a&count=51', undefined, 'count'],
      ['count zero', 'GET', '/usertable?start=a&count=0', undefined, 'count'],
      ['unknown fields', 'GET', '/usertable/user1?fields=field0,$where', undefined, 'fields'],
      ['unknown query parameter', 'DELETE', '/usertable/user1?cascade=true', undefined, 'cascade'],
      ['invalid JSON', 'POST', '/usertable', '{"key": "user9",', 'body'],
      [
        '__proto__ poisoning',
        'POST',
        '/usertable',
        '{"key":"user9","fields":{"field0":"x"},"__proto__":{"admin":true}}',
        'body',
      ],
      [
        'constructor.prototype poisoning',
        'PUT',
        '/usertable/user1',
        '{"constructor":{"prototype":{"admin":true}}}',
        'body',
      ],
      ['bad percent-encoding', 'GET', '/usertable/%E0%A4%A', undefined, 'path'],
    ];
    for (const [name, method, url, body, parameter] of cases) {
      const r = await call(app, method, url, body);
      assert.equal(r.status, 400, `${name}: status (${JSON.stringify(r.body)})`);
      assert.equal(r.body!.parameter, parameter, `${name}: parameter (${JSON.stringify(r.body)})`);
      assert.equal(typeof r.body!.message, 'string', name);
    }
    assert.deepEqual(await store.read('usertable', 'user1', null), { field0: 'a', field1: 'b', field2: 'c' });
    assert.equal(await store.read('usertable', 'user9', null), null);
    await app.close();
  });

  it('refuses a body over the limit (413) and a non-JSON content type (415)', async () => {
    const { app } = await appOn({ bodyLimitBytes: 1000 });
    const big = await call(app, 'PUT', '/usertable/user1', { field0: 'x'.repeat(2000) });
    assert.equal(big.status, 413);
    assert.equal(big.body!.parameter, 'body');
    const form = await app.inject({
      method: 'POST',
      url: '/usertable',
      payload: 'key=user1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.statusCode, 415);
    assert.equal(JSON.parse(form.body).parameter, 'body');
    await app.close();
  });

  it('answers 404 as JSON for an unknown route and does not count internal routes', async () => {
    const { app, counter } = await appOn();
    const r = await call(app, 'GET', '/nothing/here');
    assert.equal(r.status, 404);
    assert.match(String(r.body!.message), /not a route/);
    await call(app, 'GET', '/_docbench/health');
    await call(app, 'GET', '/_docbench/stats');
    const snapshot = counter.snapshot();
    assert.equal(snapshot.requests, 1);
    assert.deepEqual(snapshot.routes['(no route)'], { requests: 1, statuses: { '404': 1 } });
    await app.close();
  });

  it('answers 501 for what the store cannot do, never fake data', async () => {
    const base = createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 });
    const store: Store = Object.assign(Object.create(base) as Store, {
      scan: async () => {
        throw new UnsupportedError('SCAN', 'the stand-in has no query service');
      },
    });
    const { app } = await appOn({ store });
    const r = await call(app, 'GET', '/usertable?start=user1&count=5');
    assert.equal(r.status, 501);
    assert.equal(r.body!.error, 'unsupported');
    assert.match(String(r.body!.message), /SCAN is not supported/);
    await app.close();
  });

  it('answers 503 with Retry-After while the store is down, and serves again when it is back', async () => {
    let up = false;
    const store = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
    const open = async () => {
      if (!up) throw new Error('connect ECONNREFUSED 127.0.0.1:1\n    at a stack line');
      return store;
    };
    const { app, gate } = await appOn({ open });
    const down = await call(app, 'GET', '/usertable/user1');
    assert.equal(down.status, 503);
    assert.equal(down.headers['retry-after'], '1');
    assert.equal(down.body!.retryAfterSeconds, 1);
    assert.doesNotMatch(String(down.body!.message), /stack line/, 'one line, no stack');
    assert.equal((await call(app, 'GET', '/_docbench/health')).status, 503);
    up = true;
    // The gate retries every 50 ms in the background: wait for it to have reconnected.
    await waitFor(() => gate.up, 'the gate to reconnect');
    assert.equal((await call(app, 'GET', '/usertable/user1')).status, 404);
    assert.deepEqual((await call(app, 'GET', '/_docbench/health')).body, { store: 'up' });
    await app.close();
    await gate.close();
  });

  it('tells a failed call (500) from a store that went away (503)', async () => {
    let reachable = true;
    const base = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
    const failing: Store = Object.assign(Object.create(base) as Store, {
      read: async (table: string, key: string) => {
        if (!reachable) throw new Error('socket closed');
        if (key === 'boom') throw new Error('a store error\nwith a second line');
        return base.read(table, key, null);
      },
    });
    const { app, gate } = await appOn({
      store: failing,
      open: async () => {
        if (!reachable) throw new Error('ECONNREFUSED');
        return failing;
      },
    });
    const own = await call(app, 'GET', '/usertable/boom');
    // The probe that found the store up (for this call) did so before the answer came.
    const probedBy = performance.now();
    assert.equal(own.status, 500);
    assert.equal(own.body!.message, 'a store error');
    reachable = false;
    // That probe is trusted for a second (the gate's TRUST_UP_MS): let the second pass, by the clock.
    await elapse(1000, probedBy);
    assert.equal((await call(app, 'GET', '/usertable/user1')).status, 503);
    assert.equal(gate.up, false);
    await app.close();
    await gate.close();
  });

  it('replaces a client whose connection broke while the server stayed up', async () => {
    const base = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
    const dead: Store = Object.assign(Object.create(base) as Store, {
      read: async () => {
        throw new Error('Connection is closed.');
      },
    });
    let opened = 0;
    const { app, gate } = await appOn({
      store: dead,
      open: async () => (opened++ === 0 ? dead : base),
    });
    assert.equal((await call(app, 'GET', '/usertable/user1')).status, 500, 'the call that met the broken client fails');
    assert.equal(gate.current(), base, 'the fresh connection replaced the broken one');
    assert.equal((await call(app, 'GET', '/usertable/user1')).status, 404, 'and serves the next calls');
    await app.close();
    await gate.close();
  });

  it('answers a write conflict with 409 and no probe, whichever driver reported it', async () => {
    const base = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
    const couchbaseExists = Object.assign(new Error('document exists'), { name: 'DocumentExistsError' });
    const conflicts: [string, Error][] = [
      // nano: CouchDB's 409 on an insert of an existing id, and as the cause of the adapter's own message on update.
      ['CouchDB insert', Object.assign(new Error('Document update conflict.'), { statusCode: 409 })],
      [
        'CouchDB update',
        new Error('update of "user1" conflicted with a concurrent write', {
          cause: Object.assign(new Error('conflict'), { statusCode: 409 }),
        }),
      ],
      [
        'MongoDB duplicate key',
        Object.assign(new Error('E11000 duplicate key error collection: docbench.usertable index: _id_'), {
          name: 'MongoServerError',
          code: 11000,
        }),
      ],
      ['Couchbase insert', couchbaseExists],
      ['Couchbase CAS', Object.assign(new Error('cas mismatch'), { name: 'CasMismatchError' })],
    ];
    for (const [what, error] of conflicts) {
      let probes = 0;
      const conflicting: Store = Object.assign(Object.create(base) as Store, {
        insert: async () => {
          throw error;
        },
      });
      const { app, gate } = await appOn({ store: conflicting, probe: async () => probes++ });
      const answer = await call(app, 'POST', '/usertable', { key: 'user1', fields: { field0: 'a' } });
      assert.equal(answer.status, 409, `${what}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body!.error, 'conflict', what);
      assert.equal(probes, 0, `${what}: the store answered, so it is not probed`);
      await app.close();
      await gate.close();
    }
    // Any other error carrying a status stays a store error (500), not a conflict.
    assert.equal(isConflict(Object.assign(new Error('unauthorized'), { statusCode: 401 })), false);
    assert.equal(
      isConflict(Object.assign(new Error('x'), { code: 11000 })),
      false,
      'only MongoDB errors carry code 11000 as a duplicate key',
    );
  });
});

describe('service: YCSB plan blocks', () => {
  const planApp = async (workload: string, overrides: string[] = []) => {
    const p = loadWorkload([workload], ['fieldcount=3', 'maxscanlength=50', ...overrides]).properties;
    const counter = new RequestCounter();
    const store = createBasicStore({ url: 'basic://', settings: {}, concurrency: 1 });
    const gate = new StoreGate({
      open: async () => store,
      probe: async () => null,
      retryIntervalMs: 50,
      log: () => {},
    });
    await gate.start();
    const app = buildApp({
      gate,
      layout: tableLayout(p),
      bodyLimitBytes: 64 * 1024,
      counter,
      stats: async () => combineStats([counter.snapshot()], 1),
      info: async () => ({}) as ServiceInfo,
      log: () => {},
      extraRoutes: (instance) => registerPlanRoute(instance, { properties: p, counter }),
    });
    await app.ready();
    return { app, counter, gate, p };
  };

  it('draws a block of operations with the workload mix, as lines of text; its CPU is kept apart from the API', async () => {
    const { app, counter, gate, p } = await planApp('workloada', ['readallfields=false']);
    const answer = await app.inject({ method: 'GET', url: '/_docbench/ycsb/plan?stream=7&count=400' });
    assert.equal(answer.statusCode, 200);
    const { lines, count } = planLines(answer.body);
    assert.equal(count, 400);
    assert.equal(lines.length, 1 + 3 * 400);
    const ops = lines[0]!;
    assert.match(ops, /^[RU]{400}$/);
    const reads = [...ops].filter((o) => o === 'R').length;
    assert.ok(reads > 150 && reads < 250, `workload A is half reads: ${reads} of 400`);
    for (let i = 0; i < count; i++) {
      assert.match(lines[1 + i]!, /^user\d+$/, 'a key');
      if (ops[i] === 'R') {
        assert.match(lines[1 + count + i]!, /^\?fields=field[0-2]$/, 'one field read (readallfields=false)');
        assert.equal(lines[1 + 2 * count + i], '');
      } else {
        assert.equal(lines[1 + count + i], '');
        assert.deepEqual(Object.keys(JSON.parse(lines[1 + 2 * count + i]!) as object).length, 1, 'one field written');
      }
    }
    // The same stream draws the same block; another stream another one.
    assert.equal(
      (await app.inject({ method: 'GET', url: '/_docbench/ycsb/plan?stream=7&count=400' })).body,
      answer.body,
    );
    assert.notEqual(
      (await app.inject({ method: 'GET', url: '/_docbench/ycsb/plan?stream=8&count=400' })).body,
      answer.body,
    );
    const stats = counter.snapshot();
    assert.ok(stats.internalCpuUs > 0, 'drawing cost CPU, counted apart');
    assert.equal(stats.requests, 0, 'and no API request');
    assert.equal(
      (await app.inject({ method: 'GET', url: '/_docbench/ycsb/plan?stream=1&count=10001' })).statusCode,
      400,
    );
    assert.equal(unplannable(p), null);
    await app.close();
    await gate.close();
  });

  it('refuses a workload whose operations depend on earlier ones: inserts, or keys in sequence', async () => {
    const { app, gate, p } = await planApp('workloadd');
    const answer = await app.inject({ method: 'GET', url: '/_docbench/ycsb/plan?stream=1&count=10' });
    assert.equal(answer.statusCode, 409);
    assert.match(JSON.parse(answer.body).message, /it inserts/);
    assert.match(unplannable(p)!, /inserts/);
    assert.match(
      unplannable({ insertproportion: 0, requestdistribution: 'sequential', scanproportion: 0, scankeysonly: false })!,
      /in sequence/,
    );
    assert.match(
      unplannable({ insertproportion: 0, requestdistribution: 'zipfian', scanproportion: 0.95, scankeysonly: true })!,
      /keys only/,
    );
    await app.close();
    await gate.close();
  });

  it('scans and read-modify-writes carry what CoreWorkload drew for them', () => {
    const p = loadWorkload(
      ['workloade'],
      ['insertproportion=0', 'readmodifywriteproportion=0.05', 'scanproportion=0.95', 'maxscanlength=20'],
    ).properties;
    const { lines, count } = planLines(planText(drawPlan(new CoreWorkload(p, new Random(p.seed, 3)), 200)));
    for (let i = 0; i < count; i++) {
      const query = lines[1 + count + i]!;
      if (lines[0]![i] === 'S')
        assert.match(query, /^&count=([1-9]|1\d|20)$/, 'a scan length up to maxscanlength, all fields');
      else {
        assert.equal(lines[0]![i], 'M');
        assert.equal(query, '', 'a read of all fields');
        assert.equal(Object.keys(JSON.parse(lines[1 + 2 * count + i]!) as object).length, 1);
      }
    }
  });
});

describe('service: a bearer token', () => {
  const token = 'a'.repeat(32);
  it('refuses every request without it (401, WWW-Authenticate), info and stats included; health stays open', async () => {
    const { app, gate } = await appOn({ token });
    for (const [method, url] of [
      ['GET', '/usertable/user1'],
      ['POST', '/usertable'],
      ['DELETE', '/usertable/user1'],
      ['GET', '/_docbench/info'],
      ['GET', '/_docbench/stats'],
      ['GET', '/no/such/route'],
    ] as const) {
      const none = await call(app, method, url);
      assert.equal(none.status, 401, `${method} ${url} without a token`);
      assert.match(String(none.headers['www-authenticate']), /^Bearer realm="docbench"$/);
      const wrong = await call(app, method, url, undefined, { authorization: `Bearer ${'b'.repeat(32)}` });
      assert.equal(wrong.status, 401, `${method} ${url} with another token`);
      assert.match(String(wrong.headers['www-authenticate']), /error="invalid_token"/);
    }
    assert.equal(
      (await call(app, 'GET', '/usertable/user1', undefined, { authorization: `Basic ${token}` })).status,
      401,
      'not a bearer token',
    );
    assert.equal((await call(app, 'GET', '/_docbench/health')).status, 200);
    const auth = { authorization: `Bearer ${token}` };
    assert.equal((await call(app, 'POST', '/usertable', { key: 'user1', fields: { field0: 'a' } }, auth)).status, 201);
    assert.equal((await call(app, 'GET', '/usertable/user1', undefined, auth)).status, 200);
    assert.equal((await call(app, 'GET', '/_docbench/stats', undefined, auth)).status, 200);
    await app.close();
    await gate.close();
  });

  it('takes only a long token of visible characters', () => {
    assert.equal(checkToken('0123456789abcdef0123456789abcdef', '--token'), '0123456789abcdef0123456789abcdef');
    assert.throws(
      () => checkToken('secret', '--token'),
      /--token: the token must be at least 32 visible ASCII characters/,
    );
    assert.throws(() => checkToken(`${'a'.repeat(31)} b`, 'DOCBENCH_TOKEN'), /DOCBENCH_TOKEN: the token must be/);
  });
});

describe('service: validation', () => {
  it('accepts YCSB keys and refuses anything that is not a short plain string', () => {
    for (const ok of ['user1', 'user6284781860667377211', 'a', 'k'.repeat(250), 'a.b_c~d:e-f'])
      assert.equal(keySchema.safeParse(ok).success, true, ok);
    for (const bad of ['', '_design/x', '-x', 'a/b', 'a b', '$gt', 'k'.repeat(251), 'ü', { $gt: '' }, ['a'], 1, null])
      assert.equal(keySchema.safeParse(bad).success, false, JSON.stringify(bad));
  });

  it('names the first bad parameter, truncating what it echoes', () => {
    const s = ycsbSchemas(layout, 100);
    assert.throws(
      () => parseParameters(s.scanQuery, { start: 'a', count: '5', ['x'.repeat(100)]: '1' }, 'query'),
      (e: ValidationError) => e.parameter === `${'x'.repeat(40)}…` && e.location === 'query',
    );
    assert.throws(
      () => parseParameters(s.updateBody, { field0: 'x'.repeat(101) }, 'body'),
      (e: ValidationError) => e.parameter === 'field0' && /at most 100/.test(e.message),
    );
    assert.deepEqual(s.fieldList('field0,field2'), ['field0', 'field2']);
    assert.equal(s.fieldList(undefined), null);
    assert.throws(
      () => s.fieldList('field0,'),
      (e: ValidationError) => e.parameter === 'fields',
    );
  });

  it('takes the table name from the workload, refusing one that cannot be a path segment', () => {
    assert.deepEqual(layout, { table: 'usertable', fieldNames: ['field0', 'field1', 'field2'], maxScanLength: 50 });
    assert.throws(() => tableLayout(loadWorkload(['workloada'], ['table=a/b']).properties), /letters, digits and _/);
  });

  it('keeps error messages to one bounded line', () => {
    assert.equal(oneLine('first\nsecond'), 'first');
    assert.equal(oneLine('x'.repeat(400)).length, 301);
  });

  it('splits scenario settings from YCSB properties', () => {
    assert.deepEqual(
      splitScenarioSettings(['recordcount=10', 'ecommerce.maxlimit=50', 'persons.size=5000', 'redis.driver=ioredis']),
      {
        ycsb: ['recordcount=10', 'redis.driver=ioredis'],
        scenario: { ecommerce: ['maxlimit=50'], persons: ['size=5000'] },
      },
    );
  });
});

describe('service: stats', () => {
  it('counts requests by route pattern and status, and sums processes', () => {
    const a = new RequestCounter();
    a.record('GET /usertable/:key', 200);
    a.record('GET /usertable/:key', 404);
    const b = new RequestCounter();
    b.record('GET /usertable/:key', 200);
    const total = combineStats([a.snapshot(), b.snapshot()], 2);
    assert.equal(total.requests, 3);
    assert.deepEqual(total.routes['GET /usertable/:key'], { requests: 3, statuses: { '200': 2, '404': 1 } });
    assert.equal(total.workers, 2);
    assert.ok(total.cpuUserUs > 0);
  });

  it(
    'samples a process CPU and interpolates a window',
    { skip: process.platform !== 'linux' && 'reads /proc, on Linux only' },
    async () => {
      assert.ok(processCpu(process.pid) !== null);
      const before = process.cpuUsage();
      const from = Date.now();
      const sampler = new CpuSampler(process.pid, 20);
      // 100 ms of CPU, however long a loaded machine takes to give it, with turns of the event loop
      // between the chunks so the sampler may sample in between (how often it did is not asserted).
      for (let i = 0; i < 5; i++) {
        burnCpu(20);
        await new Promise((r) => setImmediate(r));
      }
      sampler.stop();
      const until = Date.now();
      const used = cpuMsSince(before);
      // The window starts before the first sample and ends after the last, so it is their difference.
      const cpu = sampler.between(from, until);
      assert.ok(cpu !== null, 'the samples cover the window');
      const total = cpu.userMs + cpu.systemMs;
      // /proc counts in clock ticks of 10 ms (USER_HZ), user and system each cut down to a whole
      // tick: a difference of two samples is within two ticks of the CPU really used between them,
      // which is at least what was burned and at most what the process used in all (getrusage).
      const TICKS_MS = 2 * 10;
      assert.ok(total > 100 - TICKS_MS, `burned 100 ms of CPU, sampled ${JSON.stringify(cpu)}`);
      assert.ok(total < used + TICKS_MS, `sampled ${total} ms, the process used ${used} ms in all`);
      // Interpolation inside the window: never negative, growing with the window, and additive.
      let previous = 0;
      for (let at = from + 1; at < until; at += Math.max(1, (until - from) / 20)) {
        const head = sampler.between(from, at)!;
        const tail = sampler.between(at, until)!;
        const headMs = head.userMs + head.systemMs;
        assert.ok(headMs >= previous - 1e-9 && tail.userMs >= 0 && tail.systemMs >= 0, `at ${at - from} ms`);
        assert.ok(
          Math.abs(headMs + tail.userMs + tail.systemMs - total) < 1e-6,
          `at ${at - from} ms: ${headMs} + ${tail.userMs + tail.systemMs} != ${total}`,
        );
        previous = headMs;
      }
      assert.equal(sampler.between(from - 60_000, until), null, 'a window the samples do not cover');
    },
  );
});

describe('k6 side: settings, result conversion, command mapping', () => {
  it('reads the load shape from the environment, naming a bad variable', () => {
    const s = loadSettings({});
    assert.deepEqual(scenarioFor(s), { executor: 'constant-vus', vus: 8, duration: '30s' });
    assert.deepEqual(scenarioFor(loadSettings({ VUS: '4', ITERATIONS: '100' })), {
      executor: 'shared-iterations',
      vus: 4,
      iterations: 100,
      maxDuration: '24h',
    });
    assert.deepEqual(scenarioFor(loadSettings({ VUS: '4', ITERATIONS: '100', DURATION: '5s' })), {
      executor: 'shared-iterations',
      vus: 4,
      iterations: 100,
      maxDuration: '5s',
    });
    const open = loadSettings({ MODEL: 'open', RATE: '500', DURATION: '10s', VUS: '10' });
    assert.deepEqual(scenarioFor(open), {
      executor: 'constant-arrival-rate',
      rate: 500,
      timeUnit: '1s',
      duration: '10s',
      preAllocatedVUs: 10,
      maxVUs: 40,
    });
    assert.equal(maxVusOf(open), 40);
    assert.equal(scheduledIterations(scenarioFor(open)), 5000);
    assert.throws(() => loadSettings({ MODEL: 'opened' }), /MODEL must be closed or open/);
    assert.throws(() => loadSettings({ MODEL: 'open' }), /needs RATE/);
    assert.throws(() => loadSettings({ VUS: '0' }), /VUS must be a whole number/);
    assert.throws(() => loadSettings({ DURATION: '10' }), /DURATION must be a k6 duration/);
    assert.throws(() => loadSettings({ BASE_URL: 'http://host/path' }), /BASE_URL must be/);
    assert.throws(() => loadSettings({ MAX_ERRORS: '-1' }), /MAX_ERRORS must be a whole number >= 0/);
    assert.equal(durationSeconds('1m30s'), 90);
    assert.equal(loadSettings({ DOCBENCH_TOKEN: 't'.repeat(32) }).token, 't'.repeat(32));
  });

  it('ramps from STAGES: ramping-vus in the closed model, ramping-arrival-rate in the open one', () => {
    const closed = loadSettings({ STAGES: '10s:4, 20s:12,10s:0' });
    assert.deepEqual(scenarioFor(closed), {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '10s', target: 4 },
        { duration: '20s', target: 12 },
        { duration: '10s', target: 0 },
      ],
    });
    assert.equal(maxVusOf(closed), 12, 'the insert key space is divided for the most VUs the ramp reaches');
    const open = loadSettings({ MODEL: 'open', STAGES: '0s:100,10s:300', VUS: '5', MAX_VUS: '50' });
    const scenario = scenarioFor(open);
    assert.deepEqual(scenario, {
      executor: 'ramping-arrival-rate',
      startRate: 0,
      timeUnit: '1s',
      stages: [
        { duration: '0s', target: 100 },
        { duration: '10s', target: 300 },
      ],
      preAllocatedVUs: 5,
      maxVUs: 50,
    });
    assert.equal(scheduledIterations(scenario), 2000, 'the area under the ramp');
    assert.equal(maxVusOf(open), 50);
    assert.throws(() => loadSettings({ STAGES: '10s' }), /STAGES must be duration:target pairs/);
    assert.throws(() => loadSettings({ STAGES: '10s:0' }), /must reach a target above 0/);
    assert.throws(() => loadSettings({ STAGES: '10s:5', DURATION: '1m' }), /STAGES sets the whole load shape/);
    // What k6 reports for a scenario (nulls for what is unset) reads the same.
    assert.equal(maxVusOfScenario({ executor: 'ramping-vus', stages: [{ duration: '1s', target: 3 }] }), 3);
  });

  it('thresholds: failed requests, p99 per operation, every answer right, the open schedule kept, the error budget when asked', () => {
    const options = scriptOptions(
      loadSettings({ MODEL: 'open', RATE: '100', DURATION: '10s', MAX_DROPPED: '0.01', MAX_ERRORS: '5', P99_MS: '50' }),
      'ycsb',
      ['READ', 'UPDATE', 'READ-MODIFY-WRITE'],
    );
    assert.deepEqual(options.thresholds, {
      http_req_failed: ['rate<=0'],
      'http_req_duration{op:READ,status:200}': ['p(99)<50'],
      'http_req_duration{op:UPDATE,status:204}': ['p(99)<50'],
      op_read_modify_write: ['p(99)<50'],
      checks: ['rate==1'],
      dropped_iterations: ['count<=10'],
      docbench_errors: ['count<=5'],
    });
    const closed = scriptOptions(loadSettings({}), 'ycsb', ['READ']);
    assert.deepEqual(
      Object.keys(closed.thresholds!),
      ['http_req_failed', 'http_req_duration{op:READ,status:200}', 'checks'],
      'no error budget unless asked, no schedule in the closed model',
    );
    assert.equal(closed.cloud, undefined);
    const cloud = scriptOptions(
      loadSettings({
        CLOUD_PROJECT_ID: '3',
        CLOUD_NAME: 'docbench ycsb-a',
        CLOUD_LOAD_ZONES: 'amazon:de:frankfurt,amazon:us:ashburn,amazon:jp:tokyo',
      }),
      'ycsb',
      ['READ'],
    ).cloud;
    assert.deepEqual(cloud, {
      projectID: 3,
      name: 'docbench ycsb-a',
      distribution: {
        'amazon:de:frankfurt': { loadZone: 'amazon:de:frankfurt', percent: 34 },
        'amazon:us:ashburn': { loadZone: 'amazon:us:ashburn', percent: 33 },
        'amazon:jp:tokyo': { loadZone: 'amazon:jp:tokyo', percent: 33 },
      },
    });
    assert.throws(() => loadSettings({ CLOUD_LOAD_ZONES: 'frankfurt' }), /CLOUD_LOAD_ZONES must be load zone ids/);
  });

  it("maps YCSB's load shape to k6 settings", () => {
    const p = loadWorkload(['workloada'], ['threadcount=8', 'operationcount=1000']).properties;
    assert.deepEqual(k6Environment(p), { VUS: '8', MODEL: 'closed', ITERATIONS: '1000', PERCENTILES: '50,95,99,99.9' });
    const open = loadWorkload(['workloada'], ['threadcount=4', 'target=200', 'maxexecutiontime=15']).properties;
    assert.deepEqual(k6Environment(open), {
      VUS: '4',
      MODEL: 'open',
      RATE: '200',
      DURATION: '15s',
      MAX_VUS: '16',
      PERCENTILES: '50,95,99,99.9',
    });
    assert.equal(workloadOfScript('/x/k6/ycsb-c.ts'), 'workloadc');
    assert.equal(workloadOfScript('/x/k6/ycsb.ts'), null);
    // Shipped scripts are known by where they are (the SCENARIOS table names them); a script of
    // the user's own, whatever its name, drives what --scenario says.
    const shipped = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
    assert.equal(scenarioOfScript(shipped('k6/ycsb-a.ts')), 'ycsb');
    assert.equal(scenarioOfScript(shipped('scenarios/ecommerce/k6/pagination.ts')), 'ecommerce');
    assert.equal(scenarioOfScript(shipped('scenarios/persons/k6/persons.ts')), 'persons');
    assert.equal(scenarioOfScript(shipped('scenarios/file/k6/scenario.ts')), 'file');
    assert.equal(scenarioOfScript('/x/k6/persons.ts'), null);
    assert.equal(scenarioOfScript('/x/mine.ts'), null);
  });

  const store = {
    name: 'redis',
    url: 'redis://127.0.0.1:16379',
    server: 'Redis',
    serverVersion: '7',
    driver: 'ioredis 5',
    localTarget: true,
  };
  const setup = (scenario: SummarySetup['scenario']): SummarySetup => ({
    info: {
      store,
      scenarios: ['ycsb'],
      service: { framework: 'fastify 5', node: 'v20', workers: 1, pool: 2, pid: 1 },
      machine: describeMachine(),
    } as unknown as ServiceInfo,
    startedAt: new Date(Date.now() - 3000).toISOString(),
    run: {
      kind: 'ycsb',
      workloadName: 'workloada',
      properties: { recordcount: 1000, 'hdrhistogram.percentiles': [50, 99] },
      rows: ['READ', 'UPDATE', 'INSERT'],
      notes: ['a note'],
    },
    scenario,
  });

  it("turns k6's summary into a result in the common schema, and completes it with k6's CPU", () => {
    const settings = loadSettings({ VUS: '2', ITERATIONS: '100', PERCENTILES: '50,99' });
    const trend = (count: number, avg: number) => ({
      values: { count, avg, min: 0.5, max: 9, 'p(50)': avg, 'p(99)': 8 },
    });
    const counter = (count: number) => ({ values: { count, rate: 1 } });
    const data: SummaryData = {
      state: { testRunDurationMs: 2000 },
      metrics: {
        iterations: counter(100),
        // Successful calls are k6's own http_req_duration of the row's requests that answered the route's status.
        [okLatencyMetric('READ')]: { ...trend(46, 1.5), thresholds: { 'p(99)<1000': { ok: true } } },
        [statusMetricName('READ', 'NOT_FOUND')]: counter(2),
        [statusMetricName('READ', 'ERROR')]: counter(2),
        [failedMetricName('READ')]: trend(4, 1),
        [okLatencyMetric('UPDATE')]: trend(50, 2),
        checks: { values: { rate: 46 / 48, passes: 46, fails: 2 }, thresholds: { 'rate==1': { ok: false } } },
        [CONFLICTS_METRIC]: counter(2),
        [SERVICE_CPU_METRIC]: counter(30_000),
        [SERVICE_REQUESTS_METRIC]: counter(100),
      },
    };
    const result = resultSchema.parse(
      toResult(data, setup({ executor: 'shared-iterations', vus: 2, iterations: 100, maxDuration: '24h' }), settings),
    );
    assert.equal(result.mode, 'http');
    // The two READ errors did no work: counted under Return= and the error rate, not in the throughput.
    assert.equal(result.overall.operations, 98);
    assert.equal(result.overall.throughputOpsPerSec, 49);
    assert.equal(result.faults?.failedOperations, 2);
    assert.deepEqual(result.returns, { OK: 142, NOT_FOUND: 2, ERROR: 2, UNEXPECTED_STATE: 2 });
    assert.deepEqual(
      result.operations.map((o) => [o.name, o.returns]),
      [
        ['READ', { OK: 46, NOT_FOUND: 2, ERROR: 2 }],
        ['READ-FAILED', undefined],
        ['UPDATE', { OK: 50 }],
        ['VERIFY', { OK: 46, UNEXPECTED_STATE: 2 }],
      ],
    );
    assert.deepEqual(result.operations[0]!.latency, {
      operations: 46,
      averageUs: 1500,
      minUs: 500,
      maxUs: 9000,
      percentilesUs: { '50': 1500, '99': 8000 },
    });
    assert.equal(result.store.extra!['service.cpuUsPerRequest'], 300);
    assert.equal(result.store.extra!['service.pool'], 2);
    assert.equal(result.workload.properties.threadcount, 2);
    assert.equal(result.workload.properties.operationcount, 100);
    assert.equal(result.workload.properties.maxexecutiontime, 0, 'no DURATION: unbounded, as YCSB says it');
    assert.ok(result.notes.includes(CLIENT_CPU_NOT_MEASURED));
    assert.ok(result.notes.includes('a note'));
    assert.ok(
      result.notes.some((n) => /^2 requests answered 409 \(a write conflict/.test(n)),
      result.notes.join('\n'),
    );
    assert.ok(result.notes.includes('k6 thresholds crossed (k6 exits 99): checks rate==1'), result.notes.join('\n'));

    const start = Date.parse(result.startedAt);
    const end = Date.parse(result.endedAt);
    const sampler = {
      between: (from: number, to: number) => (from === start && to === end ? { userMs: 8, systemMs: 2 } : null),
    } as unknown as CpuSampler;
    const completed = resultSchema.parse(
      completeResult(result, { sampler, total: { userMs: 400, systemMs: 100 } }, 'workloada', ['recordcount=1000']),
    );
    // Per operation that did its work (98: two READs failed), as direct mode divides; per request over all 100.
    assert.deepEqual(completed.clientCpu, { userMs: 8, systemMs: 2, usPerOp: 102 });
    assert.equal(completed.store.extra!['client.cpuUsPerRequest'], 100);
    assert.ok(
      completed.notes.some((n) =>
        /k6 process, measured window\): 100 us per request, 102 us per operation; the whole k6 process used 500 ms/.test(
          n,
        ),
      ),
      completed.notes.join('\n'),
    );
    assert.ok(!completed.notes.includes(CLIENT_CPU_NOT_MEASURED));
    assert.deepEqual(completed.workload.overrides, ['recordcount=1000']);

    // 2 of 100 reads found nothing and 2 answers failed their check: the verdict says so, and the table marks the run instead of ranking it.
    assert.deepEqual(
      completed.verdict?.reasons.map((r) => r.code),
      ['not-loaded', 'wrong-answers'],
    );
    const table = renderModeComparison([completed]);
    assert.match(table, /\| redis +\| workloada \| end to end \| INVALID \|/);
    assert.match(table, /redis workloada \(end to end\) is INVALID: 2\.0% of 100 reads found no record/);
  });

  it("reads k6's summary export as handleSummary's data, and describes the scenario k6 ran", () => {
    const exported = {
      metrics: {
        iterations: { count: 300, rate: 100 },
        'http_req_duration{op:READ,status:200}': {
          avg: 1,
          min: 0.5,
          max: 2,
          count: 300,
          'p(50)': 1,
          'p(99)': 2,
          thresholds: { 'p(99)<1000': false },
        },
        checks: { passes: 3, fails: 1, value: 0.75, thresholds: { 'rate==1': true } },
      },
      setup_data: setup({
        executor: 'ramping-arrival-rate',
        startRate: 0,
        timeUnit: '1s',
        stages: [
          { duration: '10s', target: 50 },
          { duration: '20s', target: 10 },
        ],
        preAllocatedVUs: 4,
        maxVUs: 16,
      }),
    };
    const data = fromSummaryExport(exported);
    assert.equal(data.state.testRunDurationMs, 3000);
    assert.deepEqual(data.metrics.checks, {
      values: { passes: 3, fails: 1, rate: 0.75 },
      thresholds: { 'rate==1': { ok: false } },
    });
    assert.deepEqual(data.metrics['http_req_duration{op:READ,status:200}']!.thresholds, { 'p(99)<1000': { ok: true } });
    const result = resultSchema.parse(toResult(data, data.setup_data!, loadSettings({ PERCENTILES: '50,99' })));
    assert.deepEqual(result.operations.find((o) => o.name === 'READ')!.returns, { OK: 300 });
    assert.deepEqual(
      [
        result.workload.properties.threadcount,
        result.workload.properties.target,
        result.workload.properties.maxexecutiontime,
        result.workload.properties['k6.stages'],
      ],
      [16, 50, 30, '10s:50,20s:10'],
    );
    assert.ok(
      result.notes.includes('k6 open model: ramping-arrival-rate, 16 VUs, stages 10s:50,20s:10 (ops/s)'),
      result.notes.join('\n'),
    );
    assert.match(
      renderThresholds(data),
      /✗ checks 'rate==1'\n  ✓ http_req_duration\{op:READ,status:200\} 'p\(99\)<1000'/,
    );
    assert.deepEqual(loadShape({ executor: 'constant-vus', vus: 3, duration: '1m' }).properties, {
      threadcount: 3,
      target: 0,
      operationcount: 0,
      maxexecutiontime: 60,
      'k6.model': 'closed',
      'k6.executor': 'constant-vus',
    });
  });

  it('maps HTTP statuses to YCSB return statuses (a conflict is an ERROR, as in direct mode)', () => {
    assert.deepEqual([200, 201, 204, 404, 501, 400, 409, 500, 503, 0].map(statusOfHttp), [
      'OK',
      'OK',
      'OK',
      'NOT_FOUND',
      'UNSUPPORTED',
      'ERROR',
      'ERROR',
      'ERROR',
      'ERROR',
      'ERROR',
    ]);
  });
});
