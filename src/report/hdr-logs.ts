/**
 * YCSB's HdrHistogram interval logs (`hdrhistogram.fileoutput=true`): one file per latency row,
 * `<hdrhistogram.output.path><ROW>.hdr` (`READ.hdr`, `Intended-READ.hdr`, `READ-FAILED.hdr`, …),
 * one interval histogram per `status.interval`, in HdrHistogram's standard log format (written
 * by hdr-histogram-js's HistogramLogWriter), which HdrHistogram's own HistogramLogReader,
 * HistogramLogProcessor and HistogramLogAnalyzer read. As YCSB writes them: a comment naming the
 * row, the format version, the start time, the legend, then intervals whose start is relative to
 * the run's start, and whose max column is the µs value over 1,000,000 (Java's default ratio, so
 * the column reads in seconds). They are written from the result's per-operation series, so the
 * logs hold exactly the calls the result counts.
 */
import hdr from 'hdr-histogram-js';
import { dirname } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { UserError } from '../common/user-error.ts';
import { addEncodedHistogram, newLatencyHistogram } from '../measure/histogram.ts';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';

/** Java's HistogramLogWriter divides an interval's max by this unless told otherwise, and YCSB does not tell it. */
const MAX_VALUE_UNIT_RATIO = 1_000_000;

/** A `hdrhistogram.output.path` that cannot take the logs: said before the run, not after it. */
export function checkHdrLogPath(prefix: string): void {
  let dir = prefix === '' || prefix.endsWith('/') ? prefix || '.' : dirname(prefix);
  // The folder is made when missing: its nearest existing ancestor must be a folder.
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new UserError(`hdrhistogram.output.path=${prefix}: ${dir} is not a directory`);
}

/** The text of one row's log. */
export function hdrLogText(result: Result, row: string): string {
  const series = result.operationSeries;
  const data = series?.rows.find((r) => r.name === row);
  if (series === undefined || data === undefined) throw new Error(`no per-operation series for ${row}`);
  const lines: string[] = [];
  const writer = new hdr.HistogramLogWriter((text) => lines.push(text));
  const startMs = Date.parse(result.startedAt);
  writer.outputComment(`[Logging for: ${row}]`);
  writer.outputLogFormatVersion();
  // Java's own start-time comment (hdr-histogram-js's adds a blank line after it).
  writer.outputComment(
    `[StartTime: ${(startMs / 1000).toFixed(3)} (seconds since epoch), ${new Date(startMs).toString()}]`,
  );
  writer.outputLegend();
  const histogram = newLatencyHistogram();
  series.t.forEach((end, i) => {
    histogram.reset();
    const encoded = data.histograms[i] ?? '';
    if (encoded !== '') addEncodedHistogram(histogram, encoded);
    const start = i === 0 ? 0 : series.t[i - 1]!;
    writer.outputIntervalHistogram(histogram, start, end, MAX_VALUE_UNIT_RATIO);
  });
  histogram.destroy();
  return lines.join('');
}

/** Write one log per latency row of the result; returns the files written. */
export function writeHdrLogs(result: Result, prefix: string): string[] {
  const rows = result.operationSeries?.rows ?? [];
  return rows.map((row) => {
    const path = `${prefix}${row.name}.hdr`;
    writeFileAtomic(path, hdrLogText(result, row.name));
    return path;
  });
}
