import type { Random } from './random.ts';

/** Field names as YCSB builds them: prefix + index (`field0`, `field1`, …). */
export function fieldNames(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

const codes: number[] = [];

/**
 * A random value of `length` characters, as YCSB's RandomByteIterator makes them: six
 * characters from each random 32-bit draw, with YCSB's masks (31, 63, 95) added to ' '.
 */
export function randomValue(random: Random, length: number): string {
  codes.length = length;
  let i = 0;
  while (i < length) {
    const bits = random.nextUint32();
    codes[i++] = (bits & 31) + 32;
    if (i < length) codes[i++] = ((bits >>> 5) & 63) + 32;
    if (i < length) codes[i++] = ((bits >>> 10) & 95) + 32;
    if (i < length) codes[i++] = ((bits >>> 15) & 31) + 32;
    if (i < length) codes[i++] = ((bits >>> 20) & 63) + 32;
    if (i < length) codes[i++] = ((bits >>> 25) & 95) + 32;
  }
  return String.fromCharCode.apply(null, codes);
}

/**
 * YCSB's dataintegrity value (CoreWorkload.buildDeterministicValue): `key:field`, then while
 * shorter than `size`, append ':' and the Java String.hashCode() of everything so far; cut to
 * `size`. The hash is kept incrementally (h = 31·h + c, int32), instead of re-hashing the
 * growing string as Java does: same value, linear time.
 */
export function deterministicValue(key: string, field: string, size: number): string {
  let value = `${key}:${field}`;
  let hash = javaHashCode(value);
  while (value.length < size) {
    hash = (Math.imul(hash, 31) + 58) | 0; // ':'
    const digits = String(hash);
    for (let i = 0; i < digits.length; i++) hash = (Math.imul(hash, 31) + digits.charCodeAt(i)) | 0;
    value += `:${digits}`;
  }
  return value.length > size ? value.slice(0, size) : value;
}

/** Java's String.hashCode: s[0]·31^(n-1) + … + s[n-1], in 32-bit signed arithmetic. */
export function javaHashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}
