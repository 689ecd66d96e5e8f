/** Help texts and options that several commands share, worded once. */
import type { Command } from 'commander';
import { positiveInteger } from '../common/option-parsers.ts';
import { BARRIER_VARIABLE, DEFAULT_BARRIER_TIMEOUT_SECONDS } from '../shard/shard-spec.ts';

export const ON_ERROR_HELP =
  'when an operation fails: continue (count it, keep the schedule; default) or abort (stop the run, still writing its partial result)';

export const PROCESSES_HELP =
  'worker processes (threads) the threadcount workers are spread over, each with its own connections; one merged result. auto (the default): one per core when every store is remote (--url, config, --docker), 1 when a local server shares the cores';

/**
 * `--shard`, `--shards`, `--barrier`, `--barrier-timeout` and `--run-id`: a command run as one
 * part of a run split over several clients (src/shard/, docs/distributed.md). Registered here
 * once, so every command that can be a part takes them the same way.
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
