/**
 * A scenario command's repetitions (`docbench ecommerce`, `persons`, `scenario <file>`): rounds,
 * each running every store once, in a fresh random order drawn from the order seed and the round
 * (as `docbench compare` does, src/compare/rounds.ts), every result stamped with its round
 * (src/results/repetition.ts). One round, the default, runs the stores in the order given, and
 * its results carry no round: exactly what the command did before it had rounds. How each
 * scenario's data is seeded between rounds is the scenario's (docs/statistics.md, "Rounds and
 * loads").
 */
import { roundOrder } from '../../src/compare/rounds.ts';
import { UsageError } from '../../src/common/user-error.ts';
import { drawOrderSeed, type RoundPlace } from '../../src/results/repetition.ts';
import type { RoundFlags } from './round-options.ts';

export type { RoundFlags };

/** The rounds of `stores`: one in the order given, or `repetitions` in seeded random orders. */
export function scenarioRounds(stores: readonly string[], flags: RoundFlags): RoundPlace[] {
  const rounds = flags.repetitions;
  if (rounds === 1) return [{ round: 1, rounds, order: [...stores], seed: flags.orderSeed ?? 0 }];
  const seed = flags.orderSeed ?? drawOrderSeed();
  return Array.from({ length: rounds }, (_, i) => ({
    round: i + 1,
    rounds,
    order: roundOrder(stores, seed, i + 1),
    seed,
  }));
}

/** One store's turn in a round. */
export interface RoundTurn {
  store: string;
  place: RoundPlace;
  /** The round's first turn: where its status line goes. */
  opensRound: boolean;
}

/** Every store's turn of every round, in the order they run: one loop runs a command's rounds. */
export function roundTurns(stores: readonly string[], flags: RoundFlags): RoundTurn[] {
  return scenarioRounds(stores, flags).flatMap((place) =>
    place.order.map((store, i) => ({ store, place, opensRound: i === 0 })),
  );
}

/** `-r2` in the file names of a design with several rounds; nothing for one (the names as they were). */
export function roundSuffix(place: RoundPlace): string {
  return place.rounds === 1 ? '' : `-r${place.round}`;
}

/** The status line that opens a round (nothing for a single round). */
export function roundLine(command: string, place: RoundPlace): string {
  return place.rounds === 1 ? '' : `[${command}] round ${place.round} of ${place.rounds}: ${place.order.join(', ')}\n`;
}

/**
 * With `--skip-seed`, every round runs on the one dataset the store holds: refused when the run
 * writes (`writer` names what), since a round would then run on what an earlier round's writes
 * left (updated documents, tombstones, revisions), whatever the scenario puts back.
 */
export function refuseSharedWrites(flags: RoundFlags & { skipSeed: boolean }, writer: string | undefined): void {
  if (flags.repetitions > 1 && flags.skipSeed && writer !== undefined)
    throw new UsageError(
      `--skip-seed with --repetitions ${flags.repetitions}: ${writer} writes, so each round would run on what the round before left; leave out --skip-seed (every round seeds afresh)`,
    );
}
