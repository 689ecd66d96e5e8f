/**
 * The verdict (src/results/verdict.ts) for what the counts of a result say: a scenario query the
 * store refuses is left out of that store's figures with its reason, the rest valid and compared
 * query by query, the mix-level figure only between stores that ran the same mix; a store is
 * invalid for what makes its figures wrong (wrong answers, nothing measured); a YCSB workload is
 * one mix. The advice for an operation that never succeeded follows what its first error says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultSchema, type OperationResult, type Result } from '../../src/results/schema.ts';
import { computeVerdict, mixOf, verdictLine, verdictMark } from '../../src/results/verdict.ts';
import { renderFileNotes, renderFileTable } from '../../scenarios/file/report.ts';

const latency = (operations: number) => ({
  operations,
  averageUs: operations > 0 ? 1000 : 0,
  minUs: 0,
  maxUs: operations > 0 ? 5000 : 0,
  percentilesUs: { '95': operations > 0 ? 2000 : 0, '99': operations > 0 ? 3000 : 0 },
});

/** A row of `n` calls by status (with an error sample for the failing ones). */
function row(name: string, returns: OperationResult['returns'], sample?: string): OperationResult {
  return {
    name,
    latency: latency((returns?.OK ?? 0) + (returns?.NOT_FOUND ?? 0)),
    returns,
    ...(sample ? { errorSamples: [sample] } : {}),
  };
}

/** A result of `kind` on `store` with these rows. */
function resultOf(
  kind: string,
  store: string,
  operations: OperationResult[],
  extra: { standIn?: boolean; properties?: Result['workload']['properties']; opsPerSec?: number } = {},
): Result {
  return resultSchema.parse({
    schemaVersion: 1,
    kind,
    mode: 'direct',
    phase: 'run',
    workload: { name: kind === 'ycsb' ? 'workloade' : 'recipes', properties: extra.properties ?? {}, overrides: [] },
    store: {
      name: store,
      url: `${store}://127.0.0.1`,
      server: store,
      serverVersion: '1',
      driver: 'd',
      localTarget: true,
      ...(extra.standIn ? { standIn: { name: 'pouchdb-server', version: '4.2.0', note: 'a stand-in' } } : {}),
    },
    machine: {
      cpus: 2,
      cpuModel: 'x',
      memoryBytes: 1e9,
      platform: 'linux',
      release: '6',
      arch: 'x64',
      node: 'v20',
      docbench: '0.1.0',
    },
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:10.000Z',
    overall: { runtimeMs: 10_000, throughputOpsPerSec: extra.opsPerSec ?? 100, operations: 1000 },
    warmup: { seconds: 0, operations: 0 },
    clientCpu: { userMs: 1, systemMs: 1, usPerOp: 1 },
    returns: {},
    operations,
    timeSeries: [],
    notes: [],
  });
}

const refused = (query: string, reason: string) =>
  row(query, { UNSUPPORTED: 1 }, `${query} is not supported: ${reason}`);
const checked = (ok: number, wrong = 0) =>
  row(
    'VERIFY',
    { OK: ok, ...(wrong > 0 ? { UNEXPECTED_STATE: wrong } : {}) },
    wrong > 0 ? 'by-author: 2 rows, expected 3' : undefined,
  );

