/**
 * YCSB's three counters that every client thread shares, in shared memory, so workers spread
 * over several worker threads draw from one sequence each, exactly as YCSB's threads do from its
 * one CoreWorkload (not an approximation such as per-process key ranges):
 *
 *   load keys           insertstart, insertstart+1, …: each handed out once (Atomics.add), so
 *                       a load writes the same keys whatever the number of processes;
 *   run-phase inserts   recordcount, recordcount+1, …: never two inserts of one key;
 *   acknowledged limit  the highest insert key below which every insert is done: reads, updates,
 *                       scans and `latest` choose keys up to it, so no process reads a record
 *                       another process has not finished inserting.
 *
 * The limit moves as YCSB's AcknowledgedCounterGenerator moves it: a finished insert marks its
 * slot in a window of 2^20 slots, and whoever takes the lock (compare-and-swap, never waited for)
 * moves the limit over every contiguous marked slot. Key numbers are 64-bit (BigInt64Array), as
 * YCSB's longs. The main thread makes the memory; each worker thread attaches to it.
 */
import { ACKNOWLEDGE_WINDOW_SIZE, type AcknowledgedCounter } from '../workload/generators/acknowledged-counter.ts';
import { CounterGenerator } from '../workload/generators/counter.ts';
import type { WorkloadCounters } from '../workload/core-workload.ts';

const LOAD_NEXT = 0;
const INSERT_NEXT = 1;
const INSERT_LIMIT = 2;
const COUNTER_BYTES = 3 * 8;
const LOCK_BYTES = 8;
const WINDOW_MASK = ACKNOWLEDGE_WINDOW_SIZE - 1;

/** A counter in shared memory: slot `index` of `cells` holds the next value to hand out. */
class SharedCounter extends CounterGenerator {
  constructor(
    private readonly cells: BigInt64Array,
    private readonly index: number,
  ) {
    super(0);
  }

  override nextValue(): number {
    return Number(Atomics.add(this.cells, this.index, 1n));
  }

  override lastValue(): number {
    return Number(Atomics.load(this.cells, this.index)) - 1;
  }

  override claim(count: number): number {
    return Number(Atomics.add(this.cells, this.index, BigInt(count)));
  }
}

/** YCSB's AcknowledgedCounterGenerator in shared memory (see the file comment). */
class SharedAcknowledgedCounter extends SharedCounter implements AcknowledgedCounter {
  constructor(
    private readonly counters: BigInt64Array,
    private readonly lock: Int32Array,
    private readonly window: Uint8Array,
  ) {
    super(counters, INSERT_NEXT);
  }

  override lastValue(): number {
    return Number(Atomics.load(this.counters, INSERT_LIMIT));
  }

  acknowledge(value: number): void {
    const slot = value & WINDOW_MASK;
    if (Atomics.compareExchange(this.window, slot, 0, 1) !== 0)
      throw new Error('Too many unacknowledged insertion keys.');
    // As YCSB: only the thread that gets the lock moves the limit; the others leave it to it.
    // Unlike YCSB, the holder looks once more after letting go, so a slot marked while it held
    // the lock does not wait for the next insert to move the limit over it.
    while (Atomics.compareExchange(this.lock, 0, 0, 1) === 0) {
      let index = Number(Atomics.load(this.counters, INSERT_LIMIT)) + 1;
      for (let steps = 0; steps < ACKNOWLEDGE_WINDOW_SIZE; steps++, index++) {
        const s = index & WINDOW_MASK;
        if (Atomics.load(this.window, s) !== 1) break;
        Atomics.store(this.window, s, 0);
      }
      Atomics.store(this.counters, INSERT_LIMIT, BigInt(index - 1));
      Atomics.store(this.lock, 0, 0);
      if (Atomics.load(this.window, index & WINDOW_MASK) !== 1) break;
    }
  }
}

/** The counters of one phase, shared by the main thread and every worker thread. */
export class SharedCounters {
  /** What a worker thread needs to attach (a SharedArrayBuffer survives postMessage as shared memory). */
  readonly buffer: SharedArrayBuffer;

  private constructor(buffer: SharedArrayBuffer) {
    this.buffer = buffer;
  }

  /** New counters: load keys from `loadStart`, run-phase inserts from `insertStart` (recordcount). */
  static create(loadStart: number, insertStart: number): SharedCounters {
    const buffer = new SharedArrayBuffer(COUNTER_BYTES + LOCK_BYTES + ACKNOWLEDGE_WINDOW_SIZE);
    const counters = new BigInt64Array(buffer, 0, 3);
    counters[LOAD_NEXT] = BigInt(loadStart);
    counters[INSERT_NEXT] = BigInt(insertStart);
    counters[INSERT_LIMIT] = BigInt(insertStart - 1);
    return new SharedCounters(buffer);
  }

  static attach(buffer: SharedArrayBuffer): SharedCounters {
    return new SharedCounters(buffer);
  }

  /** CoreWorkload's counters over this memory (each thread makes its own views of it). */
  workloadCounters(): WorkloadCounters {
    const counters = new BigInt64Array(this.buffer, 0, 3);
    const lock = new Int32Array(this.buffer, COUNTER_BYTES, 1);
    const window = new Uint8Array(this.buffer, COUNTER_BYTES + LOCK_BYTES, ACKNOWLEDGE_WINDOW_SIZE);
    return {
      loadKeys: new SharedCounter(counters, LOAD_NEXT),
      transactionInserts: new SharedAcknowledgedCounter(counters, lock, window),
    };
  }
}
