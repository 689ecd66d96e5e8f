import type { NumberGenerator } from './number-generator.ts';

/**
 * YCSB CounterGenerator: start, start+1, …; lastValue is the last value handed out.
 * One instance serves every worker of a process; across processes, `runner/shared-counters.ts`
 * gives the same counter in shared memory (a subclass, so either can stand where this one does).
 */
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

  /**
   * Take `count` consecutive values at once (a load batch): the first is returned, the next
   * `count - 1` are the caller's too. Same values as `count` calls of nextValue().
   */
  claim(count: number): number {
    const first = this.counter;
    this.counter += count;
    return first;
  }
}
