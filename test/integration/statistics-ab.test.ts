/**
 * The statistics end to end, on effects the test controls so it holds on a loaded machine: the
 * same comparison twice (A/A) shows no difference and `docbench diff` exits 0; the same with the
 * rate capped at half (A/B) shows "slower" and `diff` exits 1. Each side is three interleaved
 * rounds of workload C on the local Redis at a target rate far below what it serves, so the
 * throughput is the schedule's, whatever else the machine does; only throughput is gated
 * (`--figures throughput`), as a shared runner's latencies would be.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-ab-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const skip = testsStore('redis') ? false : 'redis is not among the stores under test';

function compare(out: string, target: number): void {
  const run = runDocbench(
    [
      'compare',
      '--stores',
      'redis',
      '--url',
      'redis=redis://127.0.0.1:16379',
      '--workloads',
      'c',
      '--repetitions',
      '3',
      '--target',
      String(target),
      '-p',
      'recordcount=300',
      '-p',
      'maxexecutiontime=3',
      '-p',
      'table=abtest',
      '--out-dir',
      out,
      '-q',
    ],
    { timeoutMs: 180_000 },
  );
  assert.equal(run.code, 0, run.stderr);
}

describe('is the difference real: A/A and A/B end to end', { skip }, () => {
  const base = join(dir, 'base');
  before(() => {
    if (!skip) compare(base, 400);
  });

  it('every run records its round, its place in it and the round order', () => {
    const runs = readdirSync(base)
      .filter((f) => f.endsWith('-run.json'))
      .map(
        (f) => JSON.parse(readFileSync(join(base, f), 'utf8')) as { repetition?: { round: number; rounds: number } },
      );
    assert.deepEqual(runs.map((r) => r.repetition?.round).sort(), [1, 2, 3]);
    assert.ok(runs.every((r) => r.repetition?.rounds === 3));
  });

  it('A/A: the same comparison again shows no difference, and diff exits 0', () => {
    const again = join(dir, 'again');
    compare(again, 400);
    const diff = runDocbench(['diff', base, again, '--figures', 'throughput', '--json']);
    assert.equal(diff.code, 0, diff.stdout + diff.stderr);
    const report = JSON.parse(diff.stdout) as { rows: { figure: string; comparison: { verdict: string } }[] };
    const throughput = report.rows.find((r) => r.figure === 'throughput');
    assert.equal(throughput?.comparison.verdict, 'no difference');
  });

  it('A/B: the rate capped at half is slower, and diff exits 1', () => {
    const halved = join(dir, 'halved');
    compare(halved, 200);
    const diff = runDocbench(['diff', base, halved, '--figures', 'throughput', '--json']);
    assert.equal(diff.code, 1, diff.stdout + diff.stderr);
    const report = JSON.parse(diff.stdout) as { rows: { figure: string; comparison: { verdict: string } }[] };
    assert.equal(report.rows.find((r) => r.figure === 'throughput')?.comparison.verdict, 'slower');
  });
});
