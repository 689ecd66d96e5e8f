/**
 * YCSB's HdrHistogram interval logs (`hdrhistogram.fileoutput=true`), read back with HdrHistogram's
 * own Java HistogramLogReader (the reference implementation of the format): one log per latency
 * row, every interval of the result's per-operation series in it with the same count and the same
 * percentiles, and the logs' totals the result's counts. A run with two worker processes, so the
 * series the logs come from is the merged one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resultSchema } from '../../src/results/schema.ts';
import { readLogsWithJava } from '../support/hdr-log-reader.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-hdr-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('HdrHistogram interval logs', () => {
  it("writes one log per row that HdrHistogram's Java reader reads back with the result's counts and percentiles", () => {
    const out = join(dir, 'run.json');
    const prefix = join(dir, 'logs', 'run1-');
    const run = runDocbench([
      'run',
      '--store',
      'basic',
      '-P',
      'workloada',
      '-p',
      'recordcount=500',
      '-p',
      'operationcount=0',
      '-p',
      'maxexecutiontime=4',
      '-p',
      'status.interval=1',
      '-p',
      'target=800',
      '--threads',
      '4',
      '--processes',
      '2',
      '-q',
      '--out',
      out,
      '-p',
      'hdrhistogram.fileoutput=true',
      '-p',
      `hdrhistogram.output.path=${prefix}`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    const series = result.operationSeries!;
    const files = readdirSync(join(dir, 'logs')).sort();
    assert.deepEqual(files, series.rows.map((r) => `run1-${r.name}.hdr`).sort());
    const logs = readLogsWithJava(series.rows.map((r) => `${prefix}${r.name}.hdr`));
    for (const [i, row] of series.rows.entries()) {
      const log = logs[i]!;
      const whole = result.operations.find((o) => o.name === row.name)!;
      assert.equal(log.total, whole.latency.operations, `${row.name}: the log's total is the result's count`);
      assert.equal(log.intervals.length, series.t.length, `${row.name}: one interval per point`);
      assert.equal(log.startTimeSec * 1000, Date.parse(result.startedAt), 'the log starts when the run did');
      log.intervals.forEach((interval, k) => {
        assert.equal(interval.count, row.count[k], `${row.name} interval ${k}: count`);
        if (interval.count > 0) {
          assert.equal(interval.p99, row.p99Us[k], `${row.name} interval ${k}: p99`);
          assert.equal(interval.p50, row.p50Us[k], `${row.name} interval ${k}: p50`);
        }
        // Start and length are written to the ms, each rounded: their sum may be 1 ms off.
        assert.ok(
          Math.abs(interval.endMs - Date.parse(result.startedAt) - series.t[k]! * 1000) <= 1.5,
          `${row.name} interval ${k}: ends at the point's time`,
        );
      });
    }
  });

  it('refuses an output path under a file before the run, in one line', () => {
    const file = join(dir, 'not-a-folder');
    runDocbench([
      'run',
      '--store',
      'basic',
      '-P',
      'workloada',
      '-p',
      'operationcount=10',
      '-q',
      '--out',
      join(dir, 'x.json'),
    ]);
    const r = runDocbench([
      'run',
      '--store',
      'basic',
      '-P',
      'workloada',
      '-p',
      'operationcount=10',
      '-q',
      '-p',
      'hdrhistogram.fileoutput=true',
      '-p',
      `hdrhistogram.output.path=${join(dir, 'x.json')}/sub/`,
      '--out',
      file,
    ]);
    assertUserError(r, /hdrhistogram\.output\.path=.*is not a directory/, file);
  });
});
