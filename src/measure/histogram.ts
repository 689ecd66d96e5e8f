import hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';

/**
 * Latency histograms in microseconds, as YCSB's `measurementtype=hdrhistogram` records them:
 * 3 significant digits, auto-resizing, plain JS arrays (no WebAssembly start-up, ~70 ns a record).
 */
export function newLatencyHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
}

export type { Histogram };
