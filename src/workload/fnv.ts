/**
 * YCSB's `Utils.fnvhash64`: FNV-1a over the 8 little-endian bytes of a long, then `Math.abs`
 * of the signed 64-bit result. Scrambled zipfian and hashed key names depend on it.
 *
 * 64-bit arithmetic on two 32-bit halves, no BigInt (this is on every operation's path):
 * h × 1099511628211 = h × 0x1B3 + (h << 40) mod 2^64; `lo × 0x1B3` stays below 2^41 and so is
 * exact in a double. Inputs are non-negative integers below 2^53 (key numbers).
 */
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
const TWO_32 = 4294967296;
const INV_TWO_32 = 1 / TWO_32;
/** Moduli up to here reduce (hi mod m) × 2^32 + lo in one step without leaving exact doubles. */
const SMALL_MODULUS = 2097152;

// Result of the last hash, as two unsigned 32-bit halves of the non-negative 63-bit value
// (a typed array: cheaper to write from a hot loop than module-level variables).
const result = new Uint32Array(2);
// The value to hash is handed over in a typed array too: hashInto is too big for V8 to inline,
// and a key number above 2^30 passed as an argument would be boxed into a fresh heap object on
// every call.
const input = new Float64Array(1);

function hashInto(): void {
  const value = input[0]!;
  const inLo = value >>> 0;
  const inHi = (value * INV_TWO_32) >>> 0; // × 2^-32 is exact, and cheaper than a division
  let hi = OFFSET_HI | 0;
  let lo = OFFSET_LO | 0;
  let carry: number;
  // Eight rounds, one per byte, least significant first, unrolled by hand: a loop here costs
  // twice as much. Each round: lo ^= byte, then (hi:lo) *= prime, where the high 32 bits of
  // lo × 0x1B3 come from its two 16-bit halves, all in integer arithmetic.
  lo ^= inLo & 0xff;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= (inLo >>> 8) & 0xff;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= (inLo >>> 16) & 0xff;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= inLo >>> 24;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= inHi & 0xff;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= (inHi >>> 8) & 0xff;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= (inHi >>> 16) & 0xff;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  lo ^= inHi >>> 24;
  carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
  hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
  lo = Math.imul(lo, 0x1b3);
  // Math.abs of the signed long: two's complement negation when negative, without a branch
  // (the sign is a coin toss, and a mispredicted branch cost more than this whole step).
  // (Long.MIN_VALUE stays 2^63, as an unsigned value; Java would keep it negative. It needs a
  // 2^-64 chance.)
  const sign = hi >> 31;
  lo = (lo ^ sign) - sign;
  const borrow = (((lo | -lo) >>> 31) ^ 1) & sign; // 1 when negating and lo wrapped to 0
  hi = (hi ^ sign) + borrow;
  result[0] = hi;
  result[1] = lo;
}

/** x mod m for integers x < 2^53 via a precomputed reciprocal: no slow floating-point `%`. */
function mod(x: number, m: number, inverse: number): number {
  const r = x - Math.floor(x * inverse) * m;
  return r < 0 ? r + m : r >= m ? r - m : r;
}

/**
 * fnvhash64(value) % modulus for one fixed modulus below 2^37 (every intermediate stays below
 * 2^53), exactly, with what depends on the modulus computed once: the scrambled zipfian maps
 * every draw through one of these.
 */
export class FnvModulus {
  // Declared, not defined, so V8 keeps these numbers unboxed (see ZipfianGenerator).
  declare private readonly modulus: number;
  declare private readonly inverse: number;
  /** 2^32 mod modulus. */
  declare private readonly twoPow32: number;
  /** Up to 2^21, hi × (2^32 mod m) + lo stays below 2^53: one reduction instead of three. */
  declare private readonly small: boolean;

  constructor(modulus: number) {
    this.modulus = modulus;
    this.inverse = 1 / modulus;
    this.twoPow32 = TWO_32 % modulus;
    this.small = modulus <= SMALL_MODULUS;
  }

  of(value: number): number {
    if (value <= 0xffffffff && this.small) return this.ofUint32(value);
    input[0] = value;
    hashInto();
    const m = this.modulus;
    const inverse = this.inverse;
    if (this.small) return mod(result[0]! * this.twoPow32 + result[1]!, m, inverse);
    let r = mod(result[0]!, m, inverse);
    r = mod(r * 65536, m, inverse);
    r = mod(r * 65536, m, inverse);
    return mod(r + result[1]!, m, inverse);
  }

