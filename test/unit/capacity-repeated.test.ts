/**
 * A capacity search that repeats: a step that did not hold is tried again before the search
 * brackets below it, and repeated searches of a store become a median with its range, marked
 * unstable when one search held at a rate another failed at. Pure functions on fixed inputs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capacitySummary, capacitySummarySchema } from '../../src/capacity/summary.ts';
import { nextRate, retryRate, type SearchSettings, type Tried } from '../../src/capacity/plan.ts';
import { bracketOf, capacityCurves } from '../../src/report/capacity-curves.ts';
import {
  capacityOverSearches,
  capacitySpread,
  formatAgreement,
  formatSpread,
  type SearchBracket,
} from '../../src/report/capacity-spread.ts';
import { renderCapacityTable } from '../../src/report/capacity-table.ts';
import { storeLabel } from '../../src/report/groups.ts';
import type { Repetition } from '../../src/results/schema.ts';
import { stepResult } from '../support/capacity-steps.ts';

const SEARCH: SearchSettings = {
  start: 1000,
  growth: 2,
  precision: 0.1,
  maxRate: 1_000_000,
  minRate: 1,
  maxSteps: 30,
  retries: 1,
};

/** Run the search against a store whose step at `rate`, the `attempt`-th try at that rate, holds when `holds` says so. */
function search(holds: (rate: number, attempt: number) => boolean, settings = SEARCH): Tried[] {
  const tried: Tried[] = [];
  for (let rate = nextRate(tried, settings); rate !== undefined; rate = nextRate(tried, settings)) {
    const attempt = 1 + tried.filter((t) => t.targetOpsPerSec === rate).length;
    tried.push({ targetOpsPerSec: rate, held: holds(rate, attempt) });
  }
  return tried;
}

const rates = (tried: readonly Tried[]) => tried.map((t) => t.targetOpsPerSec);

describe('the retry', () => {
  it('tries a rate that did not hold once more before bracketing below it', () => {
    const tried = search((rate) => rate <= 13_700);
    assert.deepEqual(rates(tried), [1000, 2000, 4000, 8000, 16_000, 16_000, 12_000, 14_000, 14_000, 13_000]);
    assert.deepEqual(bracketOf(tried), { highestHeld: 13_000, lowestFailed: 14_000 });
  });

  it('climbs on past a stall that the retry does not meet, where a search without it never climbs back', () => {
    // The first try at 2,000 ops/s meets a neighbour's stall; every other step up to 13,700 holds.
    const stall = (rate: number, attempt: number) => rate <= 13_700 && !(rate === 2000 && attempt === 1);
    const tried = search(stall);
    assert.deepEqual(rates(tried).slice(0, 4), [1000, 2000, 2000, 4000]);
    assert.deepEqual(bracketOf(tried), { highestHeld: 13_000, lowestFailed: 14_000 });
    const once = search(stall, { ...SEARCH, retries: 0 });
    assert.deepEqual(bracketOf(once), { highestHeld: 1900, lowestFailed: 2000 }, 'bracketed below the stall');
  });

  it('a rate held on its retry counts as held; failed on every try, as failed', () => {
    assert.deepEqual(
      bracketOf([
        { targetOpsPerSec: 1000, held: true },
        { targetOpsPerSec: 2000, held: false },
        { targetOpsPerSec: 2000, held: true },
        { targetOpsPerSec: 4000, held: false },
        { targetOpsPerSec: 4000, held: false },
      ]),
      { highestHeld: 2000, lowestFailed: 4000 },
    );
  });

  it('retries only after a step that did not hold, as many times as asked, never a held rate', () => {
    const failedOnce: Tried[] = [{ targetOpsPerSec: 1000, held: false }];
    assert.equal(retryRate(failedOnce, 1), 1000);
    assert.equal(retryRate(failedOnce, 0), undefined);
    const failedTwice: Tried[] = [...failedOnce, { targetOpsPerSec: 1000, held: false }];
    assert.equal(retryRate(failedTwice, 1), undefined);
    assert.equal(retryRate(failedTwice, 2), 1000);
    assert.equal(retryRate([{ targetOpsPerSec: 1000, held: true }], 1), undefined);
    assert.equal(nextRate(failedTwice, SEARCH), 500, 'failed on both tries: the search comes down');
  });

  it('counts each retry as a step against --max-steps', () => {
    const tried = search((rate) => rate <= 13_700, { ...SEARCH, maxSteps: 6 });
    assert.deepEqual(rates(tried), [1000, 2000, 4000, 8000, 16_000, 16_000]);
    assert.equal(search((rate) => rate <= 13_700, { ...SEARCH, maxSteps: 5 }).length, 5);
  });
});

const bracket = (round: number, highestHeld?: number, lowestFailed?: number, valid = true): SearchBracket => ({
  round,
  ...(highestHeld !== undefined ? { highestHeld } : {}),
  ...(lowestFailed !== undefined ? { lowestFailed } : {}),
  valid,
});

