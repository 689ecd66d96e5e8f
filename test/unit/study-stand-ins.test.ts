/**
 * What a local stand-in cannot run, before a study runs: the stand-in's own declaration (its local
 * target's `cannot`, read without a server), the cells left out of the steps and the estimate,
 * the way to run them on a real server; each step's commands; the paper's ratios from docbench's
 * results beside the paper's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import type { Result } from '../../src/results/schema.ts';
import { paperStoresHere } from '../../src/study/design.ts';
import { estimateSteps } from '../../src/study/estimate.ts';
import { lookupIn } from '../../src/study/paper.ts';
import type { StudyContext, StudyPreset } from '../../src/study/preset.ts';
import { STUDIES } from '../../src/study/presets.ts';
import { ratiosTable } from '../../src/study/ratios.ts';
import { planStudy } from '../../src/study/run-study.ts';
import { leaveOutGaps, standInGaps } from '../../src/study/stand-ins.ts';
import { stepCommands } from '../../src/study/step-commands.ts';
import { planCells, type SweepPlanInput } from '../../src/study/sweep-plan.ts';
import { wrap, wrapCommand } from '../../src/study/text-wrap.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

const preset = (name: string) => STUDIES.find((s) => s.name === name)!;
const context = (p: StudyPreset, scale: StudyContext['scale'] = 'small'): StudyContext => ({
  scale,
  stores: paperStoresHere(p),
});
const local = () => 'local' as const;
const options = { scale: 'small' as const, outDir: 'unused', status: false };
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe("the local stand-ins' declared gaps", () => {
  it('CouchbaseMock says it has no SQL++ (no scans, no queries); the CouchDB and MongoDB stand-ins lack nothing a study runs', async () => {
    const couchbase = await (await localTarget('couchbase')).info();
    assert.equal(couchbase.standIn, true);
    assert.match(couchbase.cannot?.scan ?? '', /no SQL\+\+/);
    assert.match(couchbase.cannot?.query ?? '', /no SQL\+\+/);
    for (const store of ['couchdb', 'mongodb']) assert.deepEqual((await (await localTarget(store)).info()).cannot, {});
    const gaps = await standInGaps(['couchbase', 'couchdb', 'mongodb', 'redis'], local);
    assert.deepEqual(
      gaps.map((g) => g.store),
      ['couchbase'],
    );
    assert.deepEqual(await standInGaps(['couchbase'], () => '--url'), [], 'a server named by --url lacks nothing');
  });
});

describe('cells a local stand-in cannot run', () => {
  it('DZone 2016: the local Couchbase stand-in cannot run workload E; it is left out of the run and the estimate, and named with --docker and --url', async () => {
    const dzone = preset('dzone2016');
    const ctx = context(dzone);
    const { steps, leftOut } = leaveOutGaps(dzone.steps(ctx), await standInGaps(ctx.stores, local));
    assert.deepEqual(
      leftOut.map((l) => [l.step, l.store, l.workloads]),
      [['workload-e', 'couchbase', ['e']]],
    );
    assert.equal(leftOut[0]!.runs, 5);
    assert.deepEqual(steps[0]!.plan.leaveOut, [{ store: 'couchbase', workloads: ['e'] }]);
    assert.deepEqual(
      stepCommands(steps[0]!).map((c) => c.slice(0, 5)),
      [['sweep', '--stores', 'mongodb', '--workloads', 'e']],
    );
    assert.equal(estimateSteps(steps).runs, 5, "mongodb's 5 thread counts; couchbase's 5 are not counted");
    assert.equal(estimateSteps(dzone.steps(ctx)).runs, 10);

    const plan = await planStudy(dzone, options);
    assert.match(plan, /## What the local stand-ins cannot run/);
    assert.match(
      flat(plan),
      /couchbase on CouchbaseMock 1\.5\.27: no SQL\+\+: YCSB scans are UNSUPPORTED\. Left out: workload-e's e \(5 runs/,
    );
    assert.match(
      plan,
      /docbench up --docker couchbase\n {4}docbench study dzone2016 --scale small --stores couchbase --docker\n/,
    );
    assert.match(plan, /docbench study dzone2016 --scale small --stores couchbase --url couchbase=URL\n/);
    assert.match(
      flat(plan),
      /store: couchbase: CouchbaseMock 1\.5\.27, docbench's local STAND-IN: .* it cannot run workload-e's e .*left out of this run/,
    );
    assert.match(plan, /\| \*\*small\*\* \| +5 \|/, 'the estimate counts the runs that will run');
    assert.doesNotMatch(plan, /as the paper: .*store: couchbase/);

    const named = await planStudy(dzone, { ...options, url: ['couchbase=couchbase://u:p@127.0.0.1/b'] });
    assert.doesNotMatch(named, /cannot run/);
    assert.match(named, /\| \*\*small\*\* \| +10 \|/);
  });

  it('Altoros 2022: the Couchbase stand-in runs workload A; its E, pagination and JOIN are left out, each with its cost', async () => {
    const altoros = preset('altoros2022');
    const ctx = context(altoros);
    const all = altoros.steps(ctx);
    const { steps, leftOut } = leaveOutGaps(all, await standInGaps(ctx.stores, local));
    assert.deepEqual(
      leftOut.map((l) => [l.step, l.workloads]),
      [
        ['ycsb', ['e-altoros2022']],
        ['pagination', ['pagination']],
        ['join', ['join']],
      ],
    );
    assert.deepEqual(
      stepCommands(steps[0]!).map((c) => c.slice(1, 5)),
      [
        ['--stores', 'couchbase', '--workloads', 'a'],
        ['--stores', 'mongodb', '--workloads', 'a,e-altoros2022'],
      ],
    );
    assert.deepEqual(
      stepCommands(steps[1]!).map((c) => c.slice(0, 6)),
      [['sweep', '--scenario', 'ecommerce', '--stores', 'mongodb', '--workloads']],
    );
    const before = estimateSteps(all);
    const after = estimateSteps(steps);
    assert.equal(
      before.runs - after.runs,
      leftOut.reduce((n, l) => n + l.runs, 0),
    );
    assert.equal(
      after.runs,
      7 * 3 + 7 + 14,
      'workload A on both, E on mongodb; pagination and both JOIN variants on mongodb',
    );
  });

  it("Carvalho et al. 2023: only Couchbase's workload E is left out; a run where nothing can run stops before it starts", async () => {
    const carvalho = preset('carvalho2023');
    const ctx = context(carvalho);
    const { steps, leftOut } = leaveOutGaps(carvalho.steps(ctx), await standInGaps(ctx.stores, local));
    assert.deepEqual(
      leftOut.map((l) => [l.store, l.workloads, l.runs]),
      [['couchbase', ['e'], 2 * 3 * 3]],
    );
    const cells = planCells(steps[0]!.plan, () => false);
    assert.equal(cells.length, 3 * 8 * 2 * 3 * 3 - 2 * 3 * 3);
    assert.ok(!cells.some((c) => c.store === 'couchbase' && c.workload === 'e'));

    const { runStudy } = await import('../../src/study/run-study.ts');
    await assert.rejects(
      runStudy(preset('dzone2016'), { ...options, stores: ['couchbase'] }),
      /study dzone2016: nothing to run: CouchbaseMock 1\.5\.27 cannot run workload-e's e \(no SQL\+\+.*docbench up --docker couchbase/,
    );
  });

  it('a sweep leaves out what its plan says, and the first cell it keeps loads the records', () => {
    const plan: SweepPlanInput = {
      stores: ['redis', 'couchbase'],
      workloads: ['a', 'c'],
      records: [100],
      threads: [1],
      repetitions: 1,
      extraFiles: [],
      overrides: [],
      reload: false,
      leaveOut: [{ store: 'couchbase', workloads: ['a'] }],
    };
    assert.deepEqual(
      planCells(plan, () => false).map((c) => [c.store, c.workload, c.freshLoad]),
      [
        ['redis', 'a', true],
        ['redis', 'c', false],
        ['couchbase', 'c', true],
      ],
    );
  });
});

describe("each step's commands", () => {
  it('a YCSB step whose operations are a share of its records is one sweep command per record count', () => {
    const tang = preset('tang2016');
    const experiment2 = tang.steps({ scale: 'tiny', stores: ['redis'] })[1]!;
    assert.deepEqual(stepCommands(experiment2), [
      [
        'sweep',
        '--stores',
        'redis',
        '--workloads',
        'a',
        '--records',
        '100',
        '--threads',
        '1',
        '--repetitions',
        '1',
        '-P',
        'record-1kb',
        '-p',
        'maxexecutiontime=0',
        '-p',
        'operationcount=10',
      ],
      [
        'sweep',
        '--stores',
        'redis',
        '--workloads',
        'a',
        '--records',
        '1000',
        '--threads',
        '1',
        '--repetitions',
        '1',
        '-P',
        'record-1kb',
        '-p',
        'maxexecutiontime=0',
        '-p',
        'operationcount=100',
      ],
    ]);
  });

  it('wraps prose and commands at 120 bytes, an option beside its value, each broken line ending in a backslash', () => {
    const text = wrap('word '.repeat(60), '- ', '  ');
    assert.ok(text.split('\n').every((l) => Buffer.byteLength(l) <= 120));
    assert.ok(
      text
        .split('\n')
        .slice(1)
        .every((l) => l.startsWith('  word')),
    );
    const args = [
      'sweep',
      '--stores',
      'a,b,c',
      ...Array.from({ length: 20 }, (_, i) => ['-p', `key${i}=value ${i}`]).flat(),
    ];
    const command = wrapCommand(args, '   ');
    const lines = command.split('\n');
    assert.ok(lines.length > 1 && lines.every((l) => Buffer.byteLength(l) <= 120));
    assert.ok(lines.slice(0, -1).every((l) => l.endsWith(' \\')));
    assert.match(command, /-p 'key0=value 0'/);
    assert.equal(lines[0]!.slice(0, 24), '   docbench sweep --stor');
  });
});

/** One result a Carvalho cell would hold: `seconds` of runtime. */
function carvalhoRun(store: string, workload: string, records: number, threads: number, seconds: number): Result {
  return syntheticResult({
    store,
    workload: `workload${workload}`,
    records,
    threads,
    operations: 20,
    runtimeMs: seconds * 1000,
  });
}

