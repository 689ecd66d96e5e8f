import type { NumberGenerator } from './number-generator.ts';

/** YCSB SequentialGenerator: start, start+1, …, end, start, … (wraps around). */
export class SequentialGenerator implements NumberGenerator {
  private readonly interval: number;
  private counter = 0;
  private last = 0;

  constructor(
    private readonly start: number,
    end: number,
  ) {
    this.interval = end - start + 1;
  }

  nextValue(): number {
    this.last = this.start + (this.counter++ % this.interval);
    return this.last;
  }

  lastValue(): number {
    return this.last;
  }
}
