/**
 * The statistics core on fixed samples: the distributions against published tables, a median's
 * interval at n = 1, 3, 5, 6 and 10 against its formula worked out here, the ratio of two cells
 * with its interval and verdict (an A/A pair: no difference; a halved throughput: slower; a
 * difference under the practical threshold; one run on a side: cannot tell; latency, where
 * lower is better), and the formatter every output uses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  binomialHalfCdf,
  mannWhitneyCdf,
  normalCdf,
  studentTCdf,
  studentTQuantile,
} from '../../src/stats/distributions.ts';
import { formatRatio, formatSummary, formatVerdict } from '../../src/stats/format.ts';
import { compareSamples } from '../../src/stats/ratio.ts';
import { orderStatisticRank, relativePrecision, summarize } from '../../src/stats/summary.ts';

/** Equal to a relative `tolerance`. */
function near(actual: number | undefined, expected: number, tolerance = 1e-6, what = ''): void {
  assert.ok(actual !== undefined, `${what}: a value`);
  assert.ok(
    Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} is not ${expected}`,
  );
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sd = (xs: readonly number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

describe('distributions', () => {
  it("Student's t quantiles match the printed table (two-sided 95%)", () => {
    // t(0.975, df) from any statistics table.
    for (const [df, t] of [
      [1, 12.7062],
      [2, 4.3027],
      [3, 3.1824],
      [4, 2.7764],
      [5, 2.5706],
      [10, 2.2281],
      [30, 2.0423],
    ] as const)
      near(studentTQuantile(0.975, df), t, 1e-4, `t(0.975, ${df})`);
    near(studentTCdf(0, 3), 0.5, 1e-12, 'symmetric');
    near(studentTCdf(-2.7764451, 4), 0.025, 1e-6, 'lower tail');
    // df = 1 is Cauchy: P(T ≤ 1) = 3/4.
    near(studentTCdf(1, 1), 0.75, 1e-9, 'Cauchy');
  });

  it('binomial(n, ½) and the normal CDF', () => {
    near(binomialHalfCdf(0, 6), 1 / 64, 1e-12, 'P(X ≤ 0), n = 6');
    near(binomialHalfCdf(1, 10), 11 / 1024, 1e-12, 'P(X ≤ 1), n = 10');
    near(binomialHalfCdf(2, 10), 56 / 1024, 1e-12, 'P(X ≤ 2), n = 10');
    near(normalCdf(1.959964), 0.975, 1e-6, 'Φ(1.96)');
    near(normalCdf(-1), 0.158655, 1e-5, 'Φ(−1)');
  });

  it("Mann–Whitney U's exact distribution: the counts are partitions in an m × n box", () => {
    // m = n = 3: C(6, 3) = 20 orders; U = 0 once, U ≤ 1 twice, U ≤ 2 four times.
    const small = mannWhitneyCdf(3, 3);
    assert.deepEqual([0, 1, 2].map(small), [1 / 20, 2 / 20, 4 / 20]);
    // m = n = 6: C(12, 6) = 924; partitions of 0 … 6 into at most 6 parts of at most 6: 1, 1, 2, 3, 5, 7, 11.
    const six = mannWhitneyCdf(6, 6);
    near(six(5), 19 / 924, 1e-12, 'P(U ≤ 5)');
    near(six(6), 30 / 924, 1e-12, 'P(U ≤ 6)');
    assert.equal(six(36), 1);
    // The largest exact case (50 runs) agrees at its 2.5% tail with the normal approximation used
    // beyond it: mean mn/2 = 312.5, sd √(mn(m+n+1)/12) = 51.54, continuity-corrected.
    const exact = mannWhitneyCdf(25, 25);
    near(exact(211), normalCdf((211.5 - 312.5) / Math.sqrt((625 * 51) / 12)), 0.002, 'exact against normal');
    const beyond = mannWhitneyCdf(26, 25);
    near(beyond(221), normalCdf((221.5 - 325) / Math.sqrt((650 * 52) / 12)), 1e-12, 'normal beyond 50 runs');
  });
});

describe("a cell's median and its 95% interval", () => {
  it('n = 1: the figure, no interval, no CoV', () => {
    const s = summarize([1234]);
    assert.deepEqual(
      { n: s.n, median: s.median, interval: s.interval, cov: s.cov },
      { n: 1, median: 1234, interval: undefined, cov: undefined },
    );
    assert.equal(formatSummary(s), '1,234');
  });

  it('n = 3: the t interval on the logarithms, exp(mean ± t(0.975, 2) · sd / √3)', () => {
    const values = [110, 90, 100];
    const s = summarize(values);
    const logs = values.map(Math.log);
    // t(0.975, 2) = 4.302653 (table).
    const half = (4.302653 * sd(logs)) / Math.sqrt(3);
    assert.equal(s.median, 100);
    assert.equal(s.interval!.method, 'log-t');
    near(s.interval!.low, Math.exp(mean(logs) - half), 1e-6, 'low');
    near(s.interval!.high, Math.exp(mean(logs) + half), 1e-6, 'high');
    // By hand: logs 4.49981, 4.60517, 4.70048; mean 4.60182, sd 0.100377, half-width 0.249351.
    near(s.interval!.low, 77.67, 1e-4, 'low by hand');
    near(s.interval!.high, 127.89, 1e-4, 'high by hand');
    // CoV: sd 10 over mean 100.
    near(s.cov, 0.1, 1e-12, 'CoV');
    assert.equal(formatSummary(s), '100 [78, 128] (n=3, CoV 10.0%)');
    assert.equal(formatSummary(s, { brief: true }), '100 [78, 128]');
  });

  it('n = 2 and n = 5 use t(0.975, 1) = 12.706 and t(0.975, 4) = 2.776', () => {
    for (const [values, t] of [
      [[1000, 1100], 12.706205],
      [[95, 100, 102, 98, 120], 2.776445],
    ] as const) {
      const logs = values.map(Math.log);
      const half = (t * sd(logs)) / Math.sqrt(values.length);
      const s = summarize(values);
      near(s.interval!.low, Math.exp(mean(logs) - half), 1e-6, `n = ${values.length} low`);
      near(s.interval!.high, Math.exp(mean(logs) + half), 1e-6, `n = ${values.length} high`);
    }
  });

  it('n ≥ 6: the order statistics [x(k), x(n−k+1)] with their exact coverage (binomial tables)', () => {
    // k from the usual table of distribution-free intervals of a median at ≥ 95%.
    assert.deepEqual([5, 6, 7, 8, 9, 10, 15, 20].map(orderStatisticRank), [undefined, 1, 1, 1, 2, 2, 4, 6]);
    const six = summarize([60, 10, 30, 20, 50, 40]);
    assert.deepEqual(six.interval, { low: 10, high: 60, method: 'order-statistics', coverage: 1 - 2 / 64 });
    const ten = summarize([9, 1, 8, 2, 7, 3, 6, 4, 5, 10]);
    assert.equal(ten.median, 5.5);
    assert.deepEqual(ten.interval, { low: 2, high: 9, method: 'order-statistics', coverage: 1 - (2 * 11) / 1024 });
  });

  it("precision: the interval's larger half-width over the median; none for one run", () => {
    // [min, max] of six runs around a median of 100: 20 above, 10 below.
    near(relativePrecision(summarize([90, 95, 99, 101, 110, 120])), 0.2, 1e-12, 'precision');
    assert.equal(relativePrecision(summarize([100])), undefined);
  });

  it('identical runs: a zero-width interval and a CoV of 0; a run of 0 below six runs: no log interval, and why', () => {
    const same = summarize([1023, 1023, 1023]);
    assert.deepEqual([same.interval!.low, same.interval!.high, same.cov], [1023, 1023, 0]);
    const zero = summarize([0, 10, 12]);
    assert.equal(zero.interval, undefined);
    assert.match(zero.noInterval!, /measured 0/);
  });
});

describe('B against A: the ratio of medians, its interval, the verdict', () => {
  const higher = { direction: 'higher-is-better' as const };

  it('an A/A pair (the same noise on both sides): no difference this run can show', () => {
    const c = compareSamples([1000, 1040, 970], [1010, 980, 1030], higher);
    assert.equal(c.verdict, 'no difference');
    assert.ok(c.interval!.low < 1 && c.interval!.high > 1);
    assert.equal(formatVerdict(c), 'no difference this run can show');
  });

  it("a halved throughput: slower, and Welch's interval on the logarithms by hand", () => {
    const a = [1000, 1040, 970];
    const b = a.map((x) => x / 2);
    const c = compareSamples(a, b, higher);
    assert.equal(c.verdict, 'slower');
    assert.equal(c.ratio, 0.5);
    // Equal log variances v on both sides: se = √(2v/3), Welch's df = 4, t(0.975, 4) = 2.776445.
    const v = sd(a.map(Math.log)) ** 2;
    const half = 2.776445 * Math.sqrt((2 * v) / 3);
    near(c.interval!.low, 0.5 * Math.exp(-half), 1e-6, 'low');
    near(c.interval!.high, 0.5 * Math.exp(half), 1e-6, 'high');
    assert.equal(c.interval!.method, 'welch-log-t');
    // By hand: v = 0.001221, half-width 2.776445 · √(2v/3) = 0.0792, so 0.5 · e^(±0.0792).
    assert.equal(formatRatio(c), '0.50× [0.46, 0.54]');
    // And the other way round: faster.
    assert.equal(compareSamples(b, a, higher).verdict, 'faster');
  });

  it('a real but small difference (3%, tight runs) is no difference under the 5% threshold, and faster under 1%', () => {
    const a = [1000, 1001, 1002];
    const b = [1030, 1031, 1032];
    const c = compareSamples(a, b, higher);
    assert.equal(c.significant, true);
    assert.equal(c.verdict, 'no difference');
    assert.equal(compareSamples(a, b, { ...higher, minEffect: 0.01 }).verdict, 'faster');
  });

  it('one run on either side: cannot tell, a ratio and no interval', () => {
    for (const [a, b] of [
      [[1000], [500, 510, 490]],
      [[1000, 1010, 990], [500]],
      [[1000], [500]],
    ]) {
      const c = compareSamples(a!, b!, higher);
      assert.equal(c.verdict, 'cannot tell');
      assert.equal(c.interval, undefined);
      assert.equal(c.ratio, 0.5);
      assert.equal(formatVerdict(c), 'cannot tell: one run cannot show a difference');
      assert.equal(formatRatio(c), '0.50×');
    }
  });

  it('latency: lower is better, so a halved p99 is faster', () => {
    const c = compareSamples([2000, 2100, 1950], [1000, 1050, 975], { direction: 'lower-is-better' });
    assert.equal(c.verdict, 'faster');
  });

  it('ties: identical samples give a ratio of 1 and no difference', () => {
    const c = compareSamples([500, 510, 490], [510, 490, 500], higher);
    assert.equal(c.ratio, 1);
    assert.equal(c.verdict, 'no difference');
  });

  it("both sides n ≥ 6: the Hodges–Lehmann interval, cut at the Mann–Whitney table's ranks", () => {
    // n1 = n2 = 6: the two-sided 5% critical value of U is 5 (table), so the interval runs from the
    // 6th smallest of the 36 pairwise ratios b_j / a_i to the 6th largest; coverage 1 − 2 · 19/924.
    const a = [100, 103, 98, 101, 97, 104];
    const b = [150, 149, 158, 152, 146, 155];
    const ratios = a.flatMap((x) => b.map((y) => y / x)).sort((p, q) => p - q);
    const c = compareSamples(a, b, higher);
    assert.equal(c.interval!.method, 'hodges-lehmann');
    near(c.interval!.low, ratios[5]!, 1e-12, 'low');
    near(c.interval!.high, ratios[30]!, 1e-12, 'high');
    near(c.interval!.coverage, 1 - (2 * 19) / 924, 1e-12, 'coverage');
    near(c.ratio, 151 / 100.5, 1e-12, 'ratio of medians');
    assert.equal(c.verdict, 'faster');
    // Overlapping samples of 8 against 8: no difference.
    const same = compareSamples([10, 12, 11, 13, 9, 10, 12, 11], [11, 10, 12, 13, 10, 9, 11, 12], higher);
    assert.equal(same.verdict, 'no difference');
  });

  it('a side of 6 against a side of 3 uses the t interval on the logarithms', () => {
    const c = compareSamples([100, 103, 98, 101, 97, 104], [50, 52, 49], higher);
    assert.equal(c.interval!.method, 'welch-log-t');
    assert.equal(c.verdict, 'slower');
  });
});