describe('repeated searches', () => {
  it('agree when one rate lies in every bracket: the median, the range, n and the rates they share', () => {
    const s = capacitySpread([bracket(1, 48_000, 52_000), bracket(2, 50_000, 54_000), bracket(3, 49_000, 53_000)]);
    assert.equal(s.n, 3);
    assert.equal(s.median, 49_000);
    assert.equal(s.min, 48_000);
    assert.equal(s.max, 50_000);
    assert.equal(s.unstable, false);
    assert.deepEqual(s.agreed, { low: 50_000, high: 52_000 });
    assert.equal(formatSpread(s), '49,000 [48,000–50,000]');
    assert.equal(formatAgreement(s), 'yes: every search brackets 50,000–52,000');
  });

  it("are unstable when one held at a rate another failed at: the README's two Redis and Cassandra searches", () => {
    const redis = capacitySpread([bracket(1, 48_000, 52_000), bracket(2, 60_000, 64_000)]);
    assert.equal(redis.unstable, true);
    assert.equal(redis.median, 54_000, 'an even n: the mean of the two middle figures');
    assert.deepEqual([redis.min, redis.max], [48_000, 60_000]);
    assert.equal(redis.why, 'search 2 held 60,000 ops/s, search 1 failed at 52,000');
    assert.equal(redis.agreed, undefined);
    assert.match(formatAgreement(redis), /^UNSTABLE: search 2 held 60,000/);
    assert.equal(capacitySpread([bracket(1, 940, 1000), bracket(2, 3500, 3800)]).unstable, true);
  });

  it('held at the very rate another failed at is a contradiction; brackets that touch no rate in common are not', () => {
    assert.equal(capacitySpread([bracket(1, 44_000, 48_000), bracket(2, 48_000, 52_000)]).unstable, true);
    assert.equal(capacitySpread([bracket(1, 44_000, 48_000), bracket(2, 47_000, 52_000)]).unstable, false);
  });

  it('a search where nothing held counts 0, and contradicts one that held above its failure', () => {
    const s = capacitySpread([bracket(1, undefined, 100), bracket(2, 500, 1000), bracket(3, 450, 500)]);
    assert.equal(s.min, 0);
    assert.equal(s.median, 450);
    assert.equal(s.unstable, true);
    assert.equal(formatSpread(s), '450 [none held–500]');
    assert.equal(capacitySpread([bracket(1, undefined, 100), bracket(2, undefined, 90)]).unstable, false);
  });

  it('searches whose highest rate tried held are lower bounds, and agree above the highest', () => {
    const s = capacitySpread([bracket(1, 200), bracket(2, 200)]);
    assert.equal(s.lowerBounds, 2);
    assert.equal(s.unstable, false);
    assert.deepEqual(s.agreed, { low: 200 });
    assert.equal(formatSpread(s), '200 [200–200] (2 of 2 a lower bound: the highest rate tried held)');
    assert.equal(capacitySpread([bracket(1, 400), bracket(2, 200, 300)]).unstable, true);
  });

  it('a search that met an invalid step gives no figure; one search has no agreement to show', () => {
    const s = capacitySpread([bracket(1, 1000, 1100), bracket(2, 5000, 5500, false)]);
    assert.equal(s.searches, 2);
    assert.equal(s.n, 1);
    assert.equal(s.median, 1000);
    assert.equal(s.unstable, false);
    assert.equal(formatAgreement(s), 'one search; 1 of 2 met an invalid step (no figure)');
    const none = capacitySpread([bracket(1, 1000, 1100, false)]);
    assert.equal(none.median, undefined);
    assert.equal(formatSpread(none), 'no valid search');
  });
});

describe('repeated searches from their step results', () => {
  const place = (round: number, order: string[] = ['basic']): Repetition => ({
    round,
    rounds: 2,
    position: 1,
    order,
    seed: 7,
  });
  // Round 1: 1,000 held, 2,000 failed twice, 1,500 held. Round 2: 1,000 held, 2,000 failed then held on its retry.
  const results = [
    stepResult(1000, 1, 2000, 5000, 0, place(1)),
    stepResult(2000, 2, 8000, 5000, 0, place(1)),
    stepResult(2000, 3, 8000, 5000, 0, place(1)),
    stepResult(1500, 4, 2000, 5000, 0, place(1)),
    stepResult(1000, 1, 2000, 5000, 0, place(2)),
    stepResult(2000, 2, 8000, 5000, 0, place(2)),
    stepResult(2000, 3, 2000, 5000, 0, place(2)),
  ];

  it('one curve per round, each step numbered by its try at its rate', () => {
    const curves = capacityCurves(results, storeLabel);
    assert.deepEqual(
      curves.map((c) => [c.round, c.highestHeld, c.lowestFailed]),
      [
        [1, 1500, 2000],
        [2, 2000, undefined],
      ],
    );
    assert.deepEqual(
      curves[0]!.steps.map((s) => s.attempt),
      [1, 1, 2, 1],
    );
  });

  it('the summary file gives per store the median [min–max], n and whether the searches agree; the table too', () => {
    const curves = capacityCurves(results, storeLabel);
    const summary = capacitySummarySchema.parse(capacitySummary(curves, () => 'step.json'));
    assert.equal(summary.stores.length, 1);
    const basic = summary.stores[0]!;
    assert.deepEqual(
      basic.searches.map((s) => [s.round, s.highestHeldOpsPerSec, s.steps.length]),
      [
        [1, 1500, 4],
        [2, 2000, 3],
      ],
    );
    assert.equal(basic.searches[1]!.steps[2]!.attempt, 2);
    // Search 2 held at 2,000, where search 1 failed on both tries.
    assert.deepEqual(
      { ...basic.capacity },
      {
        searches: 2,
        n: 2,
        medianOpsPerSec: 1750,
        minOpsPerSec: 1500,
        maxOpsPerSec: 2000,
        lowerBounds: 1,
        unstable: true,
        why: 'search 2 held 2,000 ops/s, search 1 failed at 2,000',
      },
    );
    const table = renderCapacityTable(curves);
    assert.match(
      table,
      /\| basic +\| workloada +\| +1,750 \[1,500–2,000\] \(1 of 2 a lower bound[^|]*\| +2 \| UNSTABLE: search 2 held 2,000/,
    );
    assert.match(table, /\| basic #2 +\| 3 +\| +2 \| +2,000 \|.*\| +yes \(on a retry\) \|/);
    assert.match(table, /no, tried again: Intended-READ p99/);
    assert.equal(capacityOverSearches(curves)[0]!.curves.length, 2);
  });
});
