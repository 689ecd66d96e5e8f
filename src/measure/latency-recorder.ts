import { newLatencyHistogram, type Histogram } from './histogram.ts';

/**
 * The hot path's way into an HDR histogram. hdr-histogram-js finds a value's bucket with
 * Math.log2 and Math.pow, which costs 50–100 ns a value once values vary (measured on Node 20);
 * every operation records two or three latencies, so that was a fifth of docbench's own cost per
 * operation. This keeps counts in the very bucket layout of newLatencyHistogram() (1 µs lowest
 * value, 3 significant digits) found with integer arithmetic, and adds them into the HDR
 * histogram whenever anybody reads it (`histogram`), so encoding, merging and percentiles are
 * exactly what recording straight into it gives.
 *
 * The layout (HdrHistogram's): 3 significant digits need 2 × 10^3 distinct values per bucket,
 * rounded up to 2^11 sub-buckets; bucket 0 holds 0 … 2^11 - 1 one by one, and bucket b ≥ 1 holds
 * 2^(10+b) … 2^(11+b) - 1 in steps of 2^b, its sub-bucket being value >> b (1024 … 2047). The
 * counts index is b × 1024 + (value >> b).
 */
const SUB_BUCKET_HALF_MAGNITUDE = 10;
const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_MAGNITUDE;
const SUB_BUCKET_MASK = (1 << (SUB_BUCKET_HALF_MAGNITUDE + 1)) - 1;
/** 32 - clz32(value | mask) is the value's bit length; bucket = bit length - 11. */
const BUCKET_BASE = 32 - (SUB_BUCKET_HALF_MAGNITUDE + 1);
/** Values below 2^32 µs (71 minutes) take the integer path; longer ones go to the HDR histogram directly. */
const FAST_LIMIT = 2 ** 32;
/** Bucket of the largest fast value (2^32 - 1) is 21, its highest index 21 × 1024 + 2047. */
const COUNTS_LENGTH = (BUCKET_BASE << SUB_BUCKET_HALF_MAGNITUDE) + SUB_BUCKET_MASK + 1;

export class LatencyRecorder {
  /** Counts not yet in the HDR histogram (doubles: exact far past any count a run reaches). */
  private readonly counts = new Float64Array(COUNTS_LENGTH);
  /** The range of indexes touched since the last drain (empty when low > high). */
  private low = COUNTS_LENGTH;
  private high = -1;
  private readonly full: Histogram = newLatencyHistogram();
  /**
   * What was drained since the interval was last taken (`takeInterval`), when asked for: the
   * per-operation time series. It is filled where the counts are drained into `full`, never on
   * `record`, so it adds nothing to an operation's cost.
   */
  private readonly interval: Histogram | undefined;

  constructor(trackInterval = false) {
    this.interval = trackInterval ? newLatencyHistogram() : undefined;
  }

  /** Record one latency in whole microseconds (≥ 1, as the histograms take them). */
  record(us: number): void {
    if (us >= FAST_LIMIT) {
      this.full.recordValue(us);
      this.interval?.recordValue(us);
      return;
    }
    const bucket = BUCKET_BASE - Math.clz32(us | SUB_BUCKET_MASK);
    const index = (bucket << SUB_BUCKET_HALF_MAGNITUDE) + (us >>> bucket);
    this.counts[index]! += 1;
    if (index < this.low) this.low = index;
    if (index > this.high) this.high = index;
  }

  /** The HDR histogram holding everything recorded so far (it may be read, reset or added to). */
  get histogram(): Histogram {
    this.drain();
    return this.full;
  }

  /**
   * Add what was recorded since the last call into `into` (a histogram of the same layout), and
   * start the next interval. Only on a recorder made with `trackInterval`.
   */
  takeInterval(into: Histogram): void {
    const interval = this.interval;
    if (interval === undefined) throw new Error('takeInterval on a LatencyRecorder made without trackInterval');
    this.drain();
    if (interval.totalCount === 0) return;
    into.add(interval);
    interval.reset();
  }

  private drain(): void {
    const counts = this.counts;
    const interval = this.interval;
    for (let index = this.low; index <= this.high; index++) {
      const count = counts[index]!;
      if (count === 0) continue;
      const value = valueAtIndex(index);
      this.full.recordValueWithCount(value, count);
      interval?.recordValueWithCount(value, count);
      counts[index] = 0;
    }
    this.low = COUNTS_LENGTH;
    this.high = -1;
  }
}

/** The lowest value of a counts index: what recording it again puts at the same index. */
export function valueAtIndex(index: number): number {
  const bucket = (index >>> SUB_BUCKET_HALF_MAGNITUDE) - 1;
  const subBucket = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
  return bucket < 0 ? subBucket - SUB_BUCKET_HALF_COUNT : subBucket * 2 ** bucket;
}
