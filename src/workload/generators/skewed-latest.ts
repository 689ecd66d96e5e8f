import type { Random } from '../random.ts';
import type { CounterGenerator } from './counter.ts';
import type { NumberGenerator } from './number-generator.ts';
import { ZipfianGenerator } from './zipfian.ts';

/**
 * YCSB SkewedLatestGenerator: the most recently inserted item is the most popular, then the one
 * before it, … (zipfian over the distance from the newest key). The basis is the transaction
 * insert counter, so newly acknowledged inserts become the hottest keys.
 */
export class SkewedLatestGenerator implements NumberGenerator {
  private readonly zipfian: ZipfianGenerator;
  private last = 0;

  constructor(
    random: Random,
    private readonly basis: CounterGenerator,
  ) {
    this.zipfian = new ZipfianGenerator(random, 0, this.basis.lastValue() - 1);
  }

  nextValue(): number {
    const max = this.basis.lastValue();
    this.last = max - this.zipfian.nextFor(max);
    return this.last;
  }

  lastValue(): number {
    return this.last;
  }
}
