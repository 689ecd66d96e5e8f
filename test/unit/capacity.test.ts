/**
 * The capacity search's pure parts: the budget's grammar, which rate comes next (coarse steps,
 * then a bisection to the precision asked), how long a step must measure for its percentile, the
 * early stop that fires only once a miss is certain, and the judgment of a step's result.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EarlyStop } from '../../src/capacity/early-stop.ts';
import { nextRate, roundRate, stepSeconds, type SearchSettings, type Tried } from '../../src/capacity/plan.ts';
import { newLatencyHistogram, valueAtPercentile } from '../../src/measure/histogram.ts';
import { IntervalRows } from '../../src/measure/interval-rows.ts';
import { bracketOf, capacityCurves, judgeStep } from '../../src/report/capacity-curves.ts';
import { storeLabel } from '../../src/report/groups.ts';
import { latencyPercentile } from '../../src/report/percentiles.ts';
import { formatLatencyBudget, parseErrorBudget, parseLatencyBudget, SloError } from '../../src/results/slo.ts';
import { RunControl } from '../../src/runner/run-control.ts';
import { stepResult } from '../support/capacity-steps.ts';

describe('latency and error budgets', () => {
  it('reads percentiles, limits in us, ms or s, several clauses and one operation kind', () => {
    assert.deepEqual(parseLatencyBudget('p99<=5ms'), [{ percentile: 99, limitUs: 5000 }]);
    assert.deepEqual(parseLatencyBudget('p99.9 <= 20ms, read:p50<=800us,p99.99<=1s'), [
      { percentile: 99.9, limitUs: 20_000 },
      { operation: 'READ', percentile: 50, limitUs: 800 },
      { percentile: 99.99, limitUs: 1_000_000 },
    ]);
    assert.equal(formatLatencyBudget(parseLatencyBudget('p99<=5ms,READ:p50<=800us')), 'p99<=5ms,READ:p50<=800us');
    assert.equal(parseErrorBudget('0.1%'), 0.001);
    assert.equal(parseErrorBudget('0.02'), 0.02);
  });

  for (const bad of [
    '',
    'p99',
    'p99<5ms',
    'p100<=5ms',
    'p0<=1ms',
    'p99<=5',
    'p99<=5 minutes',
    '99<=5ms',
    'p99<=0.1us',
  ]) {
    it(`refuses "${bad}" in one line naming --slo`, () => {
      assert.throws(
        () => parseLatencyBudget(bad),
        (e: unknown) => e instanceof SloError && /^--slo: /.test(e.message) && !e.message.includes('\n'),
      );
    });
  }
  for (const bad of ['2', '-1%', 'lots', '101%']) {
    it(`refuses the error budget "${bad}"`, () =>
      assert.throws(() => parseErrorBudget(bad), /^SloError: --error-budget: expected the share/));
  }
});

/** The coarse steps and the bisection alone (`--retries 0`); the retry is test/unit/capacity-repeated.test.ts's. */
const SEARCH: SearchSettings = {
  start: 1000,
  growth: 2,
  precision: 0.1,
  maxRate: 1_000_000,
  minRate: 1,
  maxSteps: 30,
  retries: 0,
};

/** Run the search against a store that holds every rate up to `capacity`. */
function search(capacity: number, settings = SEARCH): Tried[] {
  const tried: Tried[] = [];
  for (let rate = nextRate(tried, settings); rate !== undefined; rate = nextRate(tried, settings))
    tried.push({ targetOpsPerSec: rate, held: rate <= capacity });
  return tried;
}

describe('the search', () => {
  it('climbs in coarse steps, then bisects until the failure is within the precision of what held', () => {
    const tried = search(13_700);
    assert.deepEqual(
      tried.slice(0, 6).map((t) => t.targetOpsPerSec),
      [1000, 2000, 4000, 8000, 16_000, 12_000],
    );
    const { highestHeld, lowestFailed } = bracketOf(tried);
    assert.ok(highestHeld! <= 13_700 && lowestFailed! > 13_700, `bracket ${highestHeld}–${lowestFailed}`);
    assert.ok((lowestFailed! - highestHeld!) / highestHeld! <= 0.1);
  });

  it('comes down when the first rate fails, and says nothing held when the floor fails', () => {
    const tried = search(300);
    assert.deepEqual(
      tried.slice(0, 3).map((t) => t.targetOpsPerSec),
      [1000, 500, 250],
    );
    assert.ok(bracketOf(tried).highestHeld! <= 300);
    const none = search(0, { ...SEARCH, minRate: 100 });
    assert.equal(bracketOf(none).highestHeld, undefined);
    assert.equal(none.at(-1)!.targetOpsPerSec, 100);
  });

  it('ends at the ceiling when it holds, and after maxSteps in any case', () => {
    const capped = search(1e9, { ...SEARCH, maxRate: 5000 });
    assert.deepEqual(
      capped.map((t) => t.targetOpsPerSec),
      [1000, 2000, 4000, 5000],
    );
    assert.equal(search(13_700, { ...SEARCH, maxSteps: 4 }).length, 4);
  });

  it('a rate that held above one that failed (noise) is not the capacity', () => {
    assert.deepEqual(
      bracketOf([
        { targetOpsPerSec: 1000, held: true },
        { targetOpsPerSec: 2000, held: false },
        { targetOpsPerSec: 3000, held: true },
      ]),
      { highestHeld: 1000, lowestFailed: 2000 },
    );
  });

  it('rounds rates to two significant digits above 100 ops/s', () => {
    assert.equal(roundRate(12_345), 12_000);
    assert.equal(roundRate(1550), 1600);
    assert.equal(roundRate(87.4), 87);
  });

  it('measures long enough for 100 samples beyond the judged percentile, within bounds', () => {
    assert.deepEqual(stepSeconds(1000, 99, { minSeconds: 5, maxSeconds: 60 }), { seconds: 10, short: false });
    assert.deepEqual(stepSeconds(50_000, 99, { minSeconds: 5, maxSeconds: 60 }), { seconds: 5, short: false });
    assert.deepEqual(stepSeconds(100, 99.9, { minSeconds: 5, maxSeconds: 60 }), { seconds: 60, short: true });
  });
});

