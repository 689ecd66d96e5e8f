/**
 * Whether results are the parts of one sharded run, whole (src/shard/): every part of one run
 * exactly once, or none a part at all. A merge of parts that do not make a whole would state
 * figures of a run that never happened (a missing part's load, a part counted twice, two runs'
 * parts added up), so each way it can fail is refused with one line. What the merged result
 * records about its parts: how many, how far apart they started, the keys they covered, and which
 * could not keep their share.
 */
import { MergeError } from './merge-error.ts';
import type { MergedShards, Result, ShardInfo, VerdictReason } from './schema.ts';

const partList = (indexes: readonly number[]) => indexes.join(', ');

/** A part's saturation that is a missed target rate (shard-part.ts words it so), not only a busy loop. */
export const missedRate = (detail: string) => detail.startsWith('it issued ');

/** The parts' shard records, checked to form one whole; undefined when no result is a part. */
export function checkShards(results: readonly Result[]): ShardInfo[] | undefined {
  const parts = results.filter((r) => r.shard !== undefined).map((r) => r.shard!);
  if (parts.length === 0) return undefined;
  if (parts.length < results.length)
    throw new MergeError(
      `cannot merge sharded and unsharded results: ${parts.length} of ${results.length} are parts of a sharded run (--shard), ${results.length - parts.length} are not`,
    );
  const runs = new Map<string, number[]>();
  for (const part of parts) {
    const run = `${part.runId !== undefined ? `run ${part.runId}, ` : ''}settings ${part.settings}, ${part.count} parts`;
    runs.set(run, [...(runs.get(run) ?? []), part.index]);
  }
  if (runs.size > 1)
    throw new MergeError(
      `cannot merge parts of different runs: ${[...runs].map(([run, indexes]) => `${run} (part${indexes.length > 1 ? 's' : ''} ${partList(indexes)})`).join(' and ')}`,
    );
  const count = parts[0]!.count;
  const seen = new Map<number, number>();
  for (const part of parts) seen.set(part.index, (seen.get(part.index) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([index]) => index);
  if (twice.length > 0)
    throw new MergeError(`part${twice.length > 1 ? 's' : ''} ${partList(twice)} of ${count} ${twice.length > 1 ? 'are' : 'is'} given more than once`);
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeError(`part${missing.length > 1 ? 's' : ''} ${partList(missing)} of ${count} ${missing.length > 1 ? 'are' : 'is'} missing`);
  return [...parts].sort((a, b) => a.index - b.index);
}

/** What the merged result records about its parts. */
export function mergedShards(results: readonly Result[], parts: readonly ShardInfo[]): MergedShards {
  const first = parts[0]!;
  const synchronised = parts.every((p) => p.start !== undefined);
  // On the coordinator's one clock when every part started at the barrier; else each part's own.
  const starts = synchronised
    ? parts.map((p) => Date.parse(p.start!.startAt) + p.start!.lateMs)
    : results.map((r) => Date.parse(r.startedAt));
  const keys = coveredKeys(parts);
  return {
    count: first.count,
    ...(first.runId !== undefined ? { runId: first.runId } : {}),
    settings: first.settings,
    synchronised,
    startSpreadMs: Math.round((Math.max(...starts) - Math.min(...starts)) * 1000) / 1000,
    ...(keys ? { keys } : {}),
    saturated: parts.filter((p) => p.saturated !== undefined).map((p) => ({ index: p.index, detail: p.saturated! })),
  };
}

/** A load's parts' key ranges, which must tile the whole range: each key written by exactly one part. */
function coveredKeys(parts: readonly ShardInfo[]): { first: number; count: number } | undefined {
  if (parts.some((p) => p.keys === undefined)) return undefined;
  const whole = parts[0]!.whole;
  let next = whole.insertstart;
  for (const part of parts) {
    if (part.keys!.first !== next)
      throw new MergeError(`part ${part.index} wrote keys from ${part.keys!.first}, but the parts before it ended at ${next - 1}: the parts do not cover the key range exactly once`);
    next += part.keys!.count;
  }
  if (next !== whole.insertstart + whole.insertcount)
    throw new MergeError(`the parts wrote keys ${whole.insertstart}…${next - 1}, not the run's ${whole.insertstart}…${whole.insertstart + whole.insertcount - 1}`);
  return { first: whole.insertstart, count: whole.insertcount };
}

/** The merged verdict's reason when parts missed their share of the target rate: the run did not run at the rate it names. */
export function saturationReason(shards: MergedShards): VerdictReason | undefined {
  const missed = shards.saturated.filter((s) => missedRate(s.detail));
  if (missed.length === 0) return undefined;
  return {
    code: 'client-saturated',
    detail: `part${missed.length > 1 ? 's' : ''} ${missed.map((s) => `${s.index} (${s.detail})`).join('; ')} of ${shards.count} could not keep ${missed.length > 1 ? 'their' : 'its'} share of the target rate`,
    fix: 'give the parts more threads, processes or parts for this rate: the client, not the store, set the pace',
  };
}

/** The whole run's properties, from a part's: its share put back to the whole. */
export function wholeProperties(properties: Result['workload']['properties'], whole: ShardInfo['whole']): Result['workload']['properties'] {
  return { ...properties, ...whole };
}
