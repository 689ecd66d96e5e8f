/**
 * What every worker of a run consults between operations: has the run been stopped, is it still
 * in warm-up, and may one more operation start (operationcount is a limit for the whole client).
 * Kept in shared memory, so the coordinator (main thread) and the workers of every worker thread
 * see one state: a stop, the end of the warm-up and the operation count are exact across
 * processes. Each check is one atomic load.
 */
const STOPPED = 0;
const RECORDING = 1;
const REASON = 2;
const ABORT_ON_ERROR = 3;
/** Bytes: four int32 cells, then the 64-bit count of operations issued. */
const FLAG_BYTES = 16;
const BYTES = FLAG_BYTES + 8;

import { STOP_REASONS, type StopReason } from '../results/phase.ts';

export { STOP_REASONS, type StopReason };

export class RunControl {
  /** Pass to a worker thread to attach to the same control (shared memory). */
  readonly buffer: SharedArrayBuffer;
  private readonly cells: Int32Array;
  private readonly count: BigInt64Array;

  /** A new control (recording), or, given a control's buffer, the same control seen from another thread. */
  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(BYTES);
    this.cells = new Int32Array(this.buffer, 0, 4);
    this.count = new BigInt64Array(this.buffer, FLAG_BYTES, 1);
    if (buffer === undefined) Atomics.store(this.cells, RECORDING, 1);
  }

  get stopped(): boolean {
    return Atomics.load(this.cells, STOPPED) === 1;
  }

  /**
   * End the run: workers finish the operation in hand and start no other (any thread may call it).
   * The first reason given is the one kept.
   */
  stop(reason: StopReason = 'complete'): void {
    Atomics.compareExchange(this.cells, REASON, 0, STOP_REASONS.indexOf(reason) + 1);
    Atomics.store(this.cells, STOPPED, 1);
  }

  /** `--on-error abort`: the first failed operation, in any thread, stops the run. */
  get abortOnError(): boolean {
    return Atomics.load(this.cells, ABORT_ON_ERROR) === 1;
  }

  set abortOnError(value: boolean) {
    Atomics.store(this.cells, ABORT_ON_ERROR, value ? 1 : 0);
  }

  /** A worker's operation failed: with `--on-error abort` that ends the run. */
  operationFailed(): void {
    if (this.abortOnError) this.stop('on-error');
  }

  /** Why the run stopped (`complete` while it runs or when it ended on its own). */
  get stopReason(): StopReason {
    const code = Atomics.load(this.cells, REASON);
    return code === 0 ? 'complete' : STOP_REASONS[code - 1]!;
  }

  /** False during warm-up: operations run but are not recorded. */
  get recording(): boolean {
    return Atomics.load(this.cells, RECORDING) === 1;
  }

  startRecording(): void {
    Atomics.store(this.cells, RECORDING, 1);
  }

  /** Start in warm-up (before any worker runs). */
  stopRecording(): void {
    Atomics.store(this.cells, RECORDING, 0);
  }

  /** Operations started so far, by every worker of every thread. */
  get issued(): number {
    return Number(Atomics.load(this.count, 0));
  }

  /**
   * Take up to `count` operations from the shared count, never past `limit` (operationcount;
   * Infinity: none): returns how many were granted, 0 once the run is stopped or all are issued.
   */
  claimOperations(count: number, limit: number): number {
    if (Atomics.load(this.cells, STOPPED) === 1) return 0;
    const before = Number(Atomics.add(this.count, 0, BigInt(count)));
    const granted = Math.max(0, Math.min(count, limit - before));
    if (granted < count) Atomics.sub(this.count, 0, BigInt(count - granted));
    return granted;
  }
}

/**
 * An event loop's share of the operation count, taken from the shared count a few at a time:
 * the workers of several threads would otherwise all write one shared counter at every
 * operation (a cache line bouncing between cores). The total stays exact; at the very end a
 * loop may hold a few operations another could have done, which changes no count.
 */
export class OperationBudget {
  private held = 0;

  constructor(
    private readonly control: RunControl,
    private readonly limit: number,
    private readonly chunk = 16,
  ) {}

  /** May a worker start one more operation? False once the run is stopped or the count is used up. */
  take(): boolean {
    if (this.control.stopped) return false;
    if (this.held === 0) this.held = this.control.claimOperations(this.chunk, this.limit);
    if (this.held === 0) return false;
    this.held--;
    return true;
  }
}
