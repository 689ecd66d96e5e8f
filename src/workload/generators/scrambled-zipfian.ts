import { FnvModulus } from '../fnv.ts';
import type { Random } from '../random.ts';
import type { NumberGenerator } from './number-generator.ts';
import { ZIPFIAN_CONSTANT, ZipfianGenerator } from './zipfian.ts';

/** YCSB ScrambledZipfianGenerator's constants: zeta over 10^10 items at theta 0.99, precomputed. */
export const ZETAN = 26.46902820178302;
export const ITEM_COUNT = 10_000_000_000;

/**
 * YCSB ScrambledZipfianGenerator: zipfian popularity, but the popular items are scattered over
 * the key space by hashing (FNV-64) the zipfian rank, so hot keys do not cluster at the start.
 * Like YCSB it draws from a fixed zipfian over 10^10 items and maps into [min, max] by modulo,
 * which is why its skew barely depends on the item count.
 */
export class ScrambledZipfianGenerator implements NumberGenerator {
  // Declared, not defined, so V8 keeps these numbers unboxed (see ZipfianGenerator).
  declare private readonly zipfian: ZipfianGenerator;
  declare private readonly min: number;
  declare private readonly scramble: FnvModulus;
  declare private last: number;

  constructor(random: Random, min: number, max: number) {
    this.min = min;
    this.scramble = new FnvModulus(max - min + 1);
    // YCSB builds ZipfianGenerator(0, ITEM_COUNT, …): ITEM_COUNT + 1 items.
    this.zipfian = new ZipfianGenerator(random, 0, ITEM_COUNT, ZIPFIAN_CONSTANT, ZETAN);
    this.last = 0;
  }

  nextValue(): number {
    this.last = this.min + this.scramble.of(this.zipfian.nextValue());
    return this.last;
  }

  lastValue(): number {
    return this.last;
  }
}
