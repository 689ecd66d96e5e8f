import type { Random } from '../random.ts';
import type { NumberGenerator } from './number-generator.ts';

/**
 * YCSB ExponentialGenerator: exponentially distributed offsets, `percentile`% of them below
 * `range` (CoreWorkload uses range = recordcount × exponential.frac, and counts back from the
 * newest key).
 */
export class ExponentialGenerator implements NumberGenerator {
  private readonly gamma: number;
  private last = 0;

  constructor(
    private readonly random: Random,
    percentile: number,
    range: number,
  ) {
    this.gamma = -Math.log(1 - percentile / 100) / range;
  }

  nextValue(): number {
    this.last = Math.floor(-Math.log(1 - this.random.nextDouble()) / this.gamma);
    return this.last;
  }

  lastValue(): number {
    return this.last;
  }

  mean(): number {
    return 1 / this.gamma;
  }
}
