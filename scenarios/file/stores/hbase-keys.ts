/**
 * Row keys for a scenario file on HBase (hbase.ts): HBase finds rows by key and key range only,
 * comparing keys byte by byte, so each value that partitions or orders an index row is written
 * in an encoding whose byte order is the value's order (the usual order-preserving key design),
 * and each component is prefix-free, so that the rows of one value are exactly the rows starting
 * with its encoding, and a range of values is a range of row keys.
 *
 *   number     the IEEE-754 double's bits with the sign bit flipped (negatives: every bit), as
 *              16 hex digits: fixed width, byte order = numeric order
 *   string     (dates too: ISO-8601 UTC strings sort as they compare) the text itself, each
 *              character up to `!` escaped as `!` + a character above it, then a space: the
 *              space ends it and sorts below every character of any text. UTF-8 byte order is
 *              code-point order, which is JavaScript's (the oracle's) order but for characters
 *              beyond U+FFFF against U+E000-U+FFFF
 *   boolean    `f` / `t`
 *   descending the ascending encoding turned around: a number's hex digits complemented
 *              (f - d); text as its UTF-8 bytes in complemented hex, then `~`, which sorts above
 *              every hex digit (a longer text then comes first, as descending order has it);
 *              `t` before `f`. So a scan, which only reads forward, reads a descending order as
 *              HBase applications store "reverse timestamps".
 *
 * Keys stay printable ASCII (but for text's own characters): they travel in the gateway's URLs.
 */
import type { Scalar } from '../generator.ts';

const HEX = '0123456789abcdef';
const complement = (hex: string) => hex.replace(/[0-9a-f]/g, (d) => HEX[15 - HEX.indexOf(d)]!);

function numberKey(n: number): string {
  const buf = Buffer.alloc(8);
  buf.writeDoubleBE(n + 0); // -0 as 0: they compare equal
  if (buf[0]! & 0x80) for (let i = 0; i < 8; i++) buf[i] = ~buf[i]! & 0xff;
  else buf[0] = buf[0]! | 0x80;
  return buf.toString('hex');
}

function textKey(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out += code <= 0x21 ? `!${String.fromCharCode(code + 0x22)}` : ch;
  }
  return `${out} `;
}

/** One key component: a value in (ascending or descending) byte order, prefix-free. */
export function keyPart(value: Scalar | undefined, descending = false): string {
  if (typeof value === 'number') return descending ? complement(numberKey(value)) : numberKey(value);
  if (typeof value === 'boolean') return value !== descending ? 't' : 'f';
  const text = String(value ?? '');
  return descending ? `${complement(Buffer.from(text, 'utf8').toString('hex'))}~` : textKey(text);
}

/** The smallest key after every key starting with `prefix` (its last character plus one). */
export function after(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The rows whose keys start with `prefix`, as a start row and a stop row. */
export function prefixRange(prefix: string): { startRow: string; stopRow: string } {
  return { startRow: prefix, stopRow: after(prefix) };
}