describe('per-query verdicts of scenarios', () => {
  it('a query the store refuses is left out of its figures with the reason; the rest stay valid', () => {
    const r = resultOf('scenario', 'redis', [
      row('by-author', { OK: 600 }),
      refused('by-name', 'name is text: a sorted set scores by number'),
      refused('shared', 'a parameter inside $or'),
      checked(600),
    ]);
    const verdict = computeVerdict(r);
    assert.equal(verdict.status, 'valid');
    assert.deepEqual(verdict.excluded, [
      { operation: 'by-name', detail: 'UNSUPPORTED: name is text: a sorted set scores by number' },
      { operation: 'shared', detail: 'UNSUPPORTED: a parameter inside $or' },
    ]);
    assert.equal(verdictMark(verdict), 'valid without by-name, shared');
    assert.match(
      verdictLine(verdict),
      /^valid for the operations it ran; left out of its figures: by-name \(UNSUPPORTED: name is text/,
    );
    assert.match(verdictLine(verdict), /compare it only with runs that left out the same/);
    assert.equal(mixOf({ ...r, verdict }), 'by-name, shared');
  });

  it('a store that refused every query measured nothing: invalid, each refusal a reason', () => {
    const verdict = computeVerdict(
      resultOf('scenario', 'hbase', [refused('by-name', 'a text sort'), refused('shared', 'an $or'), checked(0)]),
    );
    assert.equal(verdict.status, 'invalid');
    assert.deepEqual(
      verdict.reasons.map((r) => [r.code, r.detail]),
      [
        ['unsupported', 'all 1 by-name operations were UNSUPPORTED: by-name is not supported: a text sort'],
        ['unsupported', 'all 1 shared operations were UNSUPPORTED: shared is not supported: an $or'],
      ],
    );
    assert.equal(verdict.excluded, undefined);
  });

  it('wrong answers make the store invalid, refusals or not', () => {
    const verdict = computeVerdict(
      resultOf('scenario', 'couchdb', [row('by-name', { OK: 10 }), refused('shared', 'x'), checked(9, 1)]),
    );
    assert.equal(verdict.status, 'invalid');
    assert.deepEqual(
      verdict.reasons.map((r) => r.code),
      ['wrong-answers'],
    );
    assert.equal(verdict.excluded?.length, 1);
  });

  it('a YCSB workload is one mix: an operation kind it could not run makes it invalid', () => {
    const verdict = computeVerdict(
      resultOf('ycsb', 'couchbase', [
        row('INSERT', { OK: 50 }),
        row('SCAN', { UNSUPPORTED: 950 }, 'SCAN is not supported: no query service'),
      ]),
    );
    assert.equal(verdict.status, 'invalid');
    assert.deepEqual(
      verdict.reasons.map((r) => r.code),
      ['unsupported'],
    );
    assert.equal(verdict.excluded, undefined);
  });
});

describe('the scenario table compares the mix-level figure only within a mix', () => {
  const whole = resultOf(
    'scenario',
    'cassandra',
    [row('by-author', { OK: 300 }), row('by-name', { OK: 300 }), checked(600)],
    {
      opsPerSec: 170,
    },
  );
  const without = resultOf(
    'scenario',
    'redis',
    [row('by-author', { OK: 600 }), refused('by-name', 'a text sort'), checked(600)],
    {
      opsPerSec: 262,
    },
  );

  it('stores that ran different mixes: each ops/s names its mix, and a line says which store ran which', () => {
    const table = renderFileTable([without, whole]);
    assert.match(table, /\| redis +\| +262 \(mix B\) \|/);
    assert.match(table, /\| cassandra +\| +170 \(mix A\) \|/);
    assert.match(table, /\| +\| +\| by-name +\| +0 \| +- \| +- \| +- \| UNSUPPORTED: left out \|/);
    const notes = renderFileNotes([without, whole]);
    assert.match(
      notes,
      /compare ops\/s only within a mix; mix A \(every operation\): cassandra; mix B \(without by-name\): redis/,
    );
    assert.match(notes, /^- recipes on redis is valid without by-name: /m);
  });

  it('stores that ran the same mix: plain figures', () => {
    const other = resultOf('scenario', 'hbase', [
      row('by-author', { OK: 600 }),
      refused('by-name', 'a text sort'),
      checked(600),
    ]);
    const table = renderFileTable([without, other]);
    assert.doesNotMatch(table, /mix [AB]/);
    assert.doesNotMatch(renderFileNotes([without, other]), /compare ops\/s only within a mix/);
  });
});

describe('the advice for an operation that never succeeded follows its first error', () => {
  const adviceOf = (sample: string, kind = 'ycsb', standIn = false) =>
    computeVerdict(
      resultOf(kind, 'couchdb', [row('READ', { OK: 10 }), row('UPDATE', { ERROR: 340 }, sample)], {
        standIn,
        properties: { recordcount: 1000, file: 'recipes.yaml' },
      }),
    ).reasons[0]!.fix;

  it('a refused login: the credentials', () => {
    assert.match(adviceOf('NOAUTH Authentication required.'), /fix the user and password in the URL/);
    assert.match(adviceOf('You are not a server admin.'), /fix the user and password in the URL/);
  });

  it('something missing: load or seed it', () => {
    assert.match(
      adviceOf('unconfigured table usertable'),
      /docbench load --store couchdb -P workloade -p recordcount=1000/,
    );
    assert.match(
      adviceOf('Database does not exist.', 'scenario'),
      /seed the store first \(docbench seed scenario recipes\.yaml --store couchdb\)/,
    );
  });

  it('a JavaScript runtime error (pouchdb-server answering its own TypeError): not the credentials', () => {
    const fix = adviceOf("Cannot read properties of undefined (reading '0')", 'scenario', true);
    assert.match(fix, /a JavaScript runtime error, not the store refusing the call/);
    assert.match(fix, /on a stand-in, run it on a real couchdb server \(--url, --docker\)/);
    assert.doesNotMatch(fix, /password|credentials/);
  });

  it('any other error the store answered: read it', () => {
    assert.match(adviceOf('Invalid operator: $regex'), /^the store answered every call with this error/);
  });
});
