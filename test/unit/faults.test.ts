/**
 * Faults in the runner and the result, without a server: how a driver's exception becomes a
 * status, failed operations kept out of the throughput, the outage windows read off the time
 * series, --on-error abort, the error budget, and a signal stopping a run (one process and
 * worker processes alike: the stop travels through the shared control).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  ClientOfflineError,
  ErrorReply,
  SocketClosedUnexpectedlyError,
  TimeoutError as RedisTimeoutError,
} from '@redis/client';
import cassandra from 'cassandra-driver';
import { MongoNetworkError, MongoNetworkTimeoutError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import pg from 'pg';
import { isConflict } from '../../src/service/conflicts.ts';
import { IntervalRows } from '../../src/measure/interval-rows.ts';
import { Measurements } from '../../src/measure/measurements.ts';
import { OperationSeriesBuilder } from '../../src/measure/operation-series.ts';
import { isFailure, type Status } from '../../src/measure/status.ts';
import type { TimeSeriesPoint } from '../../src/measure/status-reporter.ts';
import { statusOfError } from '../../src/measure/timed.ts';
import { ReplicationTimeoutError } from '../../src/stores/redis/handle.ts';
import { buildResult } from '../../src/results/build.ts';
import { outagesOf } from '../../src/results/faults.ts';
import { mergeResults } from '../../src/results/merge.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { faultPolicyOf, withWorkloadBudget } from '../../src/common/fault-policy.ts';
import { interrupts } from '../../src/common/interrupts.ts';
import { runTransactionPhase } from '../../src/runner/phases.ts';
import { ProcessPool } from '../../src/runner/process-pool.ts';
import { runScheduled, type ScheduleSettings } from '../../src/runner/schedule.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import { UnsupportedError, type Store } from '../../src/stores/store.ts';
import { STORE_ERRORS } from '../../src/stores/store-errors.ts';
import { LOCAL_STORE_NAMES } from '../../src/stores/stores.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';
import { waitFor } from '../support/wait.ts';

const storeInfo = {
  name: 'basic',
  url: 'basic://',
  server: 'none',
  serverVersion: '0',
  driver: 'none',
  localTarget: false,
};
const named = (name: string, message: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { name, ...extra });
/** The server's error as node-postgres makes it (pg-protocol's DatabaseError: `name` is the message's, "error"). */
const pgError = (code: string, message: string) =>
  Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code, severity: 'ERROR' });

