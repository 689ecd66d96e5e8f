/**
 * Which part of a sharded run this client is, and its share of the run. A run split over N
 * client machines (or Kubernetes pods) is N runs of one command, each with `--shard i/N` (or
 * `--shards N`, i from JOB_COMPLETION_INDEX, which Kubernetes sets in an Indexed Job's pods).
 * Each part takes a deterministic share, so that the parts together do what one client with the
 * whole settings does, and their results merge into one (`report --merge`):
 *
 *   load        the key range insertstart … insertstart+insertcount-1, contiguous shares;
 *   run         operationcount, threadcount and the target rate, shares summing to the whole;
 *               run-phase inserts interleaved (recordcount + k·N + i), so no two parts ever
 *               insert the same key (YCSB's own multi-client runs do: brianfrankcooper/YCSB#985);
 *   both        a random stream of its own (part 0 keeps the whole run's seed).
 *
 * Every split is `evenShares` (common/even-shares.ts), the one worker processes use.
 * Pure: no Node APIs.
 */
import { evenShares } from '../common/even-shares.ts';
import { UsageError } from '../common/user-error.ts';
import type { WorkloadProperties } from '../workload/properties.ts';

/** Part `index` (from 0) of `count`. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** The environment variable `--barrier` defaults to. */
export const BARRIER_VARIABLE = 'DOCBENCH_BARRIER';
/** Pods of one Job start minutes apart (image pulls, scheduling): the barrier waits this long by default. */
export const DEFAULT_BARRIER_TIMEOUT_SECONDS = 600;

/** The environment variable Kubernetes sets to a pod's index in an Indexed Job. */
export const JOB_INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';

/** `--shard i/N`: part i (from 0) of N. */
export function parseShardOption(text: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UsageError(`--shard expects i/N (part i of N, i from 0), e.g. --shard 0/4; got "${text}"`);
  const spec = { index: Number(m[1]), count: Number(m[2]) };
  if (spec.count < 1) throw new UsageError(`--shard ${text}: N must be 1 or more`);
  if (spec.index >= spec.count)
    throw new UsageError(`--shard ${text}: the part index counts from 0 and must be below ${spec.count}`);
  return spec;
}

/** `--shards N`: the part's index from JOB_COMPLETION_INDEX. */
export function shardFromEnvironment(count: number, env: Readonly<Record<string, string | undefined>>): ShardSpec {
  const value = env[JOB_INDEX_VARIABLE];
  if (value === undefined || value.trim() === '')
    throw new UsageError(
      `--shards ${count}: ${JOB_INDEX_VARIABLE} is not set (Kubernetes sets it in an Indexed Job's pods; elsewhere give --shard i/${count})`,
    );
  if (!/^\s*\d+\s*$/.test(value) || Number(value) >= count)
    throw new UsageError(
      `--shards ${count}: ${JOB_INDEX_VARIABLE} must be a whole number from 0 to ${count - 1}, got "${value}"`,
    );
  return { index: Number(value), count };
}

/** The part a command is, from `--shard` or `--shards` (undefined: not sharded). */
export function shardOf(
  flags: { shard?: string | undefined; shards?: number | undefined },
  env: Readonly<Record<string, string | undefined>>,
): ShardSpec | undefined {
  if (flags.shard !== undefined && flags.shards !== undefined)
    throw new UsageError(
      '--shard and --shards: give one (--shard i/N names the part; --shards N takes i from JOB_COMPLETION_INDEX)',
    );
  if (flags.shard !== undefined) return parseShardOption(flags.shard);
  if (flags.shards !== undefined) return shardFromEnvironment(flags.shards, env);
  return undefined;
}

/** A part's share of `total` (contiguous, the remainder over the first parts). */
export function shareOf(total: number, spec: ShardSpec): { first: number; count: number } {
  return evenShares(total, spec.count)[spec.index]!;
}

/**
 * A part's share of a target rate: the whole ops/s split as evenly as whole numbers go, a
 * fraction left over given to the last part, so the shares sum to the target exactly.
 */
export function rateShareOf(target: number, spec: ShardSpec): number {
  const whole = Math.floor(target);
  const share = shareOf(whole, spec).count;
  return spec.index === spec.count - 1 ? share + (target - whole) : share;
}

/** The settings of the whole run that the parts share out (each part's result records them). */
export interface WholeSettings {
  threadcount: number;
  target: number;
  operationcount: number;
  insertstart: number;
  insertcount: number;
  seed: number;
}

