import { fnvhash64String } from './fnv.ts';

/**
 * YCSB CoreWorkload.buildKeyName: "user" + the key number (ordered inserts) or its FNV-64 hash
 * (hashed inserts, the default, which spreads sequential inserts over the key space), left-padded
 * with zeros to `zeropadding` digits.
 */
export function buildKeyName(keyNumber: number, zeroPadding: number, orderedInserts: boolean): string {
  const digits = orderedInserts ? String(keyNumber) : fnvhash64String(keyNumber);
  const fill = zeroPadding - digits.length;
  return fill > 0 ? `user${'0'.repeat(fill)}${digits}` : `user${digits}`;
}

const NAME_CACHE_BITS = 16;
const NAME_CACHE_MASK = (1 << NAME_CACHE_BITS) - 1;

/**
 * buildKeyName for one workload's settings, remembering the last names made by key number
 * (direct-mapped on the number's low bits). A run names a key at every operation, and hashing,
 * printing and joining "user" with the digits cost about 200 ns (Node 20), half of all the rest
 * of docbench's own work for an operation; under zipfian or a small key space most keys recur,
 * so a hit is a compare and a load. 64 Ki entries hold every key of a 10,000-record table and the hot
 * ones of a large one.
 */
export class KeyNames {
  /** Key number + 1 per slot (0: empty), so a new cache needs no filling. */
  private readonly numbers = new Float64Array(1 << NAME_CACHE_BITS);
  private readonly names = new Array<string>(1 << NAME_CACHE_BITS);

  constructor(
    private readonly zeroPadding: number,
    private readonly orderedInserts: boolean,
  ) {}

  nameOf(keyNumber: number): string {
    const slot = keyNumber & NAME_CACHE_MASK;
    if (this.numbers[slot] === keyNumber + 1) return this.names[slot]!;
    const name = buildKeyName(keyNumber, this.zeroPadding, this.orderedInserts);
    this.numbers[slot] = keyNumber + 1;
    this.names[slot] = name;
    return name;
  }
}