describe("a failed call's status", () => {
  // The drivers' own classes where loading them is cheap; the integration test
  // (failure-kinds.test.ts) feeds each driver's real errors, provoked against real servers.
  const couchbaseContext = (context: Record<string, unknown>) => ({
    last_dispatched_to: '127.0.0.1:11210',
    last_dispatched_from: '127.0.0.1:50000',
    retry_attempts: 0,
    retry_reasons: [],
    ...context,
  });
  const nano = (reason: string) => new Error(`error happened in your connection. Reason: ${reason}`);
  const cases: [string, unknown, string][] = [
    ['ioredis, its connection lost', new Error('Connection is closed.'), 'SERVICE_UNAVAILABLE'],
    [
      'ioredis, no connection and no offline queue',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'ioredis, a command in flight when the connection dropped',
      named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 1).'),
      'SERVICE_UNAVAILABLE',
    ],
    ['ioredis, a stalled server', new Error('Command timed out'), 'TIMEOUT'],
    [
      'ioredis, an error reply',
      named('ReplyError', 'WRONGTYPE Operation against a key holding the wrong kind of value'),
      'ERROR',
    ],
    [
      'ioredis, an error reply whose text says timeout',
      named('ReplyError', 'ERR Error running script: timeout'),
      'ERROR',
    ],
    [
      'a Redis loading its data after a restart',
      named('ReplyError', 'LOADING Redis is loading the dataset in memory'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'ioredis Cluster, a command still failing after its retries (a master lost)',
      new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'ioredis Cluster, not ready and no offline queue',
      new Error("Cluster isn't ready and enableOfflineQueue options is false"),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'a Redis Cluster that lost a master with no replica',
      named('ReplyError', 'CLUSTERDOWN The cluster is down'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'a redirection the cluster client could not follow (a pipeline with a write)',
      named('ReplyError', 'MOVED 12676 127.0.0.1:7001'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'node-redis Cluster, a redirection in a pipeline',
      new ErrorReply('MOVED 3999 127.0.0.1:7000'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'redis.wait, fewer replicas than asked in time',
      new ReplicationTimeoutError(0, { replicas: 1, timeoutMs: 100 }),
      'TIMEOUT',
    ],
    ['node-redis, offline (a class with no name of its own)', new ClientOfflineError(), 'SERVICE_UNAVAILABLE'],
    ['node-redis, the socket closed', new SocketClosedUnexpectedlyError(), 'SERVICE_UNAVAILABLE'],
    ['node-redis, a command timeout (no message at all)', new RedisTimeoutError(), 'TIMEOUT'],
    ['node-redis, an error reply', new ErrorReply('NOSCRIPT No matching script'), 'ERROR'],
    [
      'a socket refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'a reset deep in the cause chain',
      new Error('request failed', {
        cause: new Error('fetch failed', {
          cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }),
        }),
      }),
      'SERVICE_UNAVAILABLE',
    ],
    ['nano, the server closed the connection', nano('SocketError: other side closed'), 'SERVICE_UNAVAILABLE'],
    ['nano, a reset', nano('Error: read ECONNRESET'), 'SERVICE_UNAVAILABLE'],
    ['nano, refused', nano('Error: connect ECONNREFUSED 127.0.0.1:5984'), 'SERVICE_UNAVAILABLE'],
    ['nano, no headers in time', nano('HeadersTimeoutError: Headers Timeout Error'), 'TIMEOUT'],
    [
      "nano, fetch's own deadline",
      new Error('error happened in your connection. Reason: The operation was aborted due to timeout'),
      'TIMEOUT',
    ],
    [
      'nano, a CouchDB answer (404)',
      Object.assign(new Error('Database does not exist.'), {
        scope: 'couch',
        statusCode: 404,
        reason: 'Database does not exist.',
      }),
      'ERROR',
    ],
    [
      'nano, a CouchDB 500 whose reason says timeout',
      Object.assign(new Error('timeout'), { scope: 'couch', statusCode: 500 }),
      'ERROR',
    ],
    [
      'undici, no headers in time',
      Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }),
      'TIMEOUT',
    ],
    [
      'MongoDB, no server to select (refused)',
      new MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:27117', { error: undefined } as never),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'MongoDB, a network error',
      new MongoNetworkError('connection 3 to 127.0.0.1:27117 closed'),
      'SERVICE_UNAVAILABLE',
    ],
    ['MongoDB, a socket timeout', new MongoNetworkTimeoutError('connection 3 to 127.0.0.1:27117 timed out'), 'TIMEOUT'],
    ['MongoDB, a server error', new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }), 'ERROR'],
    [
      'MongoDB, a primary stepping down',
      new MongoServerError({ message: 'not primary', code: 10107 }),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'Cassandra, no answer in time',
      new cassandra.errors.OperationTimedOutError(
        'The host 127.0.0.1:9042 did not reply before timeout 12000 ms',
        '127.0.0.1:9042',
      ),
      'TIMEOUT',
    ],
    ['Cassandra, no host', new cassandra.errors.NoHostAvailableError({}), 'SERVICE_UNAVAILABLE'],
    [
      'Cassandra, every host timed out',
      new cassandra.errors.NoHostAvailableError({
        '127.0.0.1:9042': new cassandra.errors.OperationTimedOutError('no reply', '127.0.0.1:9042'),
      }),
      'TIMEOUT',
    ],
    [
      'Cassandra, the socket closed under a request',
      Object.assign(named('DriverError', 'Socket was closed'), { isSocketError: true }),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'Cassandra, too few replicas alive',
      new cassandra.errors.ResponseError(
        cassandra.types.responseErrorCodes.unavailableException,
        'Cannot achieve consistency level TWO',
      ),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'Cassandra, a syntax error',
      new cassandra.errors.ResponseError(
        cassandra.types.responseErrorCodes.syntaxError,
        'line 1:0 no viable alternative',
      ),
      'ERROR',
    ],
    [
      'Couchbase, a KV request sent and not answered',
      named('UnambiguousTimeoutError', 'unambiguous timeout', { context: couchbaseContext({}) }),
      'TIMEOUT',
    ],
    [
      'Couchbase, retried because the socket closed',
      named('UnambiguousTimeoutError', 'unambiguous timeout', {
        context: couchbaseContext({ retry_attempts: 1, retry_reasons: ['socket_closed_while_in_flight'] }),
      }),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'Couchbase, never sent (no connection)',
      named('UnambiguousTimeoutError', 'unambiguous timeout', {
        context: couchbaseContext({ last_dispatched_to: '', last_dispatched_from: '' }),
      }),
      'SERVICE_UNAVAILABLE',
    ],
    ['Couchbase, a write cut off', named('RequestCanceledError', 'request canceled'), 'SERVICE_UNAVAILABLE'],
    ['Couchbase, a document that exists', named('DocumentExistsError', 'document exists'), 'ERROR'],
    [
      'the HBase REST gateway, HBase out of its reach (HTTP 503)',
      Object.assign(new Error('hbase: GET usertable/user1 answered HTTP 503: Unavailable'), { status: 503 }),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'the HBase REST gateway, a request timed out',
      named('TimeoutError', 'hbase: GET /usertable/user1 had no answer within 30000 ms (hbase.timeout)'),
      'TIMEOUT',
    ],
    [
      'the HBase REST gateway, an HTTP error it answered (404)',
      Object.assign(new Error('hbase: GET /usertable/user1 answered HTTP 404'), {
        name: 'HbaseRestError',
        status: 404,
      }),
      'ERROR',
    ],
    ['PostgreSQL, a connection exception (class 08)', pgError('08006', 'connection failure'), 'SERVICE_UNAVAILABLE'],
    [
      'PostgreSQL, shut down by its administrator (57P01)',
      pgError('57P01', 'terminating connection due to administrator command'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'PostgreSQL, starting up or in recovery (57P03)',
      pgError('57P03', 'the database system is starting up'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'PostgreSQL, a crash of another backend (57P02)',
      pgError('57P02', 'terminating connection because of crash of another server process'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'PostgreSQL, too many connections (53300)',
      pgError('53300', 'sorry, too many clients already'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'PostgreSQL, statement_timeout (57014)',
      pgError('57014', 'canceling statement due to statement timeout'),
      'TIMEOUT',
    ],
    [
      'PostgreSQL, a refused password (28P01)',
      pgError('28P01', 'password authentication failed for user "x"'),
      'ERROR',
    ],
    ['PostgreSQL, a missing database (3D000)', pgError('3D000', 'database "x" does not exist'), 'ERROR'],
    ['PostgreSQL, a missing table (42P01)', pgError('42P01', 'relation "usertable" does not exist'), 'ERROR'],
    [
      'PostgreSQL, the SQLSTATE before the words (a missing table whose name reads like an outage)',
      pgError('42P01', 'Connection terminated unexpectedly'),
      'ERROR',
    ],
    [
      'PostgreSQL, a serialization failure (40001)',
      pgError('40001', 'could not serialize access due to concurrent update'),
      'ERROR',
    ],
    ['PostgreSQL, a deadlock (40P01)', pgError('40P01', 'deadlock detected'), 'ERROR'],
    [
      'PostgreSQL, a duplicate key (23505)',
      pgError('23505', 'duplicate key value violates unique constraint'),
      'ERROR',
    ],
    [
      'node-postgres, the connection lost under a query',
      new Error('Connection terminated unexpectedly'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'node-postgres, a query on a client whose connection failed',
      new Error('Client has encountered a connection error and is not queryable'),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'node-postgres, the server refused the connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      'SERVICE_UNAVAILABLE',
    ],
    [
      'pg-pool, no connection within connectionTimeoutMillis',
      new Error('timeout exceeded when trying to connect'),
      'TIMEOUT',
    ],
    [
      'pg-pool, a new connection past connectionTimeoutMillis',
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('Connection terminated unexpectedly'),
      }),
      'TIMEOUT',
    ],
    ['node-postgres, query_timeout', new Error('Query read timeout'), 'TIMEOUT'],
    ['node-postgres, a client docbench itself ended', new Error('Connection terminated'), 'ERROR'],
    [
      "a store's own answer (a CouchDB conflict)",
      Object.assign(new Error('Document update conflict.'), { scope: 'couch', statusCode: 409 }),
      'ERROR',
    ],
    ['an operation the store cannot do', new UnsupportedError('SCAN', 'no query service'), 'UNSUPPORTED'],
  ];
  for (const [what, error, status] of cases) it(`${what}: ${status}`, () => assert.equal(statusOfError(error), status));

  it("every store with a server knows its drivers' errors (its folder's errors.ts, named by its row)", () => {
    const known = new Set(STORE_ERRORS.map((e) => e.store));
    assert.deepEqual(
      LOCAL_STORE_NAMES.filter((name) => !known.has(name)),
      [],
    );
    for (const e of STORE_ERRORS) assert.ok(Object.keys(e.shapes).length > 0, e.store);
  });

  it('PostgreSQL: a duplicate key, a serialization failure and a deadlock are write conflicts (409); other SQLSTATEs are not', () => {
    for (const code of ['23505', '40001', '40P01']) assert.equal(isConflict(pgError(code, 'lost a race')), true, code);
    for (const code of ['42P01', '57014', '08006']) assert.equal(isConflict(pgError(code, 'other')), false, code);
    assert.equal(isConflict(Object.assign(new Error('x'), { code: '40001' })), false, "only the server's own error");
  });
});

