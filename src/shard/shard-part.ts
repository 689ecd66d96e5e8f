/**
 * A command run as one part of a sharded run: its share of the workload (shard-spec.ts), the
 * start barrier (barrier.ts; part 0 also serves it), and what its result records about the part
 * (`shard` in the result: which part, the run's identity, its share, how it started, whether it
 * kept its share), so `report --merge` can tell a whole from a heap of parts.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../common/user-error.ts';
import { ISSUED_SHARE as KEPT_RATE_SHARE } from '../report/capacity-curves.ts';
import { SATURATED_PERCENT as BUSY_PERCENT } from '../results/build.ts';
import type { Result, ShardInfo } from '../results/schema.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { Coordinator, parseBarrierAddress, waitAtBarrier, nowMs, type BarrierStart } from './barrier.ts';
import {
  BARRIER_VARIABLE,
  DEFAULT_BARRIER_TIMEOUT_SECONDS,
  shardOf,
  shareWorkload,
  type PartCounts,
  type ShardShare,
  type ShardSpec,
} from './shard-spec.ts';

/** The options every sharded command takes (cli/shared-options.ts registers them). */
export interface ShardFlags {
  shard?: string;
  shards?: number;
  barrier?: string;
  /** Seconds to wait for every part at the barrier. */
  barrierTimeout?: number;
  runId?: string;
}

