/**
 * A scenario sweep's plan, from the SCENARIOS table's rows: its defaults, its refusals (one line,
 * before anything runs), the order of its cells and the docbench commands each cell runs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cellDir,
  ownSize,
  runCommand,
  scenarioPlan,
  scenarioSweepOf,
  seedCommand,
} from '../../src/study/scenario-sweep-plan.ts';
import { planCells, SweepError } from '../../src/study/sweep-plan.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const ask = { stores: ['redis'], threads: [1, 4], repetitions: 1, settings: [], reload: false };

describe('scenario sweep plan', () => {
  it("takes the row's workloads and sizes when not told, and records a sizeless scenario's one size as 0", () => {
    const ecommerce = scenarioPlan({ ...ask, scenario: 'ecommerce' });
    assert.deepEqual(ecommerce.workloads, ['pagination', 'join']);
    assert.deepEqual(ecommerce.records, [10_000]);
    assert.equal(ecommerce.scenario, 'ecommerce');
    const file = scenarioPlan({ ...ask, scenario: 'fixtures/scenarios/blog.yaml' });
    assert.deepEqual(file.workloads, ['blog']);
    assert.deepEqual(file.records, [0]);
    assert.deepEqual(scenarioPlan({ ...ask, scenario: 'persons', sizes: [50, 500] }).records, [50, 500]);
  });

  it('refuses what the scenario cannot sweep, naming the flag', () => {
    const refused = (extra: object, pattern: RegExp) =>
      assert.throws(
        () => scenarioPlan({ ...ask, scenario: 'ecommerce', ...extra }),
        (e: unknown) => e instanceof SweepError && pattern.test(e.message),
      );
    refused(
      { workloads: ['paginaton'] },
      /^--workloads: unknown ecommerce workload "paginaton"; expected one of pagination, join/,
    );
    refused({ settings: ['customers=5'] }, /^-p customers: a sweep sets it per cell; use --sizes/);
    refused({ settings: ['threadcount=5'] }, /^-p threadcount: a sweep sets it per cell; use --threads/);
    refused({ stores: ['nosuchstore'] }, /^--stores: the ecommerce scenario runs on .*; got "nosuchstore"/);
    assert.throws(
      () => scenarioPlan({ ...ask, scenario: 'persons', workloads: ['persons'] }),
      /--workloads: the persons scenario has one workload/,
    );
    assert.throws(
      () => scenarioPlan({ ...ask, scenario: 'x/blog.yaml', sizes: [5] }),
      /--sizes: a file scenario's size is its own/,
    );
    assert.throws(() => scenarioPlan({ ...ask, scenario: 'blog' }), /--scenario: unknown scenario "blog"/);
  });

  it('seeds once per store, size and round, and afresh before each run of a workload that inserts (the e-commerce mix)', () => {
    const plan = scenarioPlan({
      ...ask,
      scenario: 'ecommerce',
      workloads: ['mix', 'pagination'],
      sizes: [100, 200],
      repetitions: 2,
    });
    const cells = planCells(plan, (w) => scenarioSweepOf('ecommerce').reseeds?.(w) ?? false);
    assert.equal(cells.length, 2 * 2 * 2 * 2);
    const at100 = cells.filter((c) => c.records === 100);
    assert.deepEqual(
      at100.map((c) => `${c.workload}${c.freshLoad ? '*' : ''}`),
      // Round 1, then round 2: each on its own seed.
      ['pagination*', 'pagination', 'mix*', 'mix*', 'pagination*', 'pagination', 'mix*', 'mix*'],
    );
  });

  it("turns a cell into the scenario's own commands, with the store's target, -q and where the results go", () => {
    const plan = scenarioPlan({
      ...ask,
      scenario: 'ecommerce',
      workloads: ['join'],
      sizes: [300],
      settings: ['maxexecutiontime=2', 'redis.cluster=false'],
    });
    const sweep = scenarioSweepOf('ecommerce');
    const [cell] = planCells(plan, () => false);
    const target = ['--url', 'redis=redis://127.0.0.1:6379'];
    assert.deepEqual(seedCommand(plan, sweep, cell!, target, 'out'), [
      'seed',
      'ecommerce',
      '--store',
      'redis',
      '--customers',
      '300',
      '--threads',
      '4',
      '-p',
      'maxexecutiontime=2',
      '-p',
      'redis.cluster=false',
      ...target,
      '-q',
      '--out',
      'out/loads/redis-s300-before-redis_join_300_1_1.json',
    ]);
    assert.deepEqual(runCommand(plan, sweep, cell!, target, 'out'), [
      'ecommerce',
      '--stores',
      'redis',
      '--workloads',
      'join',
      '--customers',
      '300',
      '--threads',
      '1',
      '--skip-seed',
      '-p',
      'maxexecutiontime=2',
      '-p',
      'redis.cluster=false',
      ...target,
      '-q',
      '--out-dir',
      `out/${cellDir(cell!)}`,
    ]);
    const file = scenarioPlan({ ...ask, scenario: 'my/blog.yaml' });
    const [fileCell] = planCells(file, () => false);
    assert.deepEqual(seedCommand(file, scenarioSweepOf('my/blog.yaml'), fileCell!, [], 'o')?.slice(0, 5), [
      'seed',
      'scenario',
      'my/blog.yaml',
      '--store',
      'redis',
    ]);
    assert.deepEqual(runCommand(file, scenarioSweepOf('my/blog.yaml'), fileCell!, [], 'o').slice(0, 4), [
      'scenario',
      'my/blog.yaml',
      '--stores',
      'redis',
    ]);
    // Persons measures its own inserts: no separate seed.
    const persons = scenarioPlan({ ...ask, scenario: 'persons' });
    assert.equal(
      seedCommand(persons, scenarioSweepOf('persons'), planCells(persons, () => false)[0]!, [], 'o'),
      undefined,
    );
  });

  it("sizes a scenario file's run by the documents its collections were seeded with", () => {
    assert.equal(ownSize({ 'collection.posts': 20, 'collection.authors': 5, threadcount: 4 }), 25);
    assert.equal(ownSize({ threadcount: 4 }), undefined);
  });

  it('gives one-line user errors from the command line', () => {
    assertUserError(
      runDocbench(['sweep', '--scenario', 'ecommerce', '--records', '100']),
      /--records: a scenario sweep takes --sizes/,
    );
    assertUserError(runDocbench(['sweep', '--sizes', '100']), /--sizes: a YCSB sweep takes --records/);
    assertUserError(
      runDocbench(['sweep', '--scenario', 'ecommerce', '--stores', 'redis', '--workloads', 'nope']),
      /--workloads: unknown ecommerce workload "nope"/,
    );
  });
});
