/**
 * `docbench capacity` on the local Redis, end to end: the step results, `capacity.json` (its
 * schema, every judged figure the one percentile function's over its step's result file), the
 * table, the report; a budget no store can keep, whose steps stop early once certain, are tried
 * again, and never hold; and repeated searches in rounds, summarised as a median with its range. Budgets are chosen so that the outcome does not depend on how busy the machine is.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { capacitySummarySchema } from '../../src/capacity/summary.ts';
import { latencyPercentile } from '../../src/report/percentiles.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-capacity-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const skip = testsStore('redis') ? false : 'redis is not among the stores under test';
const common = [
  '--stores',
  'redis',
  '-P',
  'workloada',
  '-p',
  'recordcount=500',
  '-p',
  'table=capacitytest',
  '--threads',
  '8',
  '--warmup',
  '1',
  '--min-seconds',
  '2',
  '--max-seconds',
  '3',
  '-q',
];

describe('docbench capacity', { skip }, () => {
  it('writes each step, the curve as rows judged from the step results, a table and a report', () => {
    const out = join(dir, 'held');
    const run = runDocbench(
      ['capacity', ...common, '--slo', 'p99<=5s', '--start', '100', '--max-steps', '2', '--out-dir', out],
      { timeoutMs: 180_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /highest rate that held \(ops\/s\)/);
    const summary = capacitySummarySchema.parse(JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')));
    assert.equal(summary.stores.length, 1);
    assert.equal(summary.stores[0]!.store.name, 'redis');
    assert.equal(summary.stores[0]!.searches.length, 1);
    const redis = summary.stores[0]!.searches[0]!;
    assert.deepEqual(
      redis.steps.map((s) => s.targetOpsPerSec),
      [100, 200],
    );
    assert.equal(redis.highestHeldOpsPerSec, 200, 'a 5 s budget holds at 200 ops/s');
    assert.equal(summary.stores[0]!.capacity.medianOpsPerSec, 200);
    for (const step of redis.steps) {
      const result = resultSchema.parse(JSON.parse(readFileSync(join(out, step.file), 'utf8')));
      assert.equal(result.workload.properties.target, step.targetOpsPerSec);
      assert.equal(result.verdict!.status, 'valid');
      assert.ok(result.operationSeries!.t.length >= 2, 'a per-operation series every second');
      for (const judged of step.judged)
        assert.equal(
          judged.valueUs,
          latencyPercentile([result], judged.row, judged.percentile),
          `${judged.row}: the one percentile`,
        );
      assert.deepEqual(judgedRows(step), ['Intended-READ', 'Intended-UPDATE']);
    }
    assert.ok(existsSync(join(out, 'report.html')));
    assert.ok(existsSync(join(out, 'capacity.md')));
  });

  it('stops a step early once its budget is certain to be missed, and never counts it as held', () => {
    const out = join(dir, 'blown');
    const run = runDocbench(
      [
        'capacity',
        ...common,
        '--slo',
        'p99<=1us',
        '--start',
        '400',
        '--max-steps',
        '3',
        '--min-seconds',
        '10',
        '--max-seconds',
        '10',
        '--out-dir',
        out,
      ],
      { timeoutMs: 180_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = capacitySummarySchema.parse(JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')));
    const redis = summary.stores[0]!.searches[0]!;
    assert.deepEqual(
      redis.steps.map((s) => [s.targetOpsPerSec, s.attempt]),
      [
        [400, 1],
        [400, 2],
        [200, 1],
      ],
      'a failed first step is tried again, then the rate halves',
    );
    assert.equal(redis.highestHeldOpsPerSec, undefined);
    assert.equal(summary.stores[0]!.capacity.medianOpsPerSec, 0, 'none held');
    for (const step of redis.steps) {
      assert.equal(step.held, false);
      assert.equal(step.stoppedEarly, true, 'no Redis answers in 1 µs: certain after the first second');
      assert.ok(step.measuredSeconds < 10, `stopped before its 10 s (${step.measuredSeconds} s)`);
      assert.equal(step.verdict.status, 'valid', 'a step stopped early is still a measurement');
    }
  });

  it('--repetitions 2 searches each store twice, in seeded rounds, and gives its capacity as a median with its range', () => {
    const out = join(dir, 'repeated');
    const run = runDocbench(
      [
        'capacity',
        ...common,
        '--slo',
        'p99<=5s',
        '--start',
        '100',
        '--max-steps',
        '2',
        '--repetitions',
        '2',
        '--order-seed',
        '5',
        '--out-dir',
        out,
      ],
      { timeoutMs: 180_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /capacity \(ops\/s\): median \[min–max\]/);
    const summary = capacitySummarySchema.parse(JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')));
    assert.equal(summary.stores.length, 1);
    const { capacity, searches } = summary.stores[0]!;
    assert.deepEqual(
      searches.map((s) => s.round),
      [1, 2],
    );
    for (const search of searches) {
      assert.equal(search.steps.length, 2);
      for (const step of search.steps) {
        const result = resultSchema.parse(JSON.parse(readFileSync(join(out, step.file), 'utf8')));
        assert.deepEqual(result.repetition, { round: search.round, rounds: 2, position: 1, order: ['redis'], seed: 5 });
      }
    }
    assert.equal(capacity.searches, 2);
    assert.equal(capacity.n, 2);
    const figures = searches.map((s) => s.highestHeldOpsPerSec ?? 0).sort((a, b) => a - b);
    assert.equal(capacity.minOpsPerSec, figures[0]);
    assert.equal(capacity.maxOpsPerSec, figures[1]);
    assert.equal(capacity.medianOpsPerSec, (figures[0]! + figures[1]!) / 2);
    // Two searches agree, or the summary says they do not and why.
    if (capacity.unstable) assert.match(capacity.why!, /^search \d held .* failed at/);
    else assert.equal(capacity.agreedOpsPerSec?.low, capacity.maxOpsPerSec, 'every bracket holds the highest figure');
  });
});

describe('docbench capacity --http (k6 against docbench serve)', { skip }, () => {
  it("runs each step through k6's open model and judges k6's request durations, dropped iterations as failures", () => {
    const out = join(dir, 'http');
    const run = runDocbench(
      ['capacity', ...common, '--http', '--slo', 'p99<=5s', '--start', '50', '--max-steps', '2', '--out-dir', out],
      { timeoutMs: 300_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = capacitySummarySchema.parse(JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')));
    const redis = summary.stores[0]!.searches[0]!;
    // Whether k6 keeps up with its arrival rate depends on how busy the machine is (a late
    // iteration is dropped, and dropped iterations count as failures), so the outcome of each
    // step is not asserted: only that each step is judged by its own figures, and the search
    // and the summary follow from those judgements.
    assert.equal(redis.steps.length, 2);
    assert.equal(redis.steps[0]!.targetOpsPerSec, 50);
    assert.equal(
      redis.steps[1]!.targetOpsPerSec,
      redis.steps[0]!.held ? 100 : 50,
      'a held step doubles the rate, a failed one is tried again',
    );
    const held = redis.steps.filter((s) => s.held).map((s) => s.targetOpsPerSec);
    assert.equal(redis.highestHeldOpsPerSec, held.length > 0 ? Math.max(...held) : undefined);
    for (const step of redis.steps) {
      const withinBudget = step.judged.every((j) => j.ok === j.valueUs <= j.limitUs) && step.judged.every((j) => j.ok);
      if (step.held)
        assert.ok(withinBudget && step.errorRate <= summary.errorBudget, `step ${step.step} held within its budgets`);
      else assert.ok(step.why.length > 0, `step ${step.step}: a step that did not hold says why`);
      const result = resultSchema.parse(JSON.parse(readFileSync(join(out, step.file), 'utf8')));
      assert.equal(result.mode, 'http');
      assert.equal(typeof result.workload.properties['capacity.dropped'], 'number', 'dropped iterations recorded');
      assert.deepEqual(judgedRows(step), ['READ', 'UPDATE'], "k6's own rows: there is no Intended- row end to end");
      for (const judged of step.judged)
        assert.equal(
          judged.valueUs,
          latencyPercentile([result], judged.row, judged.percentile),
          `${judged.row}: k6's percentile as every output shows it`,
        );
      assert.ok(result.notes.some((n) => n.includes('warmed the service up')));
    }
  });
});

function judgedRows(step: { judged: { row: string }[] }): string[] {
  return [...new Set(step.judged.map((j) => j.row))].sort();
}
