/**
 * Seeded pseudo-random numbers for every workload choice: sfc32 (Chris Doty-Humphrey's Small
 * Fast Counting generator, 128-bit state, passes PractRand), on 32-bit integer arithmetic so it
 * is fast in any JS engine (Node, k6). Pure: no Node APIs.
 *
 * `nextDouble()` has 53 bits of resolution (two draws), like Java's `nextDouble()`: a zipfian over
 * YCSB's 10^10 items would skip ranks with a 32-bit double.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator for `seed`; `stream` gives independent sequences from one seed (e.g. per worker). */
  constructor(seed: number, stream = 0) {
    // splitmix32-style scrambling of (seed, stream) into the four state words.
    this.a = mix(seed ^ 0x9e3779b9);
    this.b = mix(Math.floor(seed / 4294967296) ^ 0x243f6a88);
    this.c = mix(stream ^ 0xb7e15162);
    this.d = 1;
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** A new generator with its own sequence, derived from this one's seed state. */
  fork(stream: number): Random {
    return new Random(this.nextUint32() * 4096 + (stream & 0xfff), stream);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return (high * 67108864 + low) / 9007199254740992;
  }

  /** Uniform integer in [0, bound), bound up to 2^53. */
  nextInt(bound: number): number {
    // One 32-bit draw for small bounds (modulo bias below 2^-16); 53 bits otherwise.
    if (bound <= 65536) return this.nextUint32() % bound;
    return Math.floor(this.nextDouble() * bound);
  }
}

function mix(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
