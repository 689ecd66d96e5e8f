/**
 * `--repetitions` on the scenario commands end to end on Redis (the quickest local target; the
 * rounds are the commands' own, the same on every store): `docbench ecommerce`, `persons` and
 * `scenario <file>` with two rounds seed afresh in each, write each round's results with its
 * place, and print the table of medians with intervals. The runs use a Redis database of their
 * own, so other tests' data stays apart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { openStore } from '../../src/session/store-session.ts';
import { runDocbench } from '../support/cli.ts';
import { testsStore } from '../support/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-scenario-rounds-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A small scenario file every local store's dialect runs in full (so its runs are valid), with a write in its mix. */
const SCENARIO = `name: rounds
seed: 5
collections:
  devices:
    count: 50
    fields:
      model: { type: enum, values: [t100, t200] }
      lastSeen: { type: date, from: 2024-01-01, to: 2024-06-30 }
  events:
    count: 1000
    fields:
      device: { type: ref, collection: devices }
      ts: { type: date, from: 2024-01-01, to: 2024-06-30 }
      kind: { type: enum, values: [reading, error] }
      value: { type: int, min: 0, max: 100 }
    indexes: [[device, -ts], [kind]]
queries:
  device-recent:
    collection: events
    filter: { device: $device, ts: { $gte: $from } }
    sort: { ts: -1 }
    limit: 10
    params:
      device: { type: pick, from: events.device }
      from: { type: date, from: 2024-03-01, to: 2024-06-25 }
  errors-since:
    collection: events
    filter: { kind: error, ts: { $gte: $since } }
    count: true
    params:
      since: { type: date, from: 2024-01-01, to: 2024-06-30 }
writes:
  heartbeat: { update: devices, set: [lastSeen] }
mix:
  device-recent: 0.6
  errors-since: 0.3
  heartbeat: 0.1
`;

/** The results a command wrote, by file name. */
function written(out: string): Map<string, Result> {
  return new Map(
    readdirSync(out)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, resultSchema.parse(JSON.parse(readFileSync(join(out, f), 'utf8')))]),
  );
}

/** Every result of both rounds records its round, the two rounds and the order's seed. */
function assertTwoRounds(results: Map<string, Result>, seed: number): void {
  for (const [file, r] of results) {
    const round = /-r([12])[-.]/.exec(file)?.[1];
    assert.ok(round !== undefined, `${file} names its round`);
    assert.deepEqual(r.repetition, { round: Number(round), rounds: 2, position: 1, order: ['redis'], seed }, file);
  }
}

