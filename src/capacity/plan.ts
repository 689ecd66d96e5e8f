/**
 * Which rate a capacity search tries next, and for how long. Pure.
 *
 * Coarse steps first: from the starting rate, each step that held multiplies the rate by
 * `growth` (a step that failed at the start divides it instead), until a step fails. Then a
 * bisection between the highest rate that held below every failure and the lowest failure above
 * it, until the two are within `precision` of each other (that gap is the figure's step size: two
 * searches on the same machine should agree within it). A rate that held above one that failed
 * (noise) does not count: the bracket is always "held, and nothing at or below it failed".
 *
 * A step that did not hold is tried again at the same rate (`retries` times) before the search
 * brackets below it: on a shared machine one stall of a neighbour (50–100 ms) is enough to break
 * a p99 over a whole step, and a search that took it for the store's limit would never climb back
 * above it. A rate fails only when every try at it failed; one try that held makes it held.
 */
import { bracketOf } from '../report/capacity-curves.ts';
import { TAIL_SAMPLES } from '../report/capacity-curves.ts';

export interface SearchSettings {
  /** The first rate tried, ops/s. */
  start: number;
  /** Coarse steps multiply (or divide) the rate by this. */
  growth: number;
  /** The search ends when (lowest failed − highest held) / highest held is at most this. */
  precision: number;
  /** Never try above this rate; reaching it and holding ends the search. */
  maxRate: number;
  /** Never try below this rate; failing at it ends the search (nothing held). */
  minRate: number;
  /** At most this many steps (retries count: each is a step). */
  maxSteps: number;
  /** A rate that did not hold is tried this many more times before it counts as failed (0: never). */
  retries: number;
}

export interface Tried {
  targetOpsPerSec: number;
  held: boolean;
}

/** The next rate to try, or undefined when the search is over. */
export function nextRate(tried: readonly Tried[], s: SearchSettings): number | undefined {
  if (tried.length >= s.maxSteps) return undefined;
  if (tried.length === 0) return clamp(s.start, s);
  const retry = retryRate(tried, s.retries);
  if (retry !== undefined) return retry;
  const { highestHeld, lowestFailed } = bracketOf(tried);
  let next: number;
  if (lowestFailed === undefined) {
    // Nothing failed yet: climb, unless the ceiling held.
    if (highestHeld! >= s.maxRate) return undefined;
    next = Math.min(s.maxRate, highestHeld! * s.growth);
  } else if (highestHeld === undefined) {
    // Nothing held yet: come down, unless the floor failed.
    if (lowestFailed <= s.minRate) return undefined;
    next = Math.max(s.minRate, lowestFailed / s.growth);
  } else {
    if ((lowestFailed - highestHeld) / highestHeld <= s.precision) return undefined;
    next = (highestHeld + lowestFailed) / 2;
  }
  const rate = clamp(roundRate(next), s);
  // A rate already tried would tell nothing new (rounding at small rates): the search is as fine as it gets.
  return tried.some((t) => t.targetOpsPerSec === rate) ? undefined : rate;
}

/**
 * The rate to try again, when the last step did not hold and its rate has had fewer than
 * 1 + `retries` tries, none of which held (a retry follows its failure at once, so those tries are
 * the last ones).
 */
export function retryRate(tried: readonly Tried[], retries: number): number | undefined {
  const last = tried.at(-1);
  if (last === undefined || last.held) return undefined;
  const tries = tried.filter((t) => t.targetOpsPerSec === last.targetOpsPerSec);
  return tries.length <= retries && tries.every((t) => !t.held) ? last.targetOpsPerSec : undefined;
}

function clamp(rate: number, s: SearchSettings): number {
  return Math.min(s.maxRate, Math.max(s.minRate, rate));
}

/** Two significant digits above 100 ops/s (2,400, 13,000), whole ops/s below: rates a reader can repeat. */
export function roundRate(rate: number): number {
  if (rate < 100) return Math.max(1, Math.round(rate));
  const unit = 10 ** (Math.floor(Math.log10(rate)) - 1);
  return Math.round(rate / unit) * unit;
}

export interface StepLengthSettings {
  /** Shortest measured window, seconds. */
  minSeconds: number;
  /** Longest measured window, seconds. */
  maxSeconds: number;
}

/**
 * Seconds a step must measure at `rate` for its highest judged percentile to rest on TAIL_SAMPLES
 * samples beyond it (p99: 10,000 operations), within the bounds; `short` says the bound cut it.
 */
export function stepSeconds(
  rate: number,
  percentile: number,
  s: StepLengthSettings,
): { seconds: number; short: boolean } {
  const needed = Math.ceil(TAIL_SAMPLES / ((1 - percentile / 100) * rate));
  return { seconds: Math.min(s.maxSeconds, Math.max(s.minSeconds, needed)), short: needed > s.maxSeconds };
}
