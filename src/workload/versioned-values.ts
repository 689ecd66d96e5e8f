/**
 * Values that say which write made them, for the failover check (`failovercheck=true`): the
 * n-th write of a field of a key holds YCSB's dataintegrity value of `<key>@<n>` instead of
 * `<key>`; write 0 is the load's, YCSB's own value. Any value can be regenerated from (key,
 * field, n), and a value read back tells its n (the text between `@` and the next `:`, checked
 * by regenerating the whole value), so the run only keeps numbers, never values. Pure.
 */
import { deterministicValue } from './fields.ts';

/** The value of write `n` (0: the load's) of `field` of `key`, `size` characters long. */
export function versionedValue(key: string, field: string, n: number, size: number): string {
  return deterministicValue(n === 0 ? key : `${key}@${n}`, field, size);
}

/** Which write made `value` (0: the load), or -1 when no write of this scheme made it. */
export function writeOf(key: string, field: string, value: string, size: number): number {
  if (!value.startsWith(key)) return -1;
  const next = value.charCodeAt(key.length);
  let n = 0;
  if (next === 64 /* @ */) {
    const end = value.indexOf(':', key.length + 1);
    if (end < 0) return -1;
    const digits = value.slice(key.length + 1, end);
    if (!/^[1-9]\d*$/.test(digits)) return -1;
    n = Number(digits);
  } else if (next !== 58 /* : */) {
    return -1;
  }
  return versionedValue(key, field, n, size) === value ? n : -1;
}
