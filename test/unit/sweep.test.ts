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
import { roundOrder } from '../../src/compare/rounds.ts';
import { planCells, readState, savedOrderSeed, writeState, type SweepPlanInput } from '../../src/study/sweep-plan.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-sweep-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const plan: SweepPlanInput = {
  stores: ['redis', 'mongodb'],
  workloads: ['d', 'a', 'c'],
  records: [100, 1000],
  threads: [1, 4],
  repetitions: 2,
  orderSeed: 7,
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

  it('runs in rounds: every cell once per round, the stores at their record counts in a fresh seeded order each round', () => {
    for (const round of [1, 2]) {
      const mine = cells.filter((c) => c.repetition === round);
      assert.equal(mine.length, cells.length / 2);
      // A round is one block of the plan: no cell of round 2 runs before the last of round 1.
      assert.ok(cells.slice(0, mine.length).every((c) => c.repetition === 1));
      // Each unit's cells run together, the units in the round's order, and every cell records it.
      const units = [...new Set(mine.map((c) => `${c.store}/${c.records}`))];
      const expected = roundOrder(
        plan.stores.flatMap((store) => plan.records.map((records) => `${store}/${records}`)),
        7,
        round,
      );
      assert.deepEqual(units, expected);
      for (const c of mine) {
        assert.deepEqual(c.place.order, expected);
        assert.equal(c.place.position, expected.indexOf(`${c.store}/${c.records}`) + 1);
        assert.equal(c.place.round, round);
        assert.equal(c.place.rounds, 2);
        assert.equal(c.place.seed, 7);
      }
    }
    // Another seed, other orders (over 4 units and 2 rounds, the same two orders would be a 1-in-576 chance).
    const other = planCells({ ...plan, orderSeed: 8 }, inserts);
    assert.notDeepEqual(
      other.map((c) => c.id),
      cells.map((c) => c.id),
    );
    // One record count: a round's order names the stores alone, as compare's does.
    const one = planCells({ ...plan, records: [100] }, inserts);
    assert.deepEqual(new Set(one[0]!.place.order), new Set(['redis', 'mongodb']));
    // One round: the stores and record counts in the order given, as a sweep always ran them.
    const single = planCells({ ...plan, repetitions: 1 }, inserts);
    assert.deepEqual(
      [...new Set(single.map((c) => `${c.store}/${c.records}`))],
      ['redis/100', 'redis/1000', 'mongodb/100', 'mongodb/1000'],
    );
  });

  it("starts every store's turn in every round from a fresh load, runs the workloads that do not insert first on it, and reloads before every inserting run", () => {
    for (const round of [1, 2]) {
      const redis100 = cells.filter((c) => c.store === 'redis' && c.records === 100 && c.repetition === round);
      assert.deepEqual([...new Set(redis100.map((c) => c.workload))], ['a', 'c', 'd']);
      assert.deepEqual(
        redis100.filter((c) => c.workload !== 'd').map((c) => c.freshLoad),
        [true, false, false, false],
      );
      assert.ok(redis100.filter((c) => c.workload === 'd').every((c) => c.freshLoad));
      // The cells on one load share its group; no group spans two rounds or two loads.
      assert.equal(new Set(redis100.filter((c) => c.workload !== 'd').map((c) => c.loadGroup)).size, 1);
      assert.equal(new Set(redis100.map((c) => c.loadGroup)).size, 3);
    }
    const groups = new Map<string, number>();
    for (const c of cells) groups.set(c.loadGroup, (groups.get(c.loadGroup) ?? 0) + (c.freshLoad ? 1 : 0));
    assert.ok([...groups.values()].every((fresh) => fresh === 1));
  });

  it('reloads before every run with --reload', () => {
    assert.ok(planCells({ ...plan, reload: true }, inserts).every((c) => c.freshLoad));
  });

  it('remembers the cells done, accepts more repetitions, and refuses a folder holding another sweep', () => {
    writeState(dir, plan, new Set([cells[0]!.id]));
    assert.deepEqual([...readState(dir, { ...plan, repetitions: 3 })], [cells[0]!.id]);
    assert.throws(() => readState(dir, { ...plan, threads: [1] }), /holds a different sweep \(sweep-state\.json\)/);
  });

  it('keeps the order seed for a resume, and refuses another one for the same folder', () => {
    writeState(dir, plan, new Set());
    assert.equal(savedOrderSeed(dir, undefined), 7);
    assert.equal(savedOrderSeed(dir, 7), 7);
    assert.throws(
      () => savedOrderSeed(dir, 8),
      /--order-seed 8: .* started with --order-seed 7; leave --order-seed out/,
    );
    // The seed is no part of what makes a sweep the same sweep.
    assert.deepEqual([...readState(dir, { ...plan, orderSeed: 9 })], []);
    assert.equal(savedOrderSeed(join(dir, 'nothing-here'), 3), undefined);
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
