/**
 * Waiting until an exact moment, cheaply, for the target-rate schedule.
 *
 * Node's timers cannot do it alone: they count in whole milliseconds of a loop clock that lags
 * the real one, so a `setTimeout` fires up to a couple of milliseconds before the time asked
 * (most operations started early at 1,000 ops/s: docs/harness-benchmarks.md), and an operation that starts early
 * understates the very delay the `Intended-` rows exist to show. Turning the event loop
 * (setImmediate) until the due time is exact but takes a whole core while anything waits.
 *
 * So a wait has two parts. A timer (cheap, possibly early) brings it to within a few
 * milliseconds of the due time. The rest is waited out exactly, in the cheapest way that harms
 * no measurement:
 *   - when none of this event loop's operations is in flight (the usual case under a target
 *     rate: the store answered long before the next operation is due), the thread sleeps in
 *     `Atomics.wait` until the due time: nothing is delayed by it, and the kernel keeps the
 *     timeout to tens of microseconds;
 *   - when some are in flight, the event loop must stay free to take their answers the moment
 *     they come, so a small alarm thread sleeps instead (`Atomics.wait`) and wakes the loop
 *     through `Atomics.waitAsync`, set a little early by its own wake-up latency (learnt as it
 *     goes); the loop waits out that last stretch checking the clock.
 * An operation is released only once `performance.now() >= due`: never early.
 * One clock per event loop, shared by its workers; only target-rate runs make one.
 */
import { Worker } from 'node:worker_threads';

/**
 * Closer than this to the earliest due time, the timer has done its part. It is set for 2 ms
 * before the due time and fires up to ~2 ms earlier still.
 */
const NEAR_MS = 4;
const TIMER_AHEAD_MS = 2;

/** Bounds of a learnt wake-up latency (a sleep's or the alarm's), and how fast its estimate moves down and up. */
const LEAD_MIN_MS = 0.01;
const LEAD_MAX_MS = 0.3;
const LEAD_START_MS = 0.05;
const LEAD_DOWN = 0.25;
const LEAD_UP = 0.02;

/**
 * A running low estimate of a wake-up latency: it moves down fast and up slowly, so one slow
 * wake-up on a loaded machine does not make every later wait watch the clock for longer.
 */
function lowEstimate(current: number, latency: number): number {
  const step = latency < current ? LEAD_DOWN : LEAD_UP;
  return Math.min(LEAD_MAX_MS, Math.max(LEAD_MIN_MS, current + step * (latency - current)));
}

interface Waiting {
  due: number;
  release: () => void;
}

export class PreciseClock {
  /** Waiting operations, a binary min-heap on due time. */
  private readonly heap: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerFor = Number.POSITIVE_INFINITY;
  private alarm: Alarm | undefined;
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));
  /** How long before a due time the thread wakes from a sleep (ms): a low estimate of how late sleeps end. */
  private sleepLeadMs = LEAD_START_MS;
  /** A turn of the event loop is pending (spinning, or letting released operations start). */
  private turning = false;
  private closed = false;

  /** `busy()`: is any operation of this event loop in flight (waiting for the store)? */
  constructor(private readonly busy: () => boolean) {}

  /** Resolves at `dueMs` (performance.now()) or later, never earlier. */
  until(dueMs: number): Promise<void> {
    if (this.closed) throw new Error('PreciseClock used after close()');
    return new Promise((release) => {
      this.push({ due: dueMs, release });
      this.schedule();
    });
  }

  /** Stop the alarm thread and the timer; waiting operations are released at once (the run is over). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    while (this.heap.length > 0) this.pop().release();
    await this.alarm?.close();
  }

  private schedule(): void {
    if (this.turning || this.closed || this.heap.length === 0) return;
    const next = this.heap[0]!.due;
    const left = next - performance.now();
    if (left <= 0) {
      this.releaseDue();
      return;
    }
    if (left > NEAR_MS) {
      this.setTimer(next, left);
      return;
    }
    if (!this.busy()) {
      // Nothing in flight on this loop: sleeping the thread delays nothing. It sleeps until its
      // usual oversleep before the due time, then watches the clock for what is left.
      const wakeAt = next - this.sleepLeadMs;
      for (let rest = wakeAt - performance.now(); rest > 0; rest = wakeAt - performance.now())
        Atomics.wait(this.sleeper, 0, 0, rest);
      this.sleepLeadMs = lowEstimate(this.sleepLeadMs, performance.now() - wakeAt);
      while (performance.now() < next);
      this.releaseDue();
      return;
    }
    this.alarm ??= new Alarm(() => this.schedule());
    if (left <= this.alarm.leadMs) this.spin();
    else this.alarm.set(next - this.alarm.leadMs);
  }

  /** A timer for the earliest due time, unless one is set for it already (it will fire early: the rest is schedule()'s). */
  private setTimer(due: number, left: number): void {
    if (this.timer !== undefined && this.timerFor <= due) return;
    clearTimeout(this.timer);
    this.timerFor = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerFor = Number.POSITIVE_INFINITY;
      this.schedule();
    }, left - TIMER_AHEAD_MS);
  }

  /** Release every operation now due, then give them a turn of the loop to start before looking again. */
  private releaseDue(): void {
    const now = performance.now();
    while (this.heap.length > 0 && this.heap[0]!.due <= now) this.pop().release();
    this.turn();
  }

  /** The alarm's last stretch: turn the event loop (answers still come in) until the due time has passed. */
  private spin(): void {
    this.turn();
  }

  private turn(): void {
    if (this.turning) return;
    this.turning = true;
    setImmediate(() => {
      this.turning = false;
      const now = performance.now();
      if (this.heap.length > 0 && this.heap[0]!.due <= now) this.releaseDue();
      else this.schedule();
    });
  }

  private push(entry: Waiting): void {
    const heap = this.heap;
    let i = heap.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.due <= entry.due) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  private pop(): Waiting {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && heap[right]!.due < heap[left]!.due ? right : left;
        if (heap[child]!.due >= last.due) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}

