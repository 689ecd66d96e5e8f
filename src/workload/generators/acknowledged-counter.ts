import { CounterGenerator } from './counter.ts';

/** What CoreWorkload needs of the insert counter: YCSB's counter plus acknowledgements. */
export interface AcknowledgedCounter extends CounterGenerator {
  /** The insert of `value` is done (successfully or not): `lastValue()` may move past it. */
  acknowledge(value: number): void;
}

/** YCSB's window of outstanding (handed out, not yet acknowledged) values. */
export const ACKNOWLEDGE_WINDOW_SIZE = 1 << 20;
const WINDOW_MASK = ACKNOWLEDGE_WINDOW_SIZE - 1;

/**
 * YCSB AcknowledgedCounterGenerator: hands out insert key numbers, but `lastValue()` only
 * advances over values whose inserts have completed, contiguously. Readers never pick a key
 * whose insert is still in flight (or failed before all earlier ones finished).
 * `runner/shared-counters.ts` has the same counter in shared memory for several processes.
 */
export class AcknowledgedCounterGenerator extends CounterGenerator implements AcknowledgedCounter {
  private readonly window = new Uint8Array(ACKNOWLEDGE_WINDOW_SIZE);
  private limit: number;

  constructor(start: number) {
    super(start);
    this.limit = start - 1;
  }

  override lastValue(): number {
    return this.limit;
  }

  acknowledge(value: number): void {
    const slot = value & WINDOW_MASK;
    if (this.window[slot] === 1) throw new Error('Too many unacknowledged insertion keys.');
    this.window[slot] = 1;
    // Advance the limit over every contiguous acknowledged value.
    let index = this.limit + 1;
    for (let steps = 0; steps < ACKNOWLEDGE_WINDOW_SIZE; steps++, index++) {
      const s = index & WINDOW_MASK;
      if (this.window[s] !== 1) break;
      this.window[s] = 0;
    }
    this.limit = index - 1;
  }
}