describe('outage windows', () => {
  const point = (t: number, operations: number, failed = 0, outageCalls = 0) => ({
    t,
    operations,
    opsPerSec: operations,
    p99Us: 1,
    warmup: false,
    ...(failed ? { failed } : {}),
    ...(outageCalls ? { outageCalls } : {}),
  });
  const start = new Date('2026-01-01T00:00:00.000Z');

  it('a window spans the seconds with refused calls and those where nothing succeeded, and says when it ended', () => {
    // Up, then workers held by the driver (nothing done), then refusals, then up again.
    const series = [
      point(1, 100),
      point(2, 100),
      point(3, 10),
      point(4, 0),
      point(5, 0),
      point(6, 4, 4, 4),
      point(7, 50, 20, 20),
      point(8, 100),
      point(9, 100),
    ];
    const [outage, ...rest] = outagesOf(series, start);
    assert.deepEqual(rest, []);
    assert.deepEqual(outage, {
      from: '2026-01-01T00:00:03.000Z',
      to: '2026-01-01T00:00:07.000Z',
      fromSecond: 3,
      toSecond: 7,
      failedOperations: 24,
      outageCalls: 24,
      recovered: true,
    });
  });

  it('two outages are two windows; one still on at the end has not recovered', () => {
    const series = [point(1, 100), point(2, 10, 10, 10), point(3, 100), point(4, 5, 5, 5), point(5, 0)];
    const outages = outagesOf(series, start);
    assert.deepEqual(
      outages.map((o) => [o.fromSecond, o.toSecond, o.recovered]),
      [
        [1, 2, true],
        [3, 5, false],
      ],
    );
  });

  it('a store that stalled to the end (operations abandoned after the drain) is an outage that did not recover', async () => {
    const m = new Measurements(true, false);
    m.abandonedOperations = 4;
    const series = [point(1, 100), point(2, 30), point(3, 0), point(4, 0)];
    const result = buildResult(
      {
        phase: 'run',
        measurements: m,
        startedAt: start,
        endedAt: new Date(start.getTime() + 4000),
        runtimeMs: 4000,
        timeSeries: series,
        cpu: { userMs: 1, systemMs: 1 },
        recordsLoaded: 0,
        notes: [],
      },
      { kind: 'ycsb', mode: 'direct', workloadName: 't', properties: {}, overrides: [], store: storeInfo },
    );
    assert.deepEqual(
      result.faults?.outages.map((o) => [o.fromSecond, o.toSecond, o.recovered]),
      [[2, 4, false]],
    );
    assert.match(
      renderYcsbText(result),
      /^# OUTAGE: .*no operation finished \(the store stalled\); it had not answered again when the run ended$/m,
    );
  });

  it('errors the store answers (conflicts) are no outage', () => {
    assert.deepEqual(outagesOf([point(1, 100, 30), point(2, 100, 40)], start), []);
  });
});

