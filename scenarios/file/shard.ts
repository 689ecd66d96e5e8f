/**
 * A scenario file's phases split over the parts of a sharded run (src/shard/, docs/distributed.md):
 *
 *   seed   the file's documents numbered across its collections in the file's order (the first
 *          collection's 0 … count-1, then the next's), each part one contiguous range of them,
 *          which is a contiguous range of each collection it reaches. Document i is a pure
 *          function of (seed, collection, i) and a reference points into the whole collection
 *          (generator.ts), so a part makes exactly the documents one seed would, references
 *          included, whichever part makes them.
 *   run    threads, operations and target shared out as YCSB's run; the parts' workers are the
 *          whole run's workers firstWorker … (operations.ts gives worker w of W the documents it
 *          writes: inserts at count + k·W + w, updates and deletes of index ≡ w mod W), so two
 *          parts never write one document, as two workers of one process never do.
 *
 * Pure: no Node APIs.
 */
import {
  shareCounts,
  shareOf,
  type ShardShare,
  type ShardSpec,
  type WholeSettings,
} from '../../src/shard/shard-spec.ts';
import { UsageError } from '../../src/common/user-error.ts';
import type { Collection, RunSettings, Scenario } from './model.ts';

/** A part's documents of one collection: indexes from … to-1. */
export interface CollectionRange {
  collection: Collection;
  from: number;
  to: number;
}

function totalDocuments(scenario: Scenario): number {
  return [...scenario.collections.values()].reduce((n, c) => n + c.count, 0);
}

function wholeOf(scenario: Scenario, run: RunSettings): WholeSettings {
  return {
    threadcount: run.threadcount,
    target: run.target,
    operationcount: run.operationcount,
    insertstart: 0,
    insertcount: totalDocuments(scenario),
    seed: scenario.seed,
  };
}

/** The seed's share: documents `keys.first` … of the numbering across collections. */
export function seedShare(scenario: Scenario, run: RunSettings, spec: ShardSpec): ShardShare<RunSettings> {
  const total = totalDocuments(scenario);
  if (total < spec.count)
    throw new UsageError(
      `--shard ${spec.index}/${spec.count}: ${scenario.file} has ${total} documents, too few for ${spec.count} parts: each needs one to write`,
    );
  return { properties: run, whole: wholeOf(scenario, run), keys: shareOf(total, spec) };
}

/** The pieces of each collection that documents first … first+count-1 (numbered across collections) are. */
export function collectionRanges(scenario: Scenario, keys: { first: number; count: number }): CollectionRange[] {
  const ranges: CollectionRange[] = [];
  let offset = 0;
  for (const collection of scenario.collections.values()) {
    const from = Math.max(keys.first, offset) - offset;
    const to = Math.min(keys.first + keys.count, offset + collection.count) - offset;
    if (to > from) ranges.push({ collection, from, to });
    offset += collection.count;
  }
  return ranges;
}

/** The run's share: threads, operations, target and the whole run's workers this part runs. */
export function runShare(scenario: Scenario, run: RunSettings, spec: ShardSpec): ShardShare<RunSettings> {
  const { workers, ...counts } = shareCounts(run, spec);
  return { properties: { ...run, ...counts }, whole: wholeOf(scenario, run), workers };
}
