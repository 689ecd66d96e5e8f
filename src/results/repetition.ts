/**
 * A result's place in an interleaved design (docs/statistics.md, "Rounds and loads"): which round
 * it ran in and where in that round's order. Every command that runs rounds (a sweep, a
 * scenario's comparison) stamps its results with it the same way; `docbench compare` does so
 * for its stores.
 */
import type { Repetition, Result } from './schema.ts';

/** One round of a design: every item (a store, or a store at a size) once, in `order`. */
export interface RoundPlace {
  /** The round, 1-based. */
  round: number;
  /** Rounds in the design. */
  rounds: number;
  /** The round's order of items, as drawn from `seed`. */
  order: readonly string[];
  seed: number;
}

/** What a result of `item` in this round records. */
export function repetitionIn(place: RoundPlace, item: string): Repetition {
  return {
    round: place.round,
    rounds: place.rounds,
    position: place.order.indexOf(item) + 1,
    order: [...place.order],
    seed: place.seed,
  };
}

/** The result with its round, when the design has more than one (one round: the result as it was). */
export function withRepetition(result: Result, place: RoundPlace, item: string): Result {
  if (place.rounds === 1) return result;
  return { ...result, repetition: repetitionIn(place, item) };
}

/** An order seed when none was given: drawn, and recorded in every result so the orders can be told again. */
export function drawOrderSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
