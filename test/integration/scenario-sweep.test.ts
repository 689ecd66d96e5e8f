/**
 * `docbench sweep --scenario` end to end on Redis (a real server, quick to seed): a scenario file
 * and the built-in e-commerce scenario, each cell its own docbench command on the data the sweep
 * seeded; a finished scenario sweep run again runs nothing again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-scenario-sweep-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A small file of its own (not a shipped example): two collections, a query, a count, a write.
const FILE = `name: notes
seed: 7
collections:
  users:
    count: 20
    fields:
      name: { type: faker, method: person.firstName }
      plan: { type: enum, values: [free, pro] }
  notes:
    count: 200
    fields:
      user: { type: ref, collection: users }
      stars: { type: int, min: 0, max: 5 }
    indexes: [[user, -stars]]
queries:
  by-user:
    collection: notes
    filter: { user: $user }
    sort: { stars: -1 }
    limit: 5
    params:
      user: { type: pick, from: notes.user }
  starred:
    collection: notes
    filter: { stars: { $gte: $min } }
    count: true
    params:
      min: { type: int, min: 3, max: 5 }
writes:
  upgrade: { update: users, set: [plan] }
mix:
  by-user: 0.6
  starred: 0.2
  upgrade: 0.2
`;

interface Stored {
  phase: string;
  workload: { name: string; properties: Record<string, unknown> };
}
const runResults = (out: string): Stored[] =>
  readdirSync(join(out, 'cells'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(out, 'cells', f), 'utf8')) as Stored)
    .filter((r) => r.phase === 'run');

describe(
  'scenario sweeps on redis',
  { skip: testsStore('redis') ? false : 'redis is not among DOCBENCH_TEST_STORES' },
  () => {
    it('sweeps a scenario file over thread counts on one seed, and runs nothing again when repeated', () => {
      const file = join(dir, 'notes.yaml');
      writeFileSync(file, FILE);
      const out = join(dir, 'file');
      const args = [
        'sweep',
        '--scenario',
        file,
        '--stores',
        'redis',
        '--threads',
        '1,2',
        '-p',
        'operationcount=100',
        '--out-dir',
        out,
      ];
      const first = runDocbench(args, { timeoutMs: 120_000 });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, /\[sweep #{20} 2\/2 100%\] redis notes 2 threads rep 1: [\d,]+ ops\/s/);
      assert.equal(readdirSync(join(out, 'loads')).length, 1, 'seeded once for both thread counts');
      const runs = runResults(out);
      assert.deepEqual(runs.map((r) => r.workload.properties.threadcount).sort(), [1, 2]);
      for (const r of runs) assert.equal(r.workload.properties['sweep.repetition'], 1);
      // The table: one line per thread count, sized by the file's 220 documents.
      assert.match(readFileSync(join(out, 'sweep.md'), 'utf8'), /\| scenario notes \| redis +\| +220 \| +2 \| +1 \|/);
      const stamp = statSync(join(out, 'loads')).mtimeMs;
      // The same command again: every cell done, nothing seeded or run again.
      const again = runDocbench(args, { timeoutMs: 120_000 });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stderr, /resuming .*: 2 of 2 runs already done/);
      assert.doesNotMatch(again.stderr, /\[sweep /);
      assert.equal(statSync(join(out, 'loads')).mtimeMs, stamp);
      assert.equal(runResults(out).length, 2);
    });

    it('sweeps the e-commerce scenario over sizes, seeding each size once with docbench seed ecommerce', () => {
      const out = join(dir, 'ecommerce');
      const r = runDocbench(
        [
          'sweep',
          '--scenario',
          'ecommerce',
          '--stores',
          'redis',
          '--sizes',
          '50,100',
          '--workloads',
          'pagination',
          '-p',
          'maxexecutiontime=1',
          '-q',
          '--out-dir',
          out,
        ],
        { timeoutMs: 120_000 },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        readdirSync(join(out, 'loads'))
          .map((f) => f.replace(/-before-.*/, ''))
          .sort(),
        ['redis-s100', 'redis-s50'],
      );
      assert.deepEqual(
        runResults(out)
          .map((x) => x.workload.properties.customers)
          .sort(),
        [100, 50],
      );
      assert.match(r.stdout, /\| workload +\| store \| customers \| threads \|/);
      assert.match(
        readFileSync(join(out, 'sweep.md'), 'utf8'),
        /\| ecommerce pagination \S* *\| redis +\| +50 \| +1 \| +1 \|/,
      );
    });
  },
);
