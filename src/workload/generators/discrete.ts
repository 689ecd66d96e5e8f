import type { Random } from '../random.ts';

/**
 * YCSB DiscreteGenerator: picks one of several values with given weights (the operation
 * chooser). Weights are normalised once; a draw walks the cumulative sums.
 */
export class DiscreteGenerator<T> {
  private readonly values: T[] = [];
  private readonly cumulative: number[] = [];
  private last: T | undefined;

  constructor(
    private readonly random: Random,
    choices: ReadonlyArray<readonly [T, number]>,
  ) {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    if (!(total > 0)) throw new Error('DiscreteGenerator needs at least one positive weight');
    let running = 0;
    for (const [value, weight] of choices) {
      if (weight <= 0) continue;
      running += weight / total;
      this.values.push(value);
      this.cumulative.push(running);
    }
    this.cumulative[this.cumulative.length - 1] = 1;
  }

  nextValue(): T {
    const u = this.random.nextDouble();
    const n = this.cumulative.length;
    for (let i = 0; i < n - 1; i++) {
      if (u < this.cumulative[i]!) return (this.last = this.values[i]!);
    }
    return (this.last = this.values[n - 1]!);
  }

  lastValue(): T | undefined {
    return this.last;
  }
}
