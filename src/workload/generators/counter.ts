import type { NumberGenerator } from './number-generator.ts';

/** YCSB CounterGenerator: start, start+1, …; lastValue is the last value handed out. */
export class CounterGenerator implements NumberGenerator {
  protected counter: number;

  constructor(start: number) {
    this.counter = start;
  }

  nextValue(): number {
    return this.counter++;
  }

  lastValue(): number {
    return this.counter - 1;
  }
}
