import type { NumberGenerator } from './number-generator.ts';

/** YCSB ConstantIntegerGenerator. */
export class ConstantGenerator implements NumberGenerator {
  constructor(private readonly value: number) {}

  nextValue(): number {
    return this.value;
  }

  lastValue(): number {
    return this.value;
  }

  mean(): number {
    return this.value;
  }
}
