/**
 * The hot path's latency recorder (src/measure/latency-recorder.ts) finds HDR buckets with its
 * own integer arithmetic: what it hands the HDR histogram must be exactly what recording every
 * value straight into one gives, in every bucket, across drains, and past its integer range.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeHistogram, newLatencyHistogram } from '../../src/measure/histogram.ts';
import { LatencyRecorder, valueAtIndex } from '../../src/measure/latency-recorder.ts';
import { Random } from '../../src/workload/random.ts';

/** Every bucket edge the recorder's integer path covers, and values either side of them. */
function edgeValues(): number[] {
  const values: number[] = [1, 2, 1023, 1024, 2047, 2048, 2049, 4095, 4096];
  for (let bit = 12; bit < 36; bit++) values.push(2 ** bit - 1, 2 ** bit, 2 ** bit + 1, 3 * 2 ** (bit - 1));
  return values;
}

describe('LatencyRecorder', () => {
  it('fills the same HDR buckets as recording each value straight into a histogram', () => {
    const random = new Random(7);
    // 1 µs … ~2 hours, log-uniform, plus every bucket edge (some past 2^32 µs, the slow path).
    const values = [
      ...edgeValues(),
      ...Array.from({ length: 50_000 }, () => Math.max(1, Math.round(10 ** (random.nextDouble() * 9.9)))),
    ];
    const recorder = new LatencyRecorder();
    const direct = newLatencyHistogram();
    for (const value of values) {
      recorder.record(value);
      direct.recordValue(value);
    }
    const drained = recorder.histogram;
    assert.equal(drained.totalCount, values.length);
    // The standard encoding carries every bucket's count: equal encodings are equal histograms.
    assert.equal(encodeHistogram(drained), encodeHistogram(direct));
    for (const p of [0, 1, 50, 90, 99, 99.9, 99.99, 100])
      assert.equal(drained.getValueAtPercentile(p), direct.getValueAtPercentile(p), `p${p}`);
    assert.equal(drained.mean, direct.mean);
  });

  it('adds what was recorded since the last read, once: reads, resets and merges in between keep counts exact', () => {
    const recorder = new LatencyRecorder();
    const direct = newLatencyHistogram();
    const random = new Random(11);
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 1000; i++) {
        const value = 1 + random.nextInt(5_000_000);
        recorder.record(value);
        direct.recordValue(value);
      }
      // A reader in between (the status line takes a percentile; the result encodes).
      assert.equal(recorder.histogram.totalCount, direct.totalCount);
      assert.equal(recorder.histogram.totalCount, direct.totalCount, 'a second read adds nothing');
    }
    assert.equal(encodeHistogram(recorder.histogram), encodeHistogram(direct));
    // The status reporter empties its interval histogram after each tick.
    recorder.histogram.reset();
    recorder.record(42);
    assert.equal(recorder.histogram.totalCount, 1);
    assert.equal(recorder.histogram.getValueAtPercentile(100), 42);
  });

  it('maps each counts index back to a value in that same bucket', () => {
    for (const value of edgeValues().filter((v) => v < 2 ** 32)) {
      const recorder = new LatencyRecorder();
      const direct = newLatencyHistogram();
      recorder.record(value);
      direct.recordValue(value);
      // p0 of a one-value histogram is the lowest value of that value's bucket.
      assert.equal(recorder.histogram.getValueAtPercentile(0), direct.getValueAtPercentile(0), `value ${value}`);
      assert.equal(encodeHistogram(recorder.histogram), encodeHistogram(direct), `value ${value}`);
    }
    assert.equal(valueAtIndex(0), 0);
    assert.equal(valueAtIndex(2047), 2047);
    assert.equal(valueAtIndex(2048), 2048);
    assert.equal(valueAtIndex(3072), 4096);
  });
});
