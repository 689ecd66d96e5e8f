/**
 * An order-independent checksum of a set of ids, so a store's answer (in whatever order the
 * store returns it) can be compared with an oracle's without sorting or keeping both lists.
 *
 * Each id is hashed to 64 bits and the hashes are summed modulo 2^64; the count is kept beside
 * the sum. A sum rather than XOR: with XOR an id returned twice cancels itself out and a
 * duplicated answer could look right; with a sum it changes the checksum (and the count).
 * Pure TypeScript, no Node APIs, so k6 scripts can use it too.
 */

/** What a query answered, in a form two answers can be compared by: how many ids and their checksum. */
export interface AnswerSummary {
  count: number;
  /** 16 hex digits. */
  checksum: string;
}

const TWO_32 = 4294967296;

/**
 * 64-bit string hash: the two 32-bit lanes of cyrb53 (bryc, public domain), both kept in full.
 * Over UTF-16 code units, so it needs no encoder; ids are compared as JS strings everywhere.
 */
function hash64(text: string, out: Uint32Array): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  out[0] = h1 >>> 0;
  out[1] = h2 >>> 0;
}

/** Accumulates ids one at a time; `summary()` at any point. */
export class IdChecksum {
  private readonly scratch = new Uint32Array(2);
  private high = 0;
  private low = 0;
  count = 0;

  add(id: string): void {
    hash64(id, this.scratch);
    let low = this.low + this.scratch[1]!;
    let carry = 0;
    if (low >= TWO_32) {
      low -= TWO_32;
      carry = 1;
    }
    this.low = low;
    this.high = (this.high + this.scratch[0]! + carry) % TWO_32;
    this.count++;
  }

  summary(): AnswerSummary {
    return {
      count: this.count,
      checksum: this.high.toString(16).padStart(8, '0') + this.low.toString(16).padStart(8, '0'),
    };
  }
}

/** The summary of a whole list of ids. */
export function summarizeIds(ids: Iterable<string>): AnswerSummary {
  const checksum = new IdChecksum();
  for (const id of ids) checksum.add(id);
  return checksum.summary();
}

export function sameAnswer(a: AnswerSummary, b: AnswerSummary): boolean {
  return a.count === b.count && a.checksum === b.checksum;
}