describe('the early stop', () => {
  const slo = { clauses: parseLatencyBudget('p99<=5ms'), errorBudget: 0.001 };

  function second(latenciesUs: number[], failed = 0): IntervalRows {
    const rows = new IntervalRows();
    const h = rows.histogramOf('Intended-READ');
    for (const v of latenciesUs) h.recordValue(v);
    rows.addCount('READ', 'OK', latenciesUs.length);
    rows.addCount('READ', 'TIMEOUT', failed);
    return rows;
  }

  it('waits while the rest of the step could still bring the percentile within the budget', () => {
    const control = new RunControl();
    const stop = new EarlyStop(slo, 10_000);
    // 99 slow operations of 10,000 planned: 1% may be slow, so p99 can still end within 5 ms.
    stop.second(second([...Array(901).fill(1000), ...Array(99).fill(50_000)]), true, control);
    assert.equal(control.stopped, false);
    assert.equal(stop.detail, undefined);
  });

  it('stops once more slow operations than the percentile allows of the whole step were measured', () => {
    const control = new RunControl();
    const stop = new EarlyStop(slo, 10_000);
    stop.second(second([...Array(898).fill(1000), ...Array(102).fill(50_000)]), true, control);
    assert.equal(control.stopped, true);
    assert.equal(control.stopReason, 'latency-budget');
    assert.match(stop.detail!, /Intended-READ p99 can no longer be within 5000 µs/);
    // And it was right: whatever the other 9,000 operations take, p99 is over the limit.
    const best = newLatencyHistogram();
    best.recordValueWithCount(1, 9000);
    best.recordValueWithCount(1000, 898);
    best.recordValueWithCount(50_000, 102);
    assert.ok(valueAtPercentile(best, 99) > 5000);
  });

  it('ignores warm-up, and stops when failures pass the error budget of the planned operations', () => {
    const control = new RunControl();
    const stop = new EarlyStop(slo, 10_000);
    stop.second(second(Array(500).fill(1000), 50), false, control);
    assert.equal(control.stopped, false, 'warm-up');
    stop.second(second(Array(500).fill(1000), 11), true, control);
    assert.equal(control.stopped, true);
    assert.match(stop.detail!, /11 operations failed/);
  });
});

describe('judging steps', () => {
  it('holds within the budget, fails over it, and judges with the one percentile function', () => {
    const held = judgeStep(stepResult(1000, 1, 2000, 5000));
    assert.equal(held.held, true, held.why.join('; '));
    assert.equal(held.judged[0]!.valueUs, latencyPercentile([held.result], 'Intended-READ', 99));
    const slow = judgeStep(stepResult(2000, 2, 8000, 5000));
    assert.equal(slow.held, false);
    assert.match(slow.why.join(';'), /Intended-READ p99 .* > 5 ms/);
    const failing = judgeStep(stepResult(1000, 3, 1000, 5000, 50));
    assert.equal(failing.held, false);
    assert.match(failing.why.join(';'), /1% of operations failed, over the error budget of 0.1%/);
  });

  it('an invalid step never holds, and the curve keeps the highest rate that held below every failure', () => {
    const invalid = stepResult(3000, 4, 1000, 5000, 5000);
    assert.equal(invalid.verdict!.status, 'invalid');
    const curves = capacityCurves(
      [stepResult(1000, 1, 2000, 5000), stepResult(2000, 2, 8000, 5000), invalid, stepResult(1500, 3, 3000, 5000)],
      storeLabel,
    );
    assert.equal(curves.length, 1);
    assert.equal(curves[0]!.steps.find((s) => s.step === 4)!.held, false);
    assert.equal(curves[0]!.highestHeld, 1500);
    assert.equal(curves[0]!.lowestFailed, 2000);
  });
});