describe("the paper's ratios from docbench's results", () => {
  it("Carvalho et al. 2023: its 13 ratios beside the same ratios of a run's totals; a size not run or a cell left out is said, not guessed", () => {
    const carvalho = preset('carvalho2023');
    // couchdb: 1 s a cell at 100 records, 10 s at 1,000; mongodb twice as fast; couchbase 4 s / 20 s and no workload E.
    const results: Result[] = [];
    for (const [store, small, large] of [
      ['couchdb', 1, 10],
      ['mongodb', 0.5, 5],
      ['couchbase', 4, 20],
    ] as const)
      for (const w of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
        for (const t of [1, 3, 6]) {
          if (store === 'couchbase' && w === 'e') continue;
          results.push(carvalhoRun(store, w, 100, t, small), carvalhoRun(store, w, 1000, t, large));
        }
    const table = ratiosTable(carvalho, results)!;
    assert.equal(table.rows.length, 13);
    const row = (claim: string) => table.rows.find((r) => r[0] === claim)!;
    assert.deepEqual(row('CouchDB 100k → 1M records').slice(2, 4), ['17.9×', '10×']);
    assert.match(row('CouchDB 100k → 1M records')[4]!, /couchdb: its total at 1,000 records ÷ at 100/);
    assert.match(
      row('CouchDB 1M → 10M records')[4]!,
      /not computed: the run has 2 record counts; --scale full runs the paper's three/,
    );
    assert.deepEqual(row('workload E, CouchDB vs MongoDB').slice(2, 4), ['3.1×', '0.5×']);
    assert.deepEqual(row('all but E, MongoDB vs CouchDB').slice(2, 4), ['3.28×', '2×']);
    // Couchbase's totals over A–H lack E, which its stand-in cannot run; all but E it has.
    assert.match(
      row('Couchbase 100k → 1M records')[4]!,
      /not computed: couchbase ran 21 of the 24 cells at 1,000 records/,
    );
    assert.equal(
      row('all but E, CouchDB vs Couchbase')[3],
      `${(24 * 7 * 3) / (11 * 7 * 3)}×`.replace(/(\.\d\d)\d+/, '$1'),
    );
    // The paper's column is the paper's own stated ratio.
    const cell = lookupIn(carvalho.published);
    for (const r of carvalho.ratios!)
      assert.equal(table.rows.find((x) => x[0] === r.claim)![2], `${r.paper(cell)}×`.replace(/^(\d+\.\d\d)\d+/, '$1'));
  });

  it('Tang & Fan 2016: load and execution time against Redis, and Cassandra against HBase on workload C', () => {
    const tang = preset('tang2016');
    const step = (r: Result): Result => ({
      ...r,
      study: { name: 'tang2016', title: 't', scale: 'tiny', step: 'experiment-1', deviations: [] },
    });
    const results = [
      ...['redis', 'cassandra', 'hbase'].flatMap((store, i) =>
        ['a', 'c', 'h'].map((w) =>
          step(syntheticResult({ store, workload: `workload${w}`, runtimeMs: (i + 1) * 1000 })),
        ),
      ),
    ];
    const table = ratiosTable(tang, results)!;
    const row = (claim: string) => table.rows.find((r) => r[0] === claim)!;
    assert.deepEqual(row("Figure 2: Cassandra's average of A, C, H ÷ Redis's").slice(2, 4), ['4.9×', '2×']);
    assert.deepEqual(row("Figure 2: Cassandra's workload C time ÷ HBase's").slice(2, 4), ['1.58×', '0.67×']);
    assert.match(row("Figure 2: MongoDB's average of A, C, H ÷ Redis's")[4]!, /not computed: no mongodb results/);
    assert.match(row("Figure 1: MongoDB's load time ÷ Redis's")[4]!, /not computed/);
  });

  it('a paper that states no ratios has no ratios table', () => {
    assert.equal(ratiosTable(preset('dzone2016'), []), undefined);
  });
});