/** One second of a built run: each operation's calls by status. */
type Second = Partial<Record<'READ' | 'UPDATE', Partial<Record<Status, number>>>>;

/**
 * A run built second by second as the status reporter builds it (each second's calls measured,
 * its time-series point, its rows into the per-operation series), from `startedAt`.
 */
function builtRun(seconds: readonly Second[], startedAt = new Date('2026-01-01T00:00:00.000Z')): Result {
  const m = new Measurements(true, true);
  const builder = new OperationSeriesBuilder(10);
  const rows = new IntervalRows();
  const timeSeries: TimeSeriesPoint[] = [];
  seconds.forEach((calls, index) => {
    const t = index + 1;
    for (const [operation, statuses] of Object.entries(calls))
      for (const [status, n] of Object.entries(statuses) as [Status, number][])
        for (let i = 0; i < n; i++) {
          m.measure(operation, status, 0, 0, 1, status === 'OK' ? undefined : new Error(status));
          m.completeOperation(1, isFailure(status));
        }
    const { intervalOperations: operations, intervalFailures: failed, intervalOutageCalls: outageCalls } = m;
    timeSeries.push({
      t,
      operations,
      opsPerSec: operations - failed,
      p99Us: 1,
      warmup: false,
      ...(failed > 0 ? { failed } : {}),
      ...(outageCalls > 0 ? { outageCalls } : {}),
    });
    m.intervalOperations = m.intervalFailures = m.intervalOutageCalls = 0;
    m.takeIntervalRows(rows);
    builder.addSecond(rows, t);
    rows.clear();
    if (t % 10 === 0) builder.close(t);
  });
  builder.finish(seconds.length);
  const runtimeMs = seconds.length * 1000;
  return resultSchema.parse(
    buildResult(
      {
        phase: 'run',
        measurements: m,
        startedAt,
        endedAt: new Date(startedAt.getTime() + runtimeMs),
        runtimeMs,
        timeSeries,
        operationSeries: builder.series!,
        cpu: { userMs: 1, systemMs: 1 },
        recordsLoaded: 0,
        notes: [],
      },
      { kind: 'ycsb', mode: 'direct', workloadName: 't', properties: {}, overrides: [], store: storeInfo },
    ),
  );
}

