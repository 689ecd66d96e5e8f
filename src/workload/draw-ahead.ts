import type { NumberGenerator } from './generators/number-generator.ts';

/**
 * Draws made ahead, a batch at a time. Between two operations of a run the store's driver does
 * its own work, which pushes the workload's state (a dozen small objects: the random state, the
 * zipfian's constants, the key-name cache of fnv.ts) out of the CPU's caches, so drawing at each operation
 * costs cache misses, far more than the arithmetic. In a batch the state stays in cache and the
 * misses overlap, and an operation reads its draw from a short array.
 *
 * Only draws that do not depend on the run's progress are made ahead: the operation mix, and the
 * key choosers whose next value does not depend on the inserts acknowledged so far (not
 * `latest`). The workload still checks each key against the acknowledged limit when it takes it,
 * so no key is ever beyond it; a draw taken a little after it was made follows the same
 * distribution, as each draw is independent of the ones before.
 */
export const AHEAD = 64;

/** The values of `draw`, made AHEAD at a time. */
export class DrawsAhead<T> {
  private readonly values: T[] = [];
  private next = 0;

  constructor(private readonly draw: () => T) {}

  take(): T {
    if (this.next === this.values.length) this.refill();
    return this.values[this.next++]!;
  }

  private refill(): void {
    for (let i = 0; i < AHEAD; i++) this.values[i] = this.draw();
    this.next = 0;
  }
}

/** A key chooser's numbers made AHEAD at a time, with their key names when the numbers are the keys themselves. */
export class KeysAhead {
  private readonly numbers = new Float64Array(AHEAD);
  private readonly names = new Array<string>(AHEAD).fill('');
  private next = AHEAD;

  constructor(
    private readonly chooser: NumberGenerator,
    /** Names the numbers in the batch; undefined where a number is not yet a key (exponential counts back from the limit). */
    private readonly nameOf: ((keyNumber: number) => string) | undefined,
  ) {}

  take(): number {
    if (this.next === AHEAD) this.refill();
    return this.numbers[this.next++]!;
  }

  /** The key name of the number `take` returned last (only with nameOf). */
  lastName(): string {
    return this.names[this.next - 1]!;
  }

  private refill(): void {
    const { numbers, names, chooser, nameOf } = this;
    for (let i = 0; i < AHEAD; i++) numbers[i] = chooser.nextValue();
    if (nameOf !== undefined) for (let i = 0; i < AHEAD; i++) names[i] = nameOf(numbers[i]!);
    this.next = 0;
  }
}
