import type { Random } from '../random.ts';
import type { NumberGenerator } from './number-generator.ts';

/** YCSB UniformLongGenerator: uniform over [lower, upper], inclusive. */
export class UniformGenerator implements NumberGenerator {
  private readonly interval: number;
  private last = 0;

  constructor(
    private readonly random: Random,
    private readonly lower: number,
    upper: number,
  ) {
    this.interval = upper - lower + 1;
  }

  nextValue(): number {
    this.last = this.lower + this.random.nextInt(this.interval);
    return this.last;
  }

  lastValue(): number {
    return this.last;
  }

  mean(): number {
    return this.lower + (this.interval - 1) / 2;
  }
}