describe(
  'scenario commands in rounds on redis',
  { skip: testsStore('redis') ? false : 'redis is not among DOCBENCH_TEST_STORES' },
  () => {
    let url: string;
    before(async () => {
      const open = await openStore('redis', undefined, { settings: {}, concurrency: 1 });
      const local = new URL(open.url!);
      await open.store.close();
      local.pathname = '/9';
      url = `redis=${local.toString()}`;
    });

    it('ecommerce --repetitions 2: a seed and the workload in each round, every result stamped, medians with intervals', () => {
      const out = join(dir, 'ecommerce');
      const r = runDocbench(
        [
          'ecommerce',
          '--stores',
          'redis',
          '--url',
          url,
          '--customers',
          '200',
          '--workloads',
          'join',
          '--repetitions',
          '2',
          '--order-seed',
          '4',
          '-p',
          'maxexecutiontime=1',
          '-q',
          '--out-dir',
          out,
        ],
        { timeoutMs: 120_000 },
      );
      assert.equal(r.code, 0, r.stderr);
      const results = written(out);
      assert.deepEqual([...results.keys()].filter((f) => f.includes('-seed')).sort(), [
        'redis-ecommerce-seed-r1.json',
        'redis-ecommerce-seed-r2.json',
      ]);
      assert.equal([...results.keys()].filter((f) => f.includes('-join')).length, 2);
      assertTwoRounds(results, 4);
      // Each round drew other parameters; the dataset is the same.
      const runs = [...results.values()].filter((x) => x.phase === 'run');
      assert.deepEqual(runs.map((x) => x.workload.properties.seed).sort(), [1, 2]);
      assert.ok(runs.every((x) => x.workload.properties['dataset.seed'] === 1));
      assert.match(
        r.stdout,
        /\| redis +\| join +\| [\w-]+ +\| +2 \| +[\d,]+ \[[\d,]+, [\d,]+\] \(n=2, CoV [\d.]+%\) \| JOIN/,
      );
    });

    it('ecommerce refuses --skip-seed with rounds of a workload that writes', () => {
      const r = runDocbench([
        'ecommerce',
        '--stores',
        'redis',
        '--url',
        url,
        '--workloads',
        'mix',
        '--skip-seed',
        '--repetitions',
        '2',
      ]);
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /--skip-seed with --repetitions 2: the mix workload \(customer inserts and updates\) writes/,
      );
    });

    it('persons --repetitions 2: each round seeds its own documents and runs Q1–Q5, the comparison gives medians with intervals', () => {
      const out = join(dir, 'persons');
      const r = runDocbench(
        [
          'persons',
          '--stores',
          'redis',
          '--url',
          url,
          '--size',
          '300',
          '--repeat',
          '1',
          '--repetitions',
          '2',
          '--order-seed',
          '6',
          '-q',
          '--out-dir',
          out,
        ],
        { timeoutMs: 120_000 },
      );
      assert.equal(r.code, 0, r.stderr);
      const results = written(out);
      assert.deepEqual([...results.keys()].sort(), [
        'redis-persons-flat-300-r1-load.json',
        'redis-persons-flat-300-r1-run.json',
        'redis-persons-flat-300-r2-load.json',
        'redis-persons-flat-300-r2-run.json',
      ]);
      assertTwoRounds(results, 6);
      for (const x of results.values()) if (x.phase === 'load') assert.equal(x.overall.operations, 300);
      assert.match(r.stdout, /### redis \(round 2 of 2\): 300 flat persons/);
      assert.match(r.stdout, /\| docs +\| shape +\| indexes +\| store +\| variant +\| rounds \| +insert \(s\)/);
      assert.match(r.stdout, /\| 300 +\| flat +\| no +\| redis +\| scan +\| +2 \| +[\d.]+ \[[\d.]+, [\d.]+\] \|/);
      assert.match(r.stdout, /✓ 5\/5/);
    });

    it('scenario <file> --repetitions 2: a seed and the mix in each round, every result stamped, one row group over the rounds', () => {
      const out = join(dir, 'file');
      const file = join(dir, 'rounds.yaml');
      writeFileSync(file, SCENARIO);
      const r = runDocbench(
        [
          'scenario',
          file,
          '--stores',
          'redis',
          '--url',
          url,
          '--repetitions',
          '2',
          '--order-seed',
          '8',
          '-p',
          'operationcount=200',
          '-q',
          '--out-dir',
          out,
        ],
        { timeoutMs: 120_000 },
      );
      assert.equal(r.code, 0, r.stderr);
      const results = written(out);
      assert.equal([...results.values()].filter((x) => x.phase === 'load').length, 2);
      assert.equal([...results.values()].filter((x) => x.phase === 'run').length, 2);
      assertTwoRounds(results, 8);
      assert.match(r.stdout, /\| redis +\| +2 \| +[\d,]+ \[[\d,]+, [\d,]+\] \(n=2, CoV [\d.]+%\) \|/);
      // The mix writes: rounds on one held dataset are refused.
      const shared = runDocbench([
        'scenario',
        file,
        '--stores',
        'redis',
        '--url',
        url,
        '--skip-seed',
        '--repetitions',
        '2',
      ]);
      assert.equal(shared.code, 2);
      assert.match(shared.stderr, /--skip-seed with --repetitions 2: the mix's heartbeat writes/);
    });
  },
);
