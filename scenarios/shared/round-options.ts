/**
 * The scenario commands' `--repetitions N` and `--order-seed` (rounds.ts runs them): registration
 * only, light enough for `--help`.
 */
import type { Command } from 'commander';
import { nonNegativeInteger, positiveInteger } from '../../src/common/option-parsers.ts';

export interface RoundFlags {
  repetitions: number;
  orderSeed?: number;
}

/** `--repetitions N` and `--order-seed`, worded for a scenario whose round is `what`. */
export function addRoundOptions(command: Command, what: string): Command {
  return command
    .option(
      '--repetitions <n>',
      `rounds: every store runs ${what} once per round, the stores in a fresh random order each round; a repeated cell shows its median with a 95% interval (default 1)`,
      positiveInteger('--repetitions'),
      1,
    )
    .option(
      '--order-seed <n>',
      "seed of the rounds' store orders (default: drawn; every result records it)",
      nonNegativeInteger('--order-seed'),
    );
}