// The alarm's shared memory: [0] wake-up time (µs, BigInt64), then int32 [2] request number, [3] fired request.
const WAKE_AT = 0;
const REQUEST = 2;
const FIRED = 3;
const CLOSED = -1;

/**
 * The alarm thread, as source (eval'd: plain JavaScript, no loader, starts in milliseconds).
 * It sleeps until a request comes, then until the request's time (a newer request wakes it
 * early and is taken instead), then publishes the request's number as fired and notifies.
 */
const ALARM_THREAD = `
const { workerData: shared } = require('node:worker_threads');
const wakeAt = new BigInt64Array(shared, 0, 1);
const flags = new Int32Array(shared, 0, 4);
let handled = 0;
for (;;) {
  const request = Atomics.load(flags, ${REQUEST});
  if (request === ${CLOSED}) break;
  if (request === handled) { Atomics.wait(flags, ${REQUEST}, request); continue; }
  const left = Number(Atomics.load(wakeAt, ${WAKE_AT})) / 1000 - performance.now();
  if (left > 0) { Atomics.wait(flags, ${REQUEST}, request, left); continue; }
  handled = request;
  Atomics.store(flags, ${FIRED}, request);
  Atomics.notify(flags, ${FIRED});
}
`;

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
// ES2024's Atomics.waitAsync (in Node since 16); the project's TypeScript lib is ES2022.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** A wake-up call for the event loop at a precise time, from a thread that sleeps until then. */
class Alarm {
  private readonly shared = new SharedArrayBuffer(16);
  private readonly wakeAt = new BigInt64Array(this.shared, 0, 1);
  private readonly flags = new Int32Array(this.shared, 0, 4);
  private readonly thread: Worker;
  private request = 0;
  /** The time the alarm is set for and has not fired yet (Infinity: not set). */
  private setFor = Number.POSITIVE_INFINITY;
  private listening = false;
  /** How long before a due time to set the alarm (ms): a low estimate of its wake-up latency (lowEstimate). */
  leadMs = LEAD_START_MS;

  constructor(private readonly onFired: () => void) {
    // The thread keeps the process alive while the clock is open, as a pending timer would.
    this.thread = new Worker(ALARM_THREAD, { eval: true, workerData: this.shared });
  }

  /** Wake the event loop at `at` (or a little after), unless set for earlier already. */
  set(at: number): void {
    if (at < this.setFor) {
      this.setFor = at;
      // Rounded up to the microsecond: the alarm never fires before `at`.
      Atomics.store(this.wakeAt, WAKE_AT, BigInt(Math.ceil(at * 1000)));
      Atomics.store(this.flags, REQUEST, ++this.request);
      Atomics.notify(this.flags, REQUEST);
    }
    this.listen();
  }

  async close(): Promise<void> {
    Atomics.store(this.flags, REQUEST, CLOSED);
    Atomics.notify(this.flags, REQUEST);
    await this.thread.terminate();
  }

  /** One pending waitAsync at a time: it resolves when the thread publishes any fired request. */
  private listen(): void {
    if (this.listening) return;
    const fired = Atomics.load(this.flags, FIRED);
    if (fired === this.request) {
      this.fired();
      return;
    }
    const wait = waitAsync(this.flags, FIRED, fired);
    if (!wait.async) {
      this.fired();
      return;
    }
    this.listening = true;
    void wait.value.then(() => {
      this.listening = false;
      this.fired();
    });
  }

  private fired(): void {
    if (Atomics.load(this.flags, FIRED) === this.request && this.setFor !== Number.POSITIVE_INFINITY) {
      this.leadMs = lowEstimate(this.leadMs, performance.now() - this.setFor);
      this.setFor = Number.POSITIVE_INFINITY;
    }
    this.onFired();
  }
}
