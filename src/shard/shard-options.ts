/**
 * The options of a command run as one part of a run split over several clients, worded once for
 * the CLI's phase commands and the scenario commands alike (which may not import the CLI).
 */
import type { Command } from 'commander';
import { positiveInteger } from '../common/option-parsers.ts';
import { BARRIER_VARIABLE, DEFAULT_BARRIER_TIMEOUT_SECONDS } from './shard-spec.ts';

/**
 * `--shard`, `--shards`, `--barrier`, `--barrier-timeout` and `--run-id`: a command run as one
 * part of a run split over several clients (docs/distributed.md). Registered here once, so every
 * command that can be a part takes them the same way.
 */
export function addShardOptions<T extends Command>(command: T): T {
  return command
    .option(
      '--shard <i/N>',
      'run part i (from 0) of N: its share of the keys, operations, threads and target rate; merge the parts with report --merge',
    )
    .option(
      '--shards <N>',
      'run one part of N, i from JOB_COMPLETION_INDEX (set in a Kubernetes Indexed Job)',
      positiveInteger('--shards'),
    )
    .option(
      '--barrier <host:port>',
      `start every part together: part 0 serves this address and all wait until N have arrived (default: $${BARRIER_VARIABLE})`,
    )
    .option(
      '--barrier-timeout <seconds>',
      `how long the barrier waits for every part (default ${DEFAULT_BARRIER_TIMEOUT_SECONDS})`,
      positiveInteger('--barrier-timeout'),
    )
    .option(
      '--run-id <id>',
      'names the run in every part, so the merge tells two runs of the same settings apart',
    ) as T;
}
