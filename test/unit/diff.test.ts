/**
 * `docbench diff BASE NEW` and `report --baseline`: cells paired across two sets of results,
 * each figure's ratio with its interval and verdict, and the exit code a CI job reads: 0 on an
 * A/A pair (the same runs again), 1 on a halved throughput, 2 on bad input (one line naming it);
 * a table for a person and JSON for a pipeline.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Result } from '../../src/results/schema.ts';
import { writeResult } from '../../src/results/write.ts';
import { diffExitCode, diffResults } from '../../src/report/diff.ts';
import { renderDiff } from '../../src/report/diff-render.ts';
import { runReport } from '../../src/report/run-report.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-diff-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Three repetitions of redis and cassandra on workload A: the same latency samples, runtimes a
 * few percent apart, `slowdown` stretching redis's runtime (2: half the throughput).
 */
function side(options: { slowdown?: number; single?: boolean; target?: number } = {}): Result[] {
  const runtimes = options.single ? [3000] : [3000, 3090, 2940];
  return runtimes.flatMap((ms, i) => {
    const redis = syntheticResult({
      store: 'redis',
      repetition: i + 1,
      seed: i + 1,
      runtimeMs: ms * (options.slowdown ?? 1),
    });
    if (options.target !== undefined) redis.workload.properties.target = options.target;
    return [redis, syntheticResult({ store: 'cassandra', repetition: i + 1, seed: 10 + i, runtimeMs: 2 * ms })];
  });
}

function folder(name: string, results: readonly Result[]): string {
  const path = join(dir, name);
  results.forEach((r, i) => writeResult(join(path, `${r.store.name}-${i}.json`), r));
  return path;
}

describe('diff', () => {
  it('an A/A pair: every figure "no difference", nothing regressed', () => {
    const report = diffResults(side(), side());
    assert.equal(report.rows.length, 2 * (1 + 2 * 2), 'throughput and p50, p99 of READ and UPDATE, for both stores');
    assert.ok(report.rows.every((r) => r.comparison.verdict === 'no difference'));
    assert.equal(diffExitCode(report), 0);
    assert.match(renderDiff(report), /No regression of 10\.0% or more that these runs can show/);
  });

  it("a halved throughput: slower, a regression beyond 10%; the other store's figures no difference", () => {
    const report = diffResults(side(), side({ slowdown: 2 }));
    const redis = report.rows.find((r) => r.series === 'redis' && r.figure === 'throughput')!;
    assert.equal(redis.comparison.verdict, 'slower');
    // Throughputs are stored to the thousandth: the ratio is a half to six digits.
    assert.ok(Math.abs(redis.comparison.ratio! - 0.5) < 1e-6);
    assert.equal(redis.regression, true);
    assert.equal(report.regressions, 1);
    assert.equal(diffExitCode(report), 1);
    assert.match(renderDiff(report), /REGRESSION: workloada on redis, throughput 0\.50× \[0\.\d\d, 0\.\d\d\] of BASE/);
    // The same drop under a threshold it does not reach is a difference, not a failure.
    assert.equal(diffExitCode(diffResults(side(), side({ slowdown: 2 }), { maxRegression: 0.6 })), 0);
  });

  it('one run a side: every figure "cannot tell", exit 0, and the note says why', () => {
    const report = diffResults(side({ single: true }), side({ single: true, slowdown: 2 }));
    assert.ok(report.rows.every((r) => r.comparison.verdict === 'cannot tell'));
    assert.equal(diffExitCode(report), 0);
    assert.match(renderDiff(report), /cannot be judged: one run on a side cannot show a difference/);
  });

  it('a cell held to a target rate in NEW pairs with its uncapped self, the change noted', () => {
    const capped = side({ slowdown: 2, target: 300 });
    const report = diffResults(side(), capped);
    const redis = report.rows.find((r) => r.series === 'redis' && r.figure === 'throughput')!;
    assert.equal(redis.note, 'target none → 300 ops/s');
    assert.equal(redis.regression, true);
  });

  it('a cell whose every NEW run is INVALID is a regression', () => {
    const broken = side().map((r) =>
      r.store.name === 'cassandra'
        ? {
            ...r,
            verdict: {
              status: 'invalid' as const,
              reasons: [{ code: 'no-success', detail: 'no operation succeeded', fix: 'check the store' }],
            },
          }
        : r,
    );
    const report = diffResults(side(), broken);
    assert.deepEqual(report.invalidInNew, ['workloada on cassandra (1,000 records, 1 thread)']);
    assert.equal(diffExitCode(report), 1);
  });

  it('the CLI: exit 0 on A/A, 1 on a halved throughput (table and --json), 2 on bad input naming it', () => {
    const base = folder('base', side());
    const again = folder('again', side());
    const halved = folder('halved', side({ slowdown: 2 }));
    const aa = runDocbench(['diff', base, again]);
    assert.equal(aa.code, 0, aa.stderr);
    assert.match(aa.stdout, /\| workloada \| redis +\| ops\/s .*no difference this run can show/);
    const ab = runDocbench(['diff', base, halved]);
    assert.equal(ab.code, 1, ab.stderr);
    assert.match(ab.stdout, /slower: REGRESSION/);
    assert.equal(ab.stderr, '');
    const json = runDocbench(['diff', base, halved, '--json', '--max-regression', '60%']);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { regressed: boolean; maxRegression: number; rows: unknown[] };
    assert.deepEqual([parsed.regressed, parsed.maxRegression, parsed.rows.length], [false, 0.6, 10]);
    const notResult = join(dir, 'not-a-result.json');
    writeFileSync(notResult, '{"schemaVersion": 1}');
    assertUserError(runDocbench(['diff', notResult, halved]), /not-a-result\.json: not a docbench result file/);
    assertUserError(runDocbench(['diff', base, join(dir, 'missing')]), /missing: no such file or folder/);
    assertUserError(
      runDocbench(['diff', base, halved, '--max-regression', 'ten']),
      /--max-regression: expected a percentage/,
    );
    const other = folder('other', [syntheticResult({ store: 'mongodb', workload: 'workloadc' })]);
    assertUserError(runDocbench(['diff', base, other]), /diff: BASE and NEW share no cell/);
  });

  it('report --baseline adds the diff to the HTML, the Markdown and the JSON', () => {
    const base = folder('report-base', side());
    const halved = folder('report-new', side({ slowdown: 2 }));
    const out = { html: join(dir, 'r.html'), md: join(dir, 'r.md'), json: join(dir, 'r.json') };
    const { baseline } = runReport([halved], { ...out, baseline: base });
    assert.equal(baseline!.regressions, 1);
    assert.match(readFileSync(out.html, 'utf8'), /<h2>Against the baseline<\/h2>/);
    assert.match(readFileSync(out.md, 'utf8'), /Against the baseline .*report-base:[\s\S]*slower: REGRESSION/);
    const doc = JSON.parse(readFileSync(out.json, 'utf8')) as { baseline: { regressions: number } };
    assert.equal(doc.baseline.regressions, 1);
  });
});
