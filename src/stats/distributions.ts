/**
 * The few distributions docbench's intervals need, computed exactly or to double precision
 * (no sampling, so the same runs always give the same interval): Student's t for the log-scale
 * intervals of a handful of runs, the binomial(n, ½) behind a median's order-statistic interval,
 * and the null distribution of the Mann–Whitney U statistic behind the interval of a ratio.
 * Pure code, no I/O.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x), x > 0 (Lanczos, g = 7: about 15 correct digits). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The continued fraction of the incomplete beta function (modified Lentz), converging for x < (a+1)/(a+b+2). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let step = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + step * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + step / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    step = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + step * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + step / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (df > 0, not necessarily whole: Welch's). */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The t with P(T ≤ t) = p, for p in (0.5, 1): bisection on the CDF, to a relative 1e-12 (the
 * quantiles are few and small: a comparison asks for one).
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0.5 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0.5, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile: df must be > 0, got ${df}`);
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2;
  for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
    const middle = (low + high) / 2;
    if (studentTCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** P(X ≤ k) for X ~ binomial(n, ½): how often the k-th smallest of n runs lies above the true median. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  // Terms C(n, i) / 2^n in logs: exact enough for any n a benchmark repeats.
  let total = 0;
  for (let i = 0; i <= k; i++) total += Math.exp(lnChoose(n, i) - n * Math.LN2);
  return Math.min(1, total);
}

function lnChoose(n: number, k: number): number {
  return lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);
}

/** Above this many runs in all, U's distribution is taken as normal (its exact counts outgrow a double). */
const EXACT_U_MAX_RUNS = 50;

/**
 * The Mann–Whitney U statistic's null distribution for samples of m and n without ties, as a
 * function k -> P(U ≤ k). Exact for m + n ≤ 50: the counts of U are the coefficients of the
 * Gaussian binomial coefficient [m+n choose m]_q, built as ∏ (1 − q^(n+i)) / (1 − q^i), i = 1 … m;
 * beyond, the normal approximation with continuity correction.
 */
export function mannWhitneyCdf(m: number, n: number): (k: number) => number {
  const max = m * n;
  if (m + n > EXACT_U_MAX_RUNS) {
    const mean = max / 2;
    const sd = Math.sqrt((m * n * (m + n + 1)) / 12);
    return (k) => (k < 0 ? 0 : k >= max ? 1 : normalCdf((k + 0.5 - mean) / sd));
  }
  let counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let i = 1; i <= m; i++) {
    // Multiply by (1 − q^(n+i)), then divide by (1 − q^i): the result stays a polynomial.
    const next = new Float64Array(max + 1);
    for (let u = 0; u <= max; u++) next[u] = counts[u]! - (u >= n + i ? counts[u - n - i]! : 0);
    for (let u = i; u <= max; u++) next[u]! += next[u - i]!;
    counts = next;
  }
  const cumulative = new Float64Array(max + 1);
  let running = 0;
  for (let u = 0; u <= max; u++) cumulative[u] = running += counts[u]!;
  const total = running;
  return (k) => (k < 0 ? 0 : k >= max ? 1 : cumulative[Math.floor(k)]! / total);
}

/** Φ(z), from the complementary error function (Numerical Recipes' erfc, relative error < 1.2e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}