/** What every phase a part runs has and shares out: workers, a target rate, operations. */
export interface PartCounts {
  threadcount: number;
  target: number;
  operationcount: number;
}

/** A part's properties, and what it records about its share. */
export interface ShardShare<P extends PartCounts = WorkloadProperties> {
  properties: P;
  whole: WholeSettings;
  /** Load: the key numbers this part writes (a scenario file's seed: documents numbered across its collections). */
  keys?: { first: number; count: number };
  /** Run: this part's inserts go to key numbers recordcount + k·stride + offset. */
  inserts?: { stride: number; offset: number };
  /** Run: this part's workers' numbers in the whole run (first, count), where workers own what they write. */
  workers?: { first: number; count: number };
}

/** Seeds of different parts far apart (part 0 keeps the run's own, so 0/1 is the unsharded run). */
export const SEED_STEP = 1_000_003;

/**
 * The checks and shares every run phase makes the same way: each part needs a worker, 1 ops/s
 * of the target and an operation; its share of threads, target and operations.
 */
export function shareCounts(
  p: PartCounts,
  spec: ShardSpec,
): PartCounts & { workers: { first: number; count: number } } {
  const n = spec.count;
  const where = `--shard ${spec.index}/${n}`;
  if (p.threadcount < n)
    throw new UsageError(
      `${where}: threadcount ${p.threadcount} cannot be split over ${n} parts: each needs a worker (--threads ${n} or more)`,
    );
  if (p.target > 0 && p.target < n)
    throw new UsageError(
      `${where}: target ${p.target} ops/s cannot be split over ${n} parts: each needs 1 ops/s or more`,
    );
  if (p.operationcount > 0 && p.operationcount < n)
    throw new UsageError(
      `${where}: operationcount ${p.operationcount} cannot be split over ${n} parts: each needs an operation`,
    );
  const workers = shareOf(p.threadcount, spec);
  return {
    threadcount: workers.count,
    target: p.target > 0 ? rateShareOf(p.target, spec) : 0,
    operationcount: p.operationcount > 0 ? shareOf(p.operationcount, spec).count : 0,
    workers,
  };
}

/**
 * The part's share of a YCSB phase's properties. Each part needs at least one worker, one
 * record to load, one operation and 1 ops/s of the target: a split that leaves a part nothing
 * is one line naming the property.
 */
export function shareWorkload(p: WorkloadProperties, spec: ShardSpec, phase: 'load' | 'run'): ShardShare {
  const n = spec.count;
  const where = `--shard ${spec.index}/${n}`;
  const whole: WholeSettings = {
    threadcount: p.threadcount,
    target: p.target,
    operationcount: p.operationcount,
    insertstart: p.insertstart,
    insertcount: p.insertcount,
    seed: p.seed,
  };
  if (p.threadcount < n)
    throw new UsageError(
      `${where}: threadcount ${p.threadcount} cannot be split over ${n} parts: each needs a worker (--threads ${n} or more)`,
    );
  if (p.target > 0 && p.target < n)
    throw new UsageError(
      `${where}: target ${p.target} ops/s cannot be split over ${n} parts: each needs 1 ops/s or more`,
    );
  if (p.failovercheck)
    throw new UsageError(
      `${where}: failovercheck=true is not for sharded runs: each part would read back keys the other parts write`,
    );
  const properties: WorkloadProperties = {
    ...p,
    threadcount: shareOf(p.threadcount, spec).count,
    target: p.target > 0 ? rateShareOf(p.target, spec) : 0,
    seed: p.seed + spec.index * SEED_STEP,
  };
  if (phase === 'load') {
    if (p.insertcount < n)
      throw new UsageError(
        `${where}: insertcount ${p.insertcount} cannot be split over ${n} parts: each needs a record to load`,
      );
    const share = shareOf(p.insertcount, spec);
    const keys = { first: p.insertstart + share.first, count: share.count };
    return { properties: { ...properties, insertstart: keys.first, insertcount: keys.count }, whole, keys };
  }
  if (p.operationcount > 0 && p.operationcount < n)
    throw new UsageError(
      `${where}: operationcount ${p.operationcount} cannot be split over ${n} parts: each needs an operation`,
    );
  const inserts = { stride: n, offset: spec.index };
  return {
    properties: {
      ...properties,
      operationcount: p.operationcount > 0 ? shareOf(p.operationcount, spec).count : 0,
      ...(n > 1 ? { insertKeys: inserts } : {}),
    },
    whole,
    inserts,
  };
}
