/**
 * `docbench sweep` and `docbench study` end to end on Redis (a real server, quick to load):
 * a sweep resumes without re-running its finished cells, and a study preset at --scale tiny
 * writes the paper's figures beside docbench's and the HTML report.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-sweep-it-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const runs = (folder: string) => readdirSync(folder).filter((f) => /-rep\d+\.json$/.test(f)).sort();

describe('sweep and study on redis', { skip: testsStore('redis') ? false : 'redis is not among DOCBENCH_TEST_STORES' }, () => {
  it('sweeps with repetitions, resumes without re-running finished cells, and writes its report', () => {
    const out = join(dir, 'sweep');
    const args = ['sweep', '--stores', 'redis', '--workloads', 'a,d', '--records', '100', '--threads', '1,2', '-p', 'operationcount=50', '-q', '--out-dir', out];
    const first = runDocbench([...args, '--repetitions', '1'], { timeoutMs: 120_000 });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(runs(out).length, 4);
    assert.match(first.stderr, /\[sweep #{20} 4\/4 100%\]/);
    const before = new Map(runs(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    const second = runDocbench([...args, '--repetitions', '2'], { timeoutMs: 120_000 });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /resuming .*: 4 of 8 runs already done/);
    assert.equal(runs(out).length, 8);
    for (const [file, text] of before) assert.equal(readFileSync(join(out, file), 'utf8'), text, `${file} was not run again`);
    assert.match(readFileSync(join(out, 'sweep.md'), 'utf8'), /\| workloada \| redis +\| +100 \| +2 \| +2 \|/);
    assert.ok(existsSync(join(out, 'report.html')));
    assert.match(second.stderr, new RegExp(`report: ${join(out, 'report.html').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('runs a study preset at --scale tiny with the paper\'s figures beside docbench\'s', () => {
    const out = join(dir, 'study');
    const r = runDocbench(['study', 'dzone2016', '--scale', 'tiny', '--stores', 'redis', '-q', '--out-dir', out], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stderr);
    const study = readFileSync(join(out, 'study.md'), 'utf8');
    assert.match(study, /PUBLISHED \(the paper's\): DZone 2016/);
    assert.match(study, /docbench: workload E throughput \(ops\/s\) per client thread count/);
    assert.match(study, /\| workloade \| +[\d,]+ +\| +[\d,]+ +\|/);
    assert.match(readFileSync(join(out, 'report.html'), 'utf8'), /PUBLISHED \(the paper&#39;s\)/);
  });
});
