/**
 * A store's capacity over repeated searches (`capacity --repetitions N`): the median of the
 * searches' figures with their range, and whether the searches contradict each other. Pure.
 *
 * Each search ends with a bracket: the highest rate that held (its figure) and the lowest rate
 * above it that failed, every try at it (the search's step: `--precision` apart once it
 * converged). The true capacity lies in that bracket if the search was right, so searches agree
 * when some rate lies in every bracket, and are unstable when one search held at a rate at or
 * above one where another failed: their figures then differ by more than the step, and no single
 * figure is the store's. A search where nothing held brackets from 0; one whose highest rate
 * tried held has no top (its figure is a lower bound). A search that met an invalid step measured
 * no store work there, and gives no figure.
 */
import { median } from '../stats/summary.ts';
import type { CapacityCurve } from './capacity-curves.ts';

/** What one search found. */
export interface SearchBracket {
  /** The round it ran in (1 for a single search). */
  round: number;
  /** The highest rate that held below every failure (undefined: none held). */
  highestHeld?: number;
  /** The lowest rate above it that failed (undefined: the highest rate tried held). */
  lowestFailed?: number;
  /** False when a step of it was invalid: no figure. */
  valid: boolean;
}

export interface CapacitySpread {
  /** Searches run. */
  searches: number;
  /** Searches with a figure (none of their steps invalid): the median's n. */
  n: number;
  /** The median of the figures (0 when none held); undefined when n = 0. */
  median?: number;
  min?: number;
  max?: number;
  /** Searches whose highest rate tried held: their figure is a lower bound. */
  lowerBounds: number;
  /** Searches whose highest rate held is at or above a rate another failed at. */
  unstable: boolean;
  /** The contradiction in words, when unstable: which search held what, and which failed where. */
  why?: string;
  /** When they agree (n ≥ 2): the rates every search's bracket holds, [low, high) (high undefined: no top). */
  agreed?: { low: number; high?: number };
}

function rate(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** The figures of repeated searches of one store: median, range, and whether they contradict each other. */
export function capacitySpread(searches: readonly SearchBracket[]): CapacitySpread {
  const measured = searches.filter((s) => s.valid);
  const figures = measured.map((s) => s.highestHeld ?? 0);
  const spread: CapacitySpread = {
    searches: searches.length,
    n: measured.length,
    lowerBounds: measured.filter((s) => s.highestHeld !== undefined && s.lowestFailed === undefined).length,
    unstable: false,
  };
  if (measured.length === 0) return spread;
  const sorted = [...figures].sort((a, b) => a - b);
  Object.assign(spread, { median: median(sorted), min: sorted[0]!, max: sorted.at(-1)! });
  const held = measured.reduce((best, s) => ((s.highestHeld ?? 0) > (best.highestHeld ?? 0) ? s : best));
  const failedAt = (s: SearchBracket) => s.lowestFailed ?? Infinity;
  const failed = measured.reduce((best, s) => (failedAt(s) < failedAt(best) ? s : best));
  const low = held.highestHeld ?? 0;
  if (low >= failedAt(failed)) {
    spread.unstable = true;
    spread.why = `search ${held.round} held ${rate(low)} ops/s, search ${failed.round} failed at ${rate(failedAt(failed))}`;
  } else if (measured.length >= 2) {
    spread.agreed = { low, ...(failed.lowestFailed !== undefined ? { high: failed.lowestFailed } : {}) };
  }
  return spread;
}

/** A store's searches (one per round) and their spread. */
export interface CapacityOverSearches {
  store: string;
  workload: string;
  slo: string;
  errorBudget: number;
  /** One per round, in round order. */
  curves: CapacityCurve[];
  spread: CapacitySpread;
}

/** The curves grouped per store, workload and budget (one command's searches), each group's spread. */
export function capacityOverSearches(curves: readonly CapacityCurve[]): CapacityOverSearches[] {
  const groups = new Map<string, CapacityOverSearches>();
  for (const c of curves) {
    const key = JSON.stringify([c.search, c.store, c.workload, c.slo]);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        store: c.store,
        workload: c.workload,
        slo: c.slo,
        errorBudget: c.errorBudget,
        curves: [],
        spread: capacitySpread([]),
      };
      groups.set(key, group);
    }
    group.curves.push(c);
  }
  for (const group of groups.values()) {
    group.curves.sort((a, b) => (a.round ?? 1) - (b.round ?? 1));
    group.spread = capacitySpread(group.curves.map(bracketOfCurve));
  }
  return [...groups.values()];
}

function bracketOfCurve(c: CapacityCurve): SearchBracket {
  return {
    round: c.round ?? 1,
    ...(c.highestHeld !== undefined ? { highestHeld: c.highestHeld } : {}),
    ...(c.lowestFailed !== undefined ? { lowestFailed: c.lowestFailed } : {}),
    valid: c.steps.every((s) => s.valid),
  };
}

/** `52,000 [48,000–56,000]`; `none held`; a lower bound marked `≥`. */
export function formatSpread(s: CapacitySpread): string {
  if (s.median === undefined) return 'no valid search';
  const figure = (v: number) => (v === 0 ? 'none held' : rate(v));
  if (s.n === 1)
    return `${figure(s.median)}${s.lowerBounds > 0 ? ' (a lower bound: the highest rate tried held)' : ''}`;
  return `${figure(s.median)} [${figure(s.min!)}–${figure(s.max!)}]${s.lowerBounds > 0 ? ` (${s.lowerBounds} of ${s.n} a lower bound: the highest rate tried held)` : ''}`;
}

/** Whether the searches agree, in words: `UNSTABLE: …`, or the rates every bracket holds. */
export function formatAgreement(s: CapacitySpread): string {
  if (s.unstable) return `UNSTABLE: ${s.why}`;
  const invalid = s.searches - s.n;
  const skipped = invalid > 0 ? `; ${invalid} of ${s.searches} met an invalid step (no figure)` : '';
  if (s.agreed === undefined) return s.n <= 1 ? `one search${skipped}` : '';
  const { low, high } = s.agreed;
  return `yes: every search brackets ${low === 0 ? '0' : rate(low)}–${high === undefined ? '(no top)' : rate(high)}${skipped}`;
}
