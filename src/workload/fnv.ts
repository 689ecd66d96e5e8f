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

// Result of the last hash, as two unsigned 32-bit halves of the non-negative 63-bit value.
let resultHi = 0;
let resultLo = 0;

function hashInto(value: number): void {
  let inLo = value >>> 0;
  let inHi = Math.floor(value / TWO_32) >>> 0;
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;
  for (let i = 0; i < 8; i++) {
    const octet = i < 4 ? inLo & 0xff : inHi & 0xff;
    if (i < 4) inLo >>>= 8;
    else inHi >>>= 8;
    lo = (lo ^ octet) >>> 0;
    const loTimesPrime = lo * 0x1b3;
    const carry = Math.floor(loTimesPrime / TWO_32);
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = loTimesPrime >>> 0;
  }
  if (hi >= 0x80000000) {
    // Math.abs of a negative long: two's complement negation. (Long.MIN_VALUE stays 2^63, as
    // an unsigned value; Java would keep it negative. It needs a 2^-64 chance.)
    lo = (~lo + 1) >>> 0;
    hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
  }
  resultHi = hi;
  resultLo = lo;
}

/** fnvhash64(value) % modulus, exactly, for modulus below 2^37 (every intermediate stays < 2^53). */
export function fnvhash64Mod(value: number, modulus: number): number {
  hashInto(value);
  let r = resultHi % modulus;
  r = (r * 65536) % modulus;
  r = (r * 65536) % modulus;
  return (r + resultLo) % modulus;
}

/** fnvhash64(value) as a decimal string (the value can exceed 2^53, so no plain number). */
export function fnvhash64String(value: number): string {
  hashInto(value);
  return uint64ToString(resultHi, resultLo);
}

/** fnvhash64(value) as a number; exact only when the hash is below 2^53 (use for tests/diagnostics). */
export function fnvhash64Approx(value: number): number {
  hashInto(value);
  return resultHi * TWO_32 + resultLo;
}

/** Decimal digits of hi × 2^32 + lo, exactly, via base-10^6 long division. */
export function uint64ToString(hi: number, lo: number): string {
  if (hi < 0x200000) return String(hi * TWO_32 + lo);
  const quotientHi = Math.floor(hi / 1e6);
  const t = (hi % 1e6) * TWO_32 + lo; // < 10^6 × 2^32 < 2^53
  const upper = quotientHi * TWO_32 + Math.floor(t / 1e6);
  const rest = String(t % 1e6);
  return `${upper}${'000000'.slice(rest.length)}${rest}`;
}