/** A stable text of a value (keys sorted), so equal settings hash equally on every machine. */
function stableText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableText((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The hash of every setting the parts of one run share: the whole run's properties (before the split), the phase, the store, N. */
export function settingsHash(what: {
  kind: string;
  phase: string;
  store: string;
  workload: string;
  count: number;
  properties: unknown;
}): string {
  return createHash('sha256').update(stableText(what)).digest('hex').slice(0, 16);
}

/** What names a part's run: the same in every part of one run (its settings hash). */
export interface PartIdentity {
  kind: string;
  phase: 'load' | 'run';
  store: string;
  workload: string;
  /** The whole run's settings, before the split. */
  properties: unknown;
}

export class ShardPart<P extends PartCounts = WorkloadProperties> {
  private coordinator: Coordinator | undefined;
  private started: BarrierStart | undefined;
  readonly settings: string;

  private constructor(
    readonly spec: ShardSpec,
    readonly share: ShardShare<P>,
    private readonly flags: ShardFlags,
    readonly barrier: string | undefined,
    what: PartIdentity,
  ) {
    this.settings = settingsHash({ ...what, count: spec.count });
  }

  /**
   * The part a YCSB command is (undefined when it is not sharded): its share of the properties,
   * and the barrier it will wait at. Every mistake (a bad --shard, a missing JOB_COMPLETION_INDEX,
   * a split that leaves a part nothing, a bad --barrier) is one line, before anything starts.
   */
  static of(
    flags: ShardFlags,
    env: Readonly<Record<string, string | undefined>>,
    what: PartIdentity & { properties: WorkloadProperties },
  ): ShardPart | undefined {
    return ShardPart.sharing(flags, env, what, (spec) => shareWorkload(what.properties, spec, what.phase));
  }

  /** The part any phase is, its share computed by `shareFor` (a scenario file's seed or run). */
  static sharing<P extends PartCounts>(
    flags: ShardFlags,
    env: Readonly<Record<string, string | undefined>>,
    what: PartIdentity,
    shareFor: (spec: ShardSpec) => ShardShare<P>,
  ): ShardPart<P> | undefined {
    const spec = shardOf(flags, env);
    const barrier = flags.barrier ?? env[BARRIER_VARIABLE];
    if (spec === undefined) {
      if (flags.barrier !== undefined || flags.runId !== undefined)
        throw new UsageError(
          `${flags.barrier !== undefined ? '--barrier' : '--run-id'} is for a part of a sharded run: give --shard i/N or --shards N too`,
        );
      return undefined;
    }
    if (barrier !== undefined && barrier !== '') parseBarrierAddress(barrier);
    return new ShardPart(spec, shareFor(spec), flags, barrier === '' ? undefined : barrier, what);
  }

  get properties(): P {
    return this.share.properties;
  }

  /** `1/4`, for labels. */
  get label(): string {
    return `${this.spec.index}/${this.spec.count}`;
  }

  private get run(): string {
    return `${this.flags.runId ?? ''}#${this.settings}`;
  }

  private get timeoutMs(): number {
    return (this.flags.barrierTimeout ?? DEFAULT_BARRIER_TIMEOUT_SECONDS) * 1000;
  }

  /** Part 0 starts serving the barrier as early as it can, so the other parts' probes find it. */
  async open(): Promise<void> {
    if (this.barrier === undefined || this.spec.index !== 0) return;
    this.coordinator = await Coordinator.start(
      parseBarrierAddress(this.barrier),
      { count: this.spec.count, run: this.run },
      this.timeoutMs,
    );
  }

  /** Wait at the barrier (the phase's workers ready, its clock not yet started); no barrier: return at once. */
  readonly beforeStart = async (): Promise<void> => {
    if (this.barrier === undefined) return;
    this.started = await this.wait(this.barrier, this.run);
  };

  private wait(barrier: string, run: string): Promise<BarrierStart> {
    const address = parseBarrierAddress(barrier);
    return waitAtBarrier({
      // Part 0 reaches its own coordinator over loopback: its name may not resolve until the pod is ready.
      host: this.spec.index === 0 ? '127.0.0.1' : address.host,
      port: address.port,
      address: barrier,
      arrival: { index: this.spec.index, count: this.spec.count, run },
      deadlineMs: nowMs() + this.timeoutMs,
    });
  }

  /**
   * A later meeting of every part (after the start), by the same barrier: a scenario file's parts
   * meet once all have written their documents (part 0 then builds the indexes and the manifest)
   * and once all have undone their run's writes. Part 0 serves a fresh coordinator for the step,
   * so a part of another step is turned away; no barrier: return at once.
   */
  async together(step: string): Promise<void> {
    if (this.barrier === undefined) return;
    const address = parseBarrierAddress(this.barrier);
    const run = `${this.run}@${step}`;
    if (this.spec.index === 0) {
      this.coordinator?.close();
      this.coordinator = await Coordinator.start(address, { count: this.spec.count, run }, this.timeoutMs);
    }
    await this.wait(this.barrier, run);
  }

  close(): void {
    this.coordinator?.close();
  }

  /** The part's result, with what it records about the part. */
  record(result: Result): Result {
    const saturated = saturationOf(result, this.share.properties);
    const shard: ShardInfo = {
      index: this.spec.index,
      count: this.spec.count,
      ...(this.flags.runId !== undefined ? { runId: this.flags.runId } : {}),
      settings: this.settings,
      whole: this.share.whole,
      ...(this.share.keys ? { keys: this.share.keys } : {}),
      ...(this.share.inserts ? { inserts: this.share.inserts } : {}),
      ...(this.started
        ? {
            start: {
              barrier: this.barrier!,
              startAt: new Date(Math.round(this.started.startAt)).toISOString(),
              offsetMs: round3(this.started.offsetMs),
              roundTripMs: round3(this.started.roundTripMs),
              lateMs: round3(Date.parse(result.startedAt) + this.started.offsetMs - this.started.startAt),
            },
          }
        : {}),
      ...(saturated ? { saturated } : {}),
    };
    const notes = [
      `part ${this.label} of a sharded run (settings ${this.settings}${this.flags.runId !== undefined ? `, run ${this.flags.runId}` : ''}): ${shareText(this.share)}; merge every part with docbench report --merge`,
      this.started
        ? `started at the barrier's instant (${shard.start!.startAt}, clock offset ${shard.start!.offsetMs} ms measured over a ${shard.start!.roundTripMs} ms round trip), ${shard.start!.lateMs} ms after it`
        : 'started without a barrier (no --barrier): this part started when it started, not with the others',
      ...(saturated ? [`this part could not keep its share: ${saturated}`] : []),
    ];
    return { ...result, shard, notes: [...result.notes, ...notes] };
  }
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function shareText(share: ShardShare<PartCounts>): string {
  const p = share.properties;
  const parts = [`${p.threadcount} of ${share.whole.threadcount} threads`];
  if (share.keys) parts.push(`keys ${share.keys.first}…${share.keys.first + share.keys.count - 1}`);
  if (share.workers && share.workers.count > 0 && share.whole.threadcount > share.workers.count)
    parts.push(`workers ${share.workers.first}…${share.workers.first + share.workers.count - 1} of the whole run`);
  if (share.whole.operationcount > 0 && !share.keys)
    parts.push(`${p.operationcount} of ${share.whole.operationcount} operations`);
  if (share.whole.target > 0) parts.push(`${p.target} of ${share.whole.target} ops/s`);
  if (share.inserts && share.inserts.stride > 1)
    parts.push(`inserts to every ${share.inserts.stride}th key from recordcount+${share.inserts.offset}`);
  return parts.join(', ');
}

/** Why a part could not keep its share: its target rate not issued, or an event loop out of CPU. */
export function saturationOf(result: Result, p: { target: number }): string | undefined {
  const seconds = result.overall.runtimeMs / 1000;
  if (result.phase === 'run' && p.target > 0 && seconds > 0) {
    const issued = (result.overall.operations + (result.faults?.failedOperations ?? 0)) / seconds;
    if (issued < KEPT_RATE_SHARE * p.target)
      return `it issued ${Math.round(issued)} ops/s of its ${p.target} ops/s share of the target (too few workers, or its CPU was the limit)`;
  }
  const busy = Math.max(0, ...(result.clientCpu.eventLoopBusyPercent ?? []));
  if (busy >= BUSY_PERCENT && seconds >= 1)
    return `its busiest event loop was ${busy}% busy: its CPU, not the store, may have set the pace`;
  return undefined;
}
