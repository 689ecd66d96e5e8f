import { CounterGenerator } from './counter.ts';

/** YCSB's window of outstanding (handed out, not yet acknowledged) values. */
const WINDOW_SIZE = 1 << 20;
const WINDOW_MASK = WINDOW_SIZE - 1;

/**
 * YCSB AcknowledgedCounterGenerator: hands out insert key numbers, but `lastValue()` only
 * advances over values whose inserts have completed, contiguously. Readers never pick a key
 * whose insert is still in flight (or failed before all earlier ones finished).
 */
export class AcknowledgedCounterGenerator extends CounterGenerator {
  private readonly window = new Uint8Array(WINDOW_SIZE);
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
    for (let steps = 0; steps < WINDOW_SIZE; steps++, index++) {
      const s = index & WINDOW_MASK;
      if (this.window[s] !== 1) break;
      this.window[s] = 0;
    }
    this.limit = index - 1;
  }
}
