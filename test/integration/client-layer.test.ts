/**
 * Every command that runs YCSB goes through the one client layer (src/client/), so a feature of
 * the phase works on each of them: here the failover check (`-p failovercheck=true`), whose
 * read-back once ran only under `docbench run`. Against the local Redis through `--url` on its
 * non-default port, small and short, so the four commands take well under a minute.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-client-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const skip = testsStore('redis') ? false : 'redis is not among the stores under test';
const url = 'redis://127.0.0.1:16379';
// The check regenerates every value it reads back, so it needs values it can regenerate.
const check = ['-p', 'failovercheck=true', '-p', 'dataintegrity=true', '-p', 'table=clientlayer'];
const workload = ['-P', 'workloada', '-p', 'recordcount=200', ...check];

function runResults(folder: string): Result[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')) as unknown)
    .filter((r) => resultSchema.safeParse(r).success)
    .map((r) => resultSchema.parse(r))
    .filter((r) => r.phase === 'run');
}

/** The read-back happened: every record the run acknowledged a write to was read, none lost. */
function assertReadBack(results: readonly Result[], command: string): void {
  assert.ok(results.length > 0, `${command}: no run result`);
  for (const r of results) {
    assert.ok(r.lostWrites, `${command}: the result has no failover check`);
    assert.ok(r.lostWrites.checkedRecords >= 200, `${command}: ${r.lostWrites.checkedRecords} records read back`);
    assert.equal(r.lostWrites.lostFields, 0, `${command}: a healthy Redis lost no acknowledged write`);
  }
}

describe('one client layer: the failover check reads back on every command that runs YCSB', { skip }, () => {
  it('docbench run', () => {
    const common = ['--store', 'redis', '--url', url, ...workload, '-q'];
    const load = runDocbench(['load', ...common, '--fresh']);
    assert.equal(load.code, 0, load.stderr);
    const out = join(dir, 'run.json');
    const run = runDocbench(['run', ...common, '-p', 'operationcount=400', '--out', out]);
    assert.equal(run.code, 0, run.stderr);
    assertReadBack([resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')))], 'run');
  });

  it('docbench compare', () => {
    const out = join(dir, 'compare');
    const args = [
      'compare',
      '--repetitions',
      '1',
      '--stores',
      'redis',
      '--url',
      `redis=${url}`,
      '--workloads',
      'a',
      '--out-dir',
      out,
      '-q',
    ];
    const run = runDocbench([...args, ...workload.slice(2), '-p', 'operationcount=400'], { timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    assertReadBack(runResults(out), 'compare');
  });

  it('docbench capacity', () => {
    const out = join(dir, 'capacity');
    const args = ['capacity', '--stores', 'redis', '--url', `redis=${url}`, '--slo', 'p99<=5s', '--start', '100'];
    const timing = ['--max-steps', '1', '--threads', '4', '--warmup', '1', '--min-seconds', '2', '--max-seconds', '2'];
    const run = runDocbench([...args, ...timing, ...workload, '--out-dir', out, '-q'], { timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    assertReadBack(runResults(out), 'capacity');
  });

  it('docbench sweep', () => {
    const out = join(dir, 'sweep');
    const args = ['sweep', '--stores', 'redis', '--url', `redis=${url}`, '--workloads', 'a', '--records', '200'];
    const run = runDocbench([...args, ...check, '-p', 'operationcount=400', '--out-dir', out, '-q'], {
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.stderr);
    assertReadBack(runResults(out), 'sweep');
  });
});
