/**
 * `docbench sweep` and `docbench study` end to end on Redis (a real server, quick to load):
 * a sweep resumes without re-running its finished cells, and every study preset at --scale tiny
 * prints its deviations first, keeps them in every result and writes the paper's figures beside
 * docbench's and the HTML report.
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

const runs = (folder: string) =>
  readdirSync(folder)
    .filter((f) => /-rep\d+\.json$/.test(f))
    .sort();

describe(
  'sweep and study on redis',
  { skip: testsStore('redis') ? false : 'redis is not among DOCBENCH_TEST_STORES' },
  () => {
    it('sweeps with repetitions, resumes without re-running finished cells, and writes its report', () => {
      const out = join(dir, 'sweep');
      const args = [
        'sweep',
        '--stores',
        'redis',
        '--workloads',
        'a,d',
        '--records',
        '100',
        '--threads',
        '1,2',
        '-p',
        'operationcount=50',
        '-q',
        '--out-dir',
        out,
      ];
      const first = runDocbench([...args, '--repetitions', '1'], { timeoutMs: 120_000 });
      assert.equal(first.code, 0, first.stderr);
      assert.equal(runs(out).length, 4);
      assert.match(first.stderr, /\[sweep #{20} 4\/4 100%\]/);
      const before = new Map(runs(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
      const second = runDocbench([...args, '--repetitions', '2'], { timeoutMs: 120_000 });
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stderr, /resuming .*: 4 of 8 runs already done/);
      assert.equal(runs(out).length, 8);
      for (const [file, text] of before)
        assert.equal(readFileSync(join(out, file), 'utf8'), text, `${file} was not run again`);
      const summary = readFileSync(join(out, 'sweep.md'), 'utf8');
      assert.match(summary, /\| workloada \| redis +\| +100 \| +2 \| +2 \|/);
      assert.match(summary, /ops\/s median \[95% CI\] \(n, CoV\)/);
      // The second round's runs record it: the round, the rounds, the order and its seed, beside the old property.
      const seed = (JSON.parse(readFileSync(join(out, 'sweep-state.json'), 'utf8')) as { plan: { orderSeed: number } })
        .plan.orderSeed;
      for (const file of runs(out).filter((f) => f.endsWith('-rep2.json'))) {
        const r = JSON.parse(readFileSync(join(out, file), 'utf8')) as {
          repetition?: { round: number; rounds: number; position: number; order: string[]; seed: number };
          workload: { properties: Record<string, unknown> };
        };
        assert.deepEqual(r.repetition, { round: 2, rounds: 2, position: 1, order: ['redis'], seed }, file);
        assert.equal(r.workload.properties['sweep.repetition'], 2);
      }
      assert.ok(existsSync(join(out, 'report.html')));
      assert.match(
        second.stderr,
        new RegExp(`report: ${join(out, 'report.html').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    });

    // Every preset end to end at its tiny scale on a real server: the deviations first, the paper's
    // figures and docbench's, every result stamped with the study, the report headed by the deviations.
    for (const name of ['carvalho2023', 'tang2016', 'altoros2022', 'henricsson2011', 'dzone2016']) {
      it(`runs ${name} at --scale tiny: deviations printed first and kept in every result, the paper's figures beside docbench's`, () => {
        const out = join(dir, name);
        const r = runDocbench(['study', name, '--scale', 'tiny', '--stores', 'redis', '-q', '--out-dir', out], {
          timeoutMs: 300_000,
        });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^## How this run differs from /, 'the deviations come before anything else');
        // Redis is Tang & Fan's; for the others it is a store the paper did not run, and said so.
        assert.match(
          r.stdout.split('\n').slice(0, 12).join('\n'),
          name === 'tang2016'
            ? /\| store: redis +\| Redis 3\.2\.1 \(Section III\) +\| redis-server/
            : /\| store: redis +\| not one of the paper's stores/,
        );
        const study = readFileSync(join(out, 'study.md'), 'utf8');
        assert.ok(
          study.indexOf('## How this run differs from') < study.indexOf("## PUBLISHED (the paper's)"),
          'deviations, then the published figures',
        );
        assert.match(study, /## docbench: /);
        const results = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter(
          (f) => f.endsWith('.json') && !f.endsWith('sweep-state.json'),
        );
        assert.ok(results.length > 0);
        if (name === 'carvalho2023') {
          // The paper's runs (2 at tiny) are interleaved rounds, each run recording its own.
          const rounds = results
            .filter((f) => /-rep\d+\.json$/.test(f))
            .map(
              (f) =>
                (JSON.parse(readFileSync(join(out, f), 'utf8')) as { repetition?: { round: number; rounds: number } })
                  .repetition,
            );
          assert.ok(rounds.every((r) => r?.rounds === 2));
          assert.deepEqual([...new Set(rounds.map((r) => r?.round))].sort(), [1, 2]);
        }
        for (const file of results) {
          const result = JSON.parse(readFileSync(join(out, file), 'utf8')) as {
            study?: { name: string; scale: string; deviations: unknown[] };
          };
          assert.equal(result.study?.name, name, file);
          assert.equal(result.study?.scale, 'tiny');
          assert.ok((result.study?.deviations.length ?? 0) > 0, `${file} keeps the deviations`);
        }
        const report = readFileSync(join(out, 'report.html'), 'utf8');
        assert.ok(
          report.indexOf('How this run differs from the paper') < report.indexOf('PUBLISHED (the paper&#39;s)'),
          'the report opens with the deviations',
        );
      });
    }

    it('prints a plan without running anything, and refuses nothing it can fit', () => {
      const r = runDocbench(['study', 'dzone2016', '--scale', 'tiny', '--stores', 'redis', '--plan']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /nothing has run/);
      assert.match(r.stdout, /\| \*\*tiny\*\* .* runs here +\|/);
      // --repetitions overrides the preset's runs, in the plan's commands and its deviations.
      const twice = runDocbench([
        'study',
        'dzone2016',
        '--scale',
        'tiny',
        '--stores',
        'redis',
        '--repetitions',
        '2',
        '--plan',
        '--details',
      ]);
      assert.equal(twice.code, 0, twice.stderr);
      assert.match(twice.stdout, /--repetitions 2/);
      assert.match(
        twice.stdout.replace(/\s+/g, ' '),
        /repetitions \(--repetitions\): DIFFERS the paper: not stated this run: 2 runs of each cell, in 2 interleaved rounds/,
      );
    });
  },
);
