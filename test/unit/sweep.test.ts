/**
 * A sweep's plan (order, loads), its resumable state, its progress line, and the study command's
 * user errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { formatDuration, SweepProgress } from '../../src/study/progress.ts';
import { planCells, readState, writeState, type SweepPlanInput } from '../../src/study/sweep-plan.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-sweep-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const plan: SweepPlanInput = {
  stores: ['redis', 'mongodb'],
  workloads: ['d', 'a', 'c'],
  records: [100, 1000],
  threads: [1, 4],
  repetitions: 2,
  extraFiles: [],
  overrides: [],
  reload: false,
};
const inserts = (w: string) => w === 'd' || w === 'e';

describe('sweep plan', () => {
  const cells = planCells(plan, inserts);

  it('has every store × workload × records × threads × repetition once', () => {
    assert.equal(cells.length, 2 * 3 * 2 * 2 * 2);
    assert.equal(new Set(cells.map((c) => c.id)).size, cells.length);
  });

  it('runs the workloads that do not insert first, on one load per record count, and reloads before every inserting run', () => {
    const redis100 = cells.filter((c) => c.store === 'redis' && c.records === 100);
    assert.deepEqual([...new Set(redis100.map((c) => c.workload))], ['a', 'c', 'd']);
    assert.deepEqual(
      redis100.filter((c) => c.workload !== 'd').map((c) => c.freshLoad),
      [true, false, false, false, false, false, false, false],
    );
    assert.ok(redis100.filter((c) => c.workload === 'd').every((c) => c.freshLoad));
  });

  it('reloads before every run with --reload', () => {
    assert.ok(planCells({ ...plan, reload: true }, inserts).every((c) => c.freshLoad));
  });

  it('remembers the cells done, accepts more repetitions, and refuses a folder holding another sweep', () => {
    writeState(dir, plan, new Set([cells[0]!.id]));
    assert.deepEqual([...readState(dir, { ...plan, repetitions: 3 })], [cells[0]!.id]);
    assert.throws(() => readState(dir, { ...plan, threads: [1] }), /holds a different sweep \(sweep-state\.json\)/);
  });

  it('prints a progress bar with the ETA from the cells run so far', () => {
    const lines: string[] = [];
    const progress = new SweepProgress(4, 1, (line) => lines.push(line));
    progress.cellDone('redis workloada');
    assert.match(lines[0]!, /^\[sweep #{10}\.{10} 2\/4 50%\] redis workloada · elapsed \d+s · ETA \d+s\n$/);
    assert.equal(formatDuration(3725), '1h02m');
    assert.equal(formatDuration(125), '2m05s');
    assert.equal(formatDuration(3 * 86_400 + 7200), '3d02h');
  });
});

describe('study command', () => {
  it('names an unknown study with a suggestion, a bad variant, and a bad --records list', () => {
    assertUserError(
      runDocbench(['study', 'carvalho2032']),
      /unknown study "carvalho2032" \(did you mean "carvalho2023"\?\)/,
    );
    assertUserError(
      runDocbench(['study', 'altoros2022', '--variant', 'ordered', '--plan']),
      /study altoros2022: --variant ordered: expected one of ordered-pagination, ycsb-e/,
    );
    assertUserError(
      runDocbench(['study', 'carvalho2023', '--variant', 'x', '--plan']),
      /this study has no named variants/,
    );
    assertUserError(
      runDocbench(['sweep', '--stores', 'redis', '--records', '1k,zero']),
      /--records: expected whole numbers >= 1 such as 1000, 10k or 1m, got "zero"/,
    );
  });
});
