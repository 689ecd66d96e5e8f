import type { Random } from '../random.ts';
import type { NumberGenerator } from './number-generator.ts';

/** YCSB's ZIPFIAN_CONSTANT. */
export const ZIPFIAN_CONSTANT = 0.99;

/** zeta(n, theta) = sum_{i=1..n} 1/i^theta, continued from a partial sum over the first `from` items. */
export function zeta(from: number, n: number, theta: number, initialSum: number): number {
  let sum = initialSum;
  for (let i = from; i < n; i++) sum += 1 / Math.pow(i + 1, theta);
  return sum;
}

/**
 * YCSB ZipfianGenerator (Gray et al., "Quickly Generating Billion-Record Synthetic Databases"):
 * item 0 is the most popular, then 1, …. Popularity of rank k is 1/(k+1)^theta / zeta(n).
 * `nextValue(itemCount)` lets the item count grow (for inserts) by extending zeta incrementally,
 * as YCSB does; like YCSB, eta keeps using the item count given at construction.
 */
export class ZipfianGenerator implements NumberGenerator {
  private readonly items: number;
  private readonly base: number;
  private readonly theta: number;
  private readonly zeta2theta: number;
  private readonly alpha: number;
  private readonly halfPowTheta: number;
  private zetan: number;
  private eta: number;
  private countForZeta: number;
  private last = 0;

  constructor(
    private readonly random: Random,
    min: number,
    max: number,
    theta = ZIPFIAN_CONSTANT,
    zetan?: number,
  ) {
    this.items = max - min + 1;
    this.base = min;
    this.theta = theta;
    this.zeta2theta = zeta(0, 2, theta, 0);
    this.alpha = 1 / (1 - theta);
    this.zetan = zetan ?? zeta(0, this.items, theta, 0);
    this.countForZeta = this.items;
    this.eta = this.computeEta();
    this.halfPowTheta = 1 + Math.pow(0.5, theta);
  }

  private computeEta(): number {
    return (1 - Math.pow(2 / this.items, 1 - this.theta)) / (1 - this.zeta2theta / this.zetan);
  }

  nextValue(): number {
    return this.nextFor(this.items);
  }

  /** A draw over `itemCount` items (grows zeta when the count grew since the last call). */
  nextFor(itemCount: number): number {
    if (itemCount > this.countForZeta) {
      this.zetan = zeta(this.countForZeta, itemCount, this.theta, this.zetan);
      this.countForZeta = itemCount;
      this.eta = this.computeEta();
    }
    const u = this.random.nextDouble();
    const uz = u * this.zetan;
    let value: number;
    if (uz < 1) value = this.base;
    else if (uz < this.halfPowTheta) value = this.base + 1;
    else value = this.base + Math.floor(itemCount * Math.pow(this.eta * u - this.eta + 1, this.alpha));
    this.last = value;
    return value;
  }

  lastValue(): number {
    return this.last;
  }
}