const seconds = (n: number, second: Second): Second[] => Array.from({ length: n }, () => second);
const outageLines = (r: Result) =>
  renderYcsbText(r)
    .split('\n')
    .filter((line) => line.startsWith('# OUTAGE'));

describe('outages at a second’s resolution, from built series', () => {
  it('a run full of conflicts (the store answering ERROR) has no outage, run-wide or per operation', () => {
    // As workload A on CouchDB: hot keys' updates lose their race on _rev, every second.
    const result = builtRun(seconds(30, { READ: { OK: 100 }, UPDATE: { OK: 50, ERROR: 50 } }));
    assert.equal(result.faults!.failedOperations, 1500);
    assert.deepEqual(result.faults!.outages, []);
    assert.equal(result.faults!.byOperation, undefined);
    assert.deepEqual(outageLines(result), []);
    assert.equal(result.operationSeries!.seconds!.rows.find((r) => r.operation === 'UPDATE')!.error!.length, 30);
  });

  it('a killed server is one outage at the right second, run-wide and for each operation it failed', () => {
    // Up 7 s, refused from the 8th to the 14th second, up again; conflicts all along.
    const up: Second = { READ: { OK: 100 }, UPDATE: { OK: 45, ERROR: 5 } };
    const down: Second = { READ: { SERVICE_UNAVAILABLE: 100 }, UPDATE: { SERVICE_UNAVAILABLE: 40, TIMEOUT: 10 } };
    const result = builtRun([...seconds(7, up), ...seconds(7, down), ...seconds(16, up)]);
    const faults = result.faults!;
    assert.deepEqual(
      faults.outages.map((o) => [o.fromSecond, o.toSecond, o.outageCalls, o.recovered]),
      [[7, 14, 1050, true]],
    );
    assert.deepEqual(
      faults.byOperation!.map((o) => [o.operation, o.fromSecond, o.toSecond, o.failed, o.recovered, o.failures]),
      [
        ['READ', 7, 14, 700, true, { SERVICE_UNAVAILABLE: 700 }],
        ['UPDATE', 7, 14, 350, true, { SERVICE_UNAVAILABLE: 280, TIMEOUT: 70 }],
      ],
    );
    const lines = outageLines(result);
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(
      lines[0]!,
      /^# OUTAGE of READ: out of reach from 7\.0 s to 14\.0 s \(7\.0 s, 700 calls failed: 700 SERVICE_UNAVAILABLE\); the store answered it again after$/,
    );
    assert.match(lines[2]!, /^# OUTAGE: the store was out of reach from 7\.0 s to 14\.0 s into the run /);
  });

  it('two kills are two windows for each operation, not one from the first failure to the last', () => {
    const up: Second = { READ: { OK: 100 } };
    const down: Second = { READ: { SERVICE_UNAVAILABLE: 100 } };
    const result = builtRun([...seconds(5, up), ...seconds(3, down), ...seconds(10, up), ...seconds(2, down), up]);
    assert.deepEqual(
      result.faults!.byOperation!.map((o) => [o.fromSecond, o.toSecond, o.recovered]),
      [
        [5, 8, true],
        [18, 20, true],
      ],
    );
    assert.deepEqual(
      result.faults!.outages.map((o) => [o.fromSecond, o.toSecond]),
      [
        [5, 8],
        [18, 20],
      ],
    );
  });

  it('a pause with no completion (a SIGSTOPped server, calls waiting within their timeout) is an outage', () => {
    const up: Second = { READ: { OK: 180 }, UPDATE: { OK: 20 } };
    const result = builtRun([...seconds(5, up), ...seconds(9, {}), { READ: { OK: 90 } }, ...seconds(6, up)]);
    const faults = result.faults!;
    assert.equal(faults.failedOperations, 0);
    assert.deepEqual(
      faults.outages.map((o) => [o.fromSecond, o.toSecond, o.failedOperations, o.outageCalls, o.recovered]),
      [[5, 14, 0, 0, true]],
    );
    assert.equal(faults.byOperation, undefined, 'no call failed: no operation kind was refused');
    assert.deepEqual(outageLines(result), [
      '# OUTAGE: the store was out of reach from 5.0 s to 14.0 s into the run (2026-01-01T00:00:05.000Z – 2026-01-01T00:00:14.000Z): no operation finished (the store stalled); it answered again from 14.0 s',
    ]);
  });

  it('seconds left empty by a slow or throttled run are no stall', () => {
    // One operation every three seconds (a slow query, a low target rate): two empty seconds in three.
    const slow = Array.from({ length: 30 }, (_, i): Second => (i % 3 === 2 ? { READ: { OK: 1 } } : {}));
    assert.equal(builtRun(slow).faults, undefined);
    // A busy run that stalls for one second only: below the shortest stall.
    const blip = [...seconds(10, { READ: { OK: 500 } }), {}, ...seconds(10, { READ: { OK: 500 } })];
    assert.equal(builtRun(blip).faults, undefined);
  });

  it('merged client results keep each outage at its second on the wall clock', () => {
    const up: Second = { READ: { OK: 100 } };
    const down: Second = { READ: { TIMEOUT: 100 } };
    const start = new Date('2026-01-01T00:00:00.000Z');
    const plan = [...seconds(6, up), ...seconds(4, down), ...seconds(10, up)];
    const merged = mergeResults([builtRun(plan, start), builtRun(plan, start)]);
    assert.deepEqual(
      merged.faults!.byOperation!.map((o) => [o.operation, o.fromSecond, o.toSecond, o.failed, o.failures]),
      [['READ', 6, 10, 800, { TIMEOUT: 800 }]],
    );
    assert.deepEqual(
      merged.faults!.outages.map((o) => [o.fromSecond, o.toSecond]),
      [[6, 10]],
    );
  });
});

describe('the fault policy', () => {
  it('takes maxerrorrate out of the -p overrides and leaves the rest to the workload', () => {
    assert.deepEqual(faultPolicyOf(['recordcount=5', 'maxerrorrate=0.05', 'threadcount=2'], 'abort'), {
      policy: { onError: 'abort', maxErrorRate: 0.05 },
      rest: ['recordcount=5', 'threadcount=2'],
    });
    assert.throws(() => faultPolicyOf(['maxerrorrate=5%']), /maxerrorrate=5%: expected the fraction/);
  });

  it('a workload file may set the budget; -p maxerrorrate wins over it', () => {
    const fromFile = workloadFromText('maxerrorrate=0.1', 'test', []);
    assert.deepEqual(withWorkloadBudget({ onError: 'continue' }, fromFile), { onError: 'continue', maxErrorRate: 0.1 });
    assert.deepEqual(withWorkloadBudget({ onError: 'continue', maxErrorRate: 0.02 }, fromFile), {
      onError: 'continue',
      maxErrorRate: 0.02,
    });
    assert.deepEqual(withWorkloadBudget({ onError: 'abort' }, workloadFromText('', 'test', [])), { onError: 'abort' });
    assert.throws(() => workloadFromText('maxerrorrate=2', 'test', []), /maxerrorrate/);
  });
});

const settings = (over: Partial<ScheduleSettings> = {}): ScheduleSettings => ({
  threadcount: 4,
  target: 0,
  operationcount: 0,
  maxexecutiontime: 60,
  warmuptime: 0,
  statusIntervalSeconds: 1,
  ...over,
});

describe('failed operations in a run', () => {
  it('are counted apart from the throughput, and shown in the result and its YCSB text', async () => {
    const m = new Measurements(true, false);
    let n = 0;
    const run = await runScheduled({
      measurements: m,
      settings: settings({ operationcount: 1000, maxexecutiontime: 0 }),
      status: false,
      label: 't',
      worker: () => async () => {
        const failed = n++ % 4 === 0;
        m.measure(
          'READ',
          failed ? 'SERVICE_UNAVAILABLE' : 'OK',
          0,
          0,
          1,
          failed ? new Error('Connection is closed.') : undefined,
        );
        return failed;
      },
    });
    assert.equal(run.stopReason, 'complete');
    assert.equal(m.failedOperations, 250);
    assert.equal(m.measuredOperations, 750);
    const result = resultSchema.parse(
      buildResult(
        { phase: 'run', measurements: m, ...run, recordsLoaded: 0 },
        { kind: 'ycsb', mode: 'direct', workloadName: 't', properties: {}, overrides: [], store: storeInfo },
      ),
    );
    assert.equal(result.overall.operations, 750);
    assert.equal(result.faults?.failedOperations, 250);
    assert.equal(result.faults?.errorRate, 0.25);
    assert.equal(result.partial, undefined);
    const text = renderYcsbText(result);
    assert.match(text, /^# 250 operations failed \(25% of those issued\)/m);
    assert.match(text, /^\[READ\], Return=SERVICE_UNAVAILABLE, 250$/m);
  });
});

describe('a YCSB phase stopped by its faults or a signal', { concurrency: false }, () => {
  const properties = workloadFromText(
    'recordcount=100\noperationcount=0\nmaxexecutiontime=120\nthreadcount=4\nstatus.interval=1',
    't',
  );
  /** BasicDB whose calls fail as a dead Redis's do once `down` is set. */
  function flaky(): { store: Store; down: () => void } {
    const base = createBasicStore({ url: 'basic://', settings: {}, concurrency: 4 });
    let isDown = false;
    const store = new Proxy(base, {
      get: (target, name, receiver) => {
        const member = Reflect.get(target, name, receiver) as unknown;
        if (typeof member !== 'function') return member;
        if (['read', 'update', 'insert', 'scan', 'delete'].includes(String(name))) {
          return (...args: unknown[]) =>
            isDown
              ? Promise.reject(new Error('Connection is closed.'))
              : (member as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        }
        return (member as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return { store, down: () => (isDown = true) };
  }
  const workload = () => new CoreWorkload(properties, new Random(1));

  it('--on-error abort ends the run at the first failure; the result is partial and says why', async () => {
    const { store, down } = flaky();
    setTimeout(down, 300);
    const outcome = await runTransactionPhase({
      store,
      workload: workload(),
      properties,
      status: false,
      label: 't',
      faults: { onError: 'abort' },
    });
    assert.equal(outcome.stopReason, 'on-error');
    const result = buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: 't',
      properties,
      overrides: [],
      store: storeInfo,
    });
    assert.equal(result.partial?.reason, 'on-error');
    assert.ok(result.faults!.failedOperations >= 1);
    assert.match(renderYcsbText(result), /^# PARTIAL RESULT: aborted at the first failed operation/m);
  });

  it('maxerrorrate: past the budget the run stops, partial, with the rate recorded', async () => {
    const { store, down } = flaky();
    setTimeout(down, 300);
    const outcome = await runTransactionPhase({
      store,
      workload: workload(),
      properties,
      status: false,
      label: 't',
      faults: { onError: 'continue', maxErrorRate: 0.1 },
    });
    assert.equal(outcome.stopReason, 'error-budget');
    const result = buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: 't',
      properties,
      overrides: [],
      store: storeInfo,
    });
    assert.equal(result.partial?.reason, 'error-budget');
    assert.ok(result.faults!.errorRate > 0.1, String(result.faults!.errorRate));
    assert.ok(result.returns.SERVICE_UNAVAILABLE! > 0);
  });

  after(() => interrupts.uninstall());

  for (const processes of [1, 2]) {
    it(`SIGINT stops the run (${processes} process${processes > 1 ? 'es' : ''}), whose result is partial`, async () => {
      interrupts.install(() => {});
      const store = createBasicStore({ url: 'basic://', settings: {}, concurrency: 4 });
      const pool =
        processes > 1
          ? await ProcessPool.start({ store: 'basic', url: 'basic://', settings: {}, threadcount: 4, processes })
          : undefined;
      try {
        const began = performance.now();
        const m = { outcome: undefined as Awaited<ReturnType<typeof runTransactionPhase>> | undefined };
        const running = runTransactionPhase({
          store,
          workload: workload(),
          properties: { ...properties, target: 2000 },
          status: false,
          label: 't',
          ...(pool ? { pool } : {}),
        }).then((o) => (m.outcome = o));
        await waitFor(
          () => (pool ? true : store !== undefined) && performance.now() > began + 1500,
          'the run to get going',
        );
        interrupts.receive('SIGINT');
        await running;
        const outcome = m.outcome!;
        assert.equal(outcome.stopReason, 'SIGINT');
        assert.ok(outcome.measurements.measuredOperations > 0);
        const result = buildResult(outcome, {
          kind: 'ycsb',
          mode: 'direct',
          workloadName: 't',
          properties,
          overrides: [],
          store: storeInfo,
        });
        assert.equal(result.partial?.reason, 'SIGINT');
        assert.equal(interrupts.exitCode, 130);
      } finally {
        interrupts.uninstall();
        await pool?.close();
      }
    });
  }
});
