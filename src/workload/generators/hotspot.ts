import type { Random } from '../random.ts';
import type { NumberGenerator } from './number-generator.ts';

/**
 * YCSB HotspotIntegerGenerator: a fraction `hotOpnFraction` of draws fall uniformly in the first
 * `hotsetFraction` of [lower, upper] (the hot set), the rest uniformly in the remainder.
 */
export class HotspotGenerator implements NumberGenerator {
  private readonly hotInterval: number;
  private readonly coldInterval: number;
  private last = 0;

  constructor(
    private readonly random: Random,
    private readonly lower: number,
    upper: number,
    hotsetFraction: number,
    private readonly hotOpnFraction: number,
  ) {
    const interval = upper - lower + 1;
    this.hotInterval = Math.floor(interval * hotsetFraction);
    this.coldInterval = interval - this.hotInterval;
  }

  nextValue(): number {
    const hot = this.random.nextDouble() < this.hotOpnFraction;
    if (hot && this.hotInterval > 0) this.last = this.lower + this.random.nextInt(this.hotInterval);
    else this.last = this.lower + this.hotInterval + this.random.nextInt(Math.max(1, this.coldInterval));
    return this.last;
  }

  lastValue(): number {
    return this.last;
  }
}
