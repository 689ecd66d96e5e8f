/**
 * Waiting until an exact moment without burning a core, for the target-rate schedule.
 *
 * Node's timers cannot do it: they count in whole milliseconds of a loop clock that lags the
 * real one, so a `setTimeout` fires up to ~2 ms before the time asked (78% of operations started
 * early, by up to 1.63 ms, at 1,000 ops/s), and an operation that starts early understates the
 * very delay the `Intended-` rows exist to show. Spinning the event loop (setImmediate) until the
 * due time is exact but costs a whole core while anything waits (96% CPU at 500 ops/s).
 *
 * So the waiting is done by a small alarm thread: it sleeps in `Atomics.wait` with a timeout,
 * which the kernel keeps to tens of microseconds, and wakes the event loop through
 * `Atomics.waitAsync` (no spinning, I/O keeps flowing meanwhile). It is armed a little before the
 * earliest due time (by about its own wake-up latency, learnt as it goes); the last stretch is
 * waited out with setImmediate, checking `performance.now()` (comparable across the threads of
 * a process). An operation is released only once `performance.now() >= due`: never early.
 * One clock (one alarm thread) per event loop, shared by all its workers; only target-rate runs
 * make one.
 */
import { Worker } from 'node:worker_threads';

/**
 * The alarm is set this much before a due time, the rest waited out on the event loop. It follows
 * the alarm's own wake-up latency (how late the event loop hears of it), so that the loop neither
 * turns long for nothing nor releases late: tens of microseconds on a quiet machine, more on a
 * loaded one. The bounds keep one odd wake-up from setting it anywhere useless.
 */
const LEAD_MIN_MS = 0.02;
const LEAD_MAX_MS = 0.5;
const LEAD_START_MS = 0.1;
/** Weight of the newest wake-up latency in the running estimate. */
const LEAD_WEIGHT = 0.1;

// Shared memory: [0] wake-up time (µs, BigInt64), then int32 [2] request number, [3] fired request.
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

type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
// ES2024's Atomics.waitAsync (in Node since 16); the project's TypeScript lib is ES2022.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

interface Waiting {
  due: number;
  release: () => void;
}

export class PreciseClock {
  private readonly shared = new SharedArrayBuffer(16);
  private readonly wakeAt = new BigInt64Array(this.shared, 0, 1);
  private readonly flags = new Int32Array(this.shared, 0, 4);
  private readonly alarm: Worker;
  /** Waiting operations, a binary min-heap on due time. */
  private readonly heap: Waiting[] = [];
  private request = 0;
  /** The time the alarm is set for and has not fired yet (Infinity: not set). */
  private armedAt = Number.POSITIVE_INFINITY;
  private listening = false;
  private spinning = false;
  /** How long before a due time the alarm is set (ms): the estimate of its wake-up latency. */
  private leadMs = LEAD_START_MS;
  private closed = false;

  constructor() {
    // The alarm thread keeps the process alive while the clock is open, as a pending timer would.
    this.alarm = new Worker(ALARM_THREAD, { eval: true, workerData: this.shared });
  }

  /** Resolves at `dueMs` (performance.now()) or later, never earlier. */
  until(dueMs: number): Promise<void> {
    if (this.closed) throw new Error('PreciseClock used after close()');
    return new Promise((release) => {
      this.push({ due: dueMs, release });
      this.schedule();
    });
  }

  /** Stop the alarm thread; waiting operations are released at once (the run is over). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.flags, REQUEST, CLOSED);
    Atomics.notify(this.flags, REQUEST);
    while (this.heap.length > 0) this.pop().release();
    await this.alarm.terminate();
  }

  private schedule(): void {
    if (this.spinning || this.closed || this.heap.length === 0) return;
    const next = this.heap[0]!.due;
    if (next - performance.now() <= this.leadMs) {
      this.spin();
      return;
    }
    const at = next - this.leadMs;
    if (at < this.armedAt) this.arm(at);
    this.listen();
  }

  private arm(at: number): void {
    this.armedAt = at;
    // Rounded up to the microsecond: the alarm never fires before `at`.
    Atomics.store(this.wakeAt, WAKE_AT, BigInt(Math.ceil(at * 1000)));
    Atomics.store(this.flags, REQUEST, ++this.request);
    Atomics.notify(this.flags, REQUEST);
  }

  /** One pending waitAsync at a time: it resolves when the alarm publishes any fired request. */
  private listen(): void {
    if (this.listening) return;
    const fired = Atomics.load(this.flags, FIRED);
    if (fired === this.request) {
      this.onFired();
      return;
    }
    const wait = waitAsync(this.flags, FIRED, fired);
    if (!wait.async) {
      this.onFired();
      return;
    }
    this.listening = true;
    void wait.value.then(() => {
      this.listening = false;
      this.onFired();
    });
  }

  private onFired(): void {
    if (Atomics.load(this.flags, FIRED) === this.request && this.armedAt !== Number.POSITIVE_INFINITY) {
      const latency = performance.now() - this.armedAt;
      this.leadMs = Math.min(LEAD_MAX_MS, Math.max(LEAD_MIN_MS, this.leadMs + LEAD_WEIGHT * (latency - this.leadMs)));
      this.armedAt = Number.POSITIVE_INFINITY;
    }
    this.schedule();
  }

  /** The last stretch: turn the event loop (I/O still flows) until each due time has passed. */
  private spin(): void {
    this.spinning = true;
    const turn = () => {
      const now = performance.now();
      while (this.heap.length > 0 && this.heap[0]!.due <= now) this.pop().release();
      if (this.closed || this.heap.length === 0 || this.heap[0]!.due - now > this.leadMs) {
        this.spinning = false;
        this.schedule();
        return;
      }
      setImmediate(turn);
    };
    setImmediate(turn);
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
