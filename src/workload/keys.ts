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