  /**
   * The common case, a value below 2^32 (96% of YCSB's zipfian ranks) and a modulus up to 2^21,
   * small enough for V8 to inline into the generator: the four high bytes are zero, so their
   * rounds only multiply by the prime, and (hi:lo) × prime^4 mod 2^64 is one multiplication by
   * PRIME4 = 0x9ffaac08_5635bc91 (hi × P4lo + lo × P4hi + the high half of lo × P4lo).
   */
  private ofUint32(value: number): number {
    let hi = OFFSET_HI | 0;
    let lo = OFFSET_LO | 0;
    let carry: number;
    lo ^= value & 0xff;
    carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
    lo = Math.imul(lo, 0x1b3);
    lo ^= (value >>> 8) & 0xff;
    carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
    lo = Math.imul(lo, 0x1b3);
    lo ^= (value >>> 16) & 0xff;
    carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
    lo = Math.imul(lo, 0x1b3);
    lo ^= value >>> 24;
    carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) | 0;
    lo = Math.imul(lo, 0x1b3);
    // × PRIME4: the high half of lo × P4lo from 16-bit pieces (each product below 2^32).
    const ll = lo & 0xffff;
    const lh = lo >>> 16;
    const b = lh * 0xbc91;
    const c = ll * 0x5635;
    const middle = ((ll * 0xbc91) >>> 16) + (b & 0xffff) + (c & 0xffff);
    carry = lh * 0x5635 + (b >>> 16) + (c >>> 16) + (middle >>> 16);
    hi = (carry + Math.imul(hi, 0x5635bc91) + Math.imul(lo, 0x9ffaac08)) | 0;
    lo = Math.imul(lo, 0x5635bc91);
    // Math.abs of the signed long, branch-free (see hashInto).
    const sign = hi >> 31;
    lo = (lo ^ sign) - sign;
    hi = (hi ^ sign) + ((((lo | -lo) >>> 31) ^ 1) & sign);
    return mod((hi >>> 0) * this.twoPow32 + (lo >>> 0), this.modulus, this.inverse);
  }
}

/** fnvhash64(value) % modulus, exactly, for modulus below 2^37 (see FnvModulus to map many values). */
export function fnvhash64Mod(value: number, modulus: number): number {
  return new FnvModulus(modulus).of(value);
}

/**
 * The last decimal strings made, by value (direct-mapped on the value's low bits). Every
 * operation of a run names its key with one of these, and the hashing and printing cost more
 * than the operation's own bookkeeping; under zipfian or any small key space most keys recur, so
 * a remembered string makes the common case a compare and a load. A miss costs one extra store.
 */
const STRING_CACHE_BITS = 16;
const STRING_CACHE_MASK = (1 << STRING_CACHE_BITS) - 1;
const cachedValues = new Float64Array(1 << STRING_CACHE_BITS).fill(-1);
const cachedStrings: string[] = new Array<string>(1 << STRING_CACHE_BITS).fill('');

/** fnvhash64(value) as a decimal string (the value can exceed 2^53, so no plain number). */
export function fnvhash64String(value: number): string {
  const slot = value & STRING_CACHE_MASK;
  if (cachedValues[slot] === value) return cachedStrings[slot]!;
  input[0] = value;
  hashInto();
  const text = uint64ToString(result[0]!, result[1]!);
  cachedValues[slot] = value;
  cachedStrings[slot] = text;
  return text;
}

/** fnvhash64(value) as a number; exact only when the hash is below 2^53 (use for tests/diagnostics). */
export function fnvhash64Approx(value: number): number {
  input[0] = value;
  hashInto();
  return result[0]! * TWO_32 + result[1]!;
}

/** Decimal digits of hi × 2^32 + lo, exactly, via base-10^6 long division. */
export function uint64ToString(hi: number, lo: number): string {
  if (hi < 0x200000) return String(hi * TWO_32 + lo);
  // Products and differences instead of `%` and `/`, which cost several times more on doubles.
  const quotientHi = Math.floor(hi * 1e-6);
  const t = (hi - quotientHi * 1e6) * TWO_32 + lo; // < 10^6 × 2^32 < 2^53
  let quotientT = Math.floor(t * 1e-6);
  let rest = t - quotientT * 1e6;
  // t × 1e-6 can round across an integer: correct the quotient by one either way.
  if (rest < 0) {
    quotientT -= 1;
    rest += 1e6;
  } else if (rest >= 1e6) {
    quotientT += 1;
    rest -= 1e6;
  }
  const digits = String(rest);
  return `${quotientHi * TWO_32 + quotientT}${'000000'.slice(digits.length)}${digits}`;
}
