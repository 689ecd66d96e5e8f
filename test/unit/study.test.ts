/**
 * The study presets read beside their papers, without a server: every published figure with its
 * location, provenance, statistic and unit; each paper's own arithmetic (totals, ratios, minutes)
 * re-done, its disagreements declared; `full` runs the paper's sizes; the deviations name what
 * differs; the plan's estimates and the refusal of `full` where the data cannot fit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStoreName } from '../../src/stores/stores.ts';
import { paperStoresHere, studyDesign, studyInfo } from '../../src/study/design.ts';
import { estimateSteps } from '../../src/study/estimate.ts';
import { checkHolds, lookupIn, type PublishedTable } from '../../src/study/paper.ts';
import { CARVALHO_CHECKS, CARVALHO_PUBLISHED } from '../../src/study/papers/carvalho2023-published.ts';
import { fullVerdict, renderPlan, scaleEstimates, studyArgs } from '../../src/study/plan.ts';
import { SCALES, STUDIES } from '../../src/study/presets.ts';
import { stepsOf, type StudyContext, type StudyPreset, type StudyStep } from '../../src/study/preset.ts';
import { arithmeticSummary, publishedFigures } from '../../src/study/published-tables.ts';
import { STUDY_TITLES } from '../../src/study/study-titles.ts';

const preset = (name: string) => STUDIES.find((s) => s.name === name)!;
const context = (p: StudyPreset, scale: StudyContext['scale'], variant?: string): StudyContext => ({
  scale,
  stores: paperStoresHere(p),
  variant,
});
const sweeps = (steps: StudyStep[]) =>
  steps.filter((s): s is Extract<StudyStep, { kind: 'sweep' }> => s.kind === 'sweep');
const scenarioSweeps = (steps: StudyStep[]) =>
  steps.filter((s): s is Extract<StudyStep, { kind: 'scenario' }> => s.kind === 'scenario');
/** A location in a paper, or the paper's silence, said in so many words. */
const LOCATED = /Section|Table|Figure|Fig\.|paragraph|Appendi(x|ces)|p\. \d|not stated|not printed/;

describe('the list of studies the CLI shows', () => {
  it('names every preset, in the same order, with its own title (STUDY_TITLES is what --help reads)', () => {
    assert.deepEqual(
      Object.entries(STUDY_TITLES),
      STUDIES.map((s) => [s.name, s.title]),
    );
  });
});

describe("the papers' published figures", () => {
  for (const study of STUDIES) {
    it(`${study.name}: every table says where it stands, how its figures were obtained, their statistic and unit; every row fills its columns`, () => {
      assert.ok(study.published.length > 0);
      for (const t of study.published) {
        assert.match(t.where, LOCATED, `${t.id}: where`);
        assert.ok(t.statistic.length > 0 && t.unit.length > 0, t.id);
        for (const row of t.rows) assert.equal(row.length, t.header.length, `${t.id}: ${row[0]}`);
      }
      for (const f of publishedFigures(study)) assert.match(f.title, /^PUBLISHED \(the paper's\): /);
    });

    it(`${study.name}: each total and ratio the paper prints agrees with its other figures, or the disagreement is declared as found`, () => {
      const cell = lookupIn(study.published);
      for (const check of study.checks) {
        const { holds, printed, computed } = checkHolds(check, cell);
        if (check.discrepancy === undefined)
          assert.ok(holds, `${check.claim} (${check.where}): printed ${printed}, computed ${computed}`);
        else assert.ok(!holds, `${check.claim}: declared off ("${check.discrepancy}") but it holds`);
      }
    });
  }

  it("Carvalho et al. 2023: Table 4's totals add up only with CouchDB's workload H row (22.37 s / 356.89 s / 6058.88 s)", () => {
    const table4 = CARVALHO_PUBLISHED.find((t) => t.id === 'table4')!;
    assert.deepEqual(
      table4.rows.find((r) => r[0] === 'Workload H'),
      ['Workload H', '22.37 s', '356.89 s', '6058.88 s'],
    );
    const withoutH: PublishedTable[] = CARVALHO_PUBLISHED.map((t) =>
      t.id === 'table4' ? { ...t, rows: t.rows.filter((r) => r[0] !== 'Workload H') } : t,
    );
    const totals = CARVALHO_CHECKS.filter((c) => /^Table 4 total, .*: the sum of workloads A–H$/.test(c.claim));
    assert.equal(totals.length, 3);
    for (const check of totals) {
      assert.ok(checkHolds(check, lookupIn(CARVALHO_PUBLISHED)).holds, check.claim);
      assert.throws(
        () => checkHolds(check, lookupIn(withoutH)),
        /no cell \(Workload H/,
        'a missing row is an error, never a silent zero',
      );
    }
  });

  it("Carvalho et al. 2023: every store's per-workload table holds A–H and a total at the three record counts", () => {
    for (const id of ['table2', 'table4', 'table6']) {
      const t = CARVALHO_PUBLISHED.find((x) => x.id === id)!;
      assert.deepEqual(
        t.rows.map((r) => r[0]),
        ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((w) => `Workload ${w}`).concat('Total'),
      );
      assert.deepEqual(t.header.slice(1), ['100,000 Records', '1,000,000 Records', '10,000,000 Records']);
    }
    const summary = arithmeticSummary(preset('carvalho2023'));
    assert.ok(
      summary.total > 60 && summary.off.length > 0 && summary.off.every((o) => o.discrepancy !== 'not explained'),
    );
  });

  it('Tang & Fan 2016: "over 2w ops/sec" is the load throughput (Figure 3), not workload A\'s (Figure 4)', () => {
    const tables = preset('tang2016').published;
    assert.match(
      tables
        .find((t) => t.id === 'fig3')!
        .rows.map((r) => r[1])
        .join(' '),
      /over 2w ops \/ sec/,
    );
    assert.doesNotMatch(
      tables
        .find((t) => t.id === 'fig4')!
        .rows.map((r) => r[1])
        .join(' '),
      /2w/,
    );
  });

  it('Altoros 2022: its figures are at the median of 100–700 client threads, not the highest throughput', () => {
    const throughput = preset('altoros2022').published.find((t) => t.id === 'throughput')!;
    assert.match(throughput.title, /median number of client threads/);
    assert.doesNotMatch(throughput.title, /highest/);
    assert.match(throughput.note ?? '', /c4\.2xlarge/);
  });
});

describe("--scale full runs the paper's sizes", () => {
  it('Carvalho et al. 2023: A–H at 100k / 1M / 10M records of 20 × 500 B, operations = records, 1 / 3 / 6 threads, 3 runs, no time cap', () => {
    const [ycsb] = sweeps(preset('carvalho2023').steps(context(preset('carvalho2023'), 'full')));
    assert.deepEqual(ycsb!.plan.workloads, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    assert.deepEqual(ycsb!.plan.records, [100_000, 1_000_000, 10_000_000]);
    assert.deepEqual(ycsb!.plan.threads, [1, 3, 6]);
    assert.equal(ycsb!.plan.repetitions, 3);
    assert.equal(ycsb!.plan.operationsPerRecord, 1);
    assert.deepEqual(ycsb!.plan.extraFiles, ['record-10kb']);
    assert.ok(ycsb!.plan.overrides.includes('maxexecutiontime=0'));
  });

  it('Tang & Fan 2016: 100,000 records and 10,000 operations of A, C, H; 10k … 10M records with operations 10% of them', () => {
    const [one, two] = sweeps(preset('tang2016').steps(context(preset('tang2016'), 'full')));
    assert.deepEqual([one!.plan.workloads, one!.plan.records], [['a', 'c', 'h'], [100_000]]);
    assert.ok(one!.plan.overrides.includes('operationcount=10000'));
    assert.deepEqual(two!.plan.records, [10_000, 100_000, 1_000_000, 5_000_000, 10_000_000]);
    assert.equal(two!.plan.operationsPerRecord, 0.1);
  });

  it("Altoros 2022: 100–700 threads, the study's E and its unordered pagination by default, the named variants otherwise", () => {
    const p = preset('altoros2022');
    const steps = p.steps(context(p, 'full'));
    const [ycsb] = sweeps(steps);
    assert.deepEqual(ycsb!.plan.threads, [100, 200, 300, 400, 500, 600, 700]);
    assert.deepEqual(ycsb!.plan.workloads, ['a', 'e-altoros2022']);
    assert.deepEqual(ycsb!.plan.records, [50_000_000]);
    // The e-commerce scenario, named through the SCENARIOS table, swept over the same threads.
    const [pagination, join] = scenarioSweeps(steps);
    assert.deepEqual(
      [pagination!.plan.scenario, pagination!.plan.workloads, pagination!.plan.records, pagination!.plan.threads],
      ['ecommerce', ['pagination'], [5_000_000], [100, 200, 300, 400, 500, 600, 700]],
    );
    assert.ok(pagination!.plan.overrides.includes('ordered=false'), pagination!.plan.overrides.join(' '));
    assert.deepEqual([join!.plan.workloads, join!.plan.records], [['join'], [25_000_000]]);
    const [ordered] = scenarioSweeps(p.steps(context(p, 'full', 'ordered-pagination')));
    assert.ok(!ordered!.plan.overrides.includes('ordered=false'));
    assert.deepEqual(sweeps(p.steps(context(p, 'full', 'ycsb-e')))[0]!.plan.workloads, ['a', 'e']);
  });

  it('DZone 2016: workload E unmodified (no scan-length override) on 150 million items; limit50 only as its variant', () => {
    const p = preset('dzone2016');
    const [e] = sweeps(p.steps(context(p, 'full')));
    assert.deepEqual([e!.plan.workloads, e!.plan.records], [['e'], [150_000_000]]);
    assert.ok(!e!.plan.overrides.some((o) => /scanlength/.test(o)), e!.plan.overrides.join(' '));
    const [limit] = sweeps(p.steps(context(p, 'full', 'limit50')));
    assert.ok(limit!.plan.overrides.includes('minscanlength=50') && limit!.plan.overrides.includes('maxscanlength=50'));
  });

  it('Henricsson 2011: 5,000 / 50,000 / 500,000 flat persons, each query 3 times', () => {
    const p = preset('henricsson2011');
    const [persons] = scenarioSweeps(p.steps(context(p, 'full')));
    assert.deepEqual(
      [persons!.plan.scenario, persons!.plan.stores, persons!.plan.records, persons!.plan.overrides],
      ['persons', ['mongodb', 'couchdb'], [5000, 50_000, 500_000], ['repeat=3']],
    );
    const [nested] = scenarioSweeps(p.steps(context(p, 'full', 'nested')));
    assert.deepEqual(nested!.plan.overrides, ['repeat=3', 'nested=true']);
  });
});

describe('deviations', () => {
  for (const study of STUDIES) {
    it(`${study.name}: every design item quotes the paper with its location (or its silence), at every scale`, async () => {
      for (const scale of SCALES) {
        const design = await studyDesign(study, context(study, scale), () => '--url');
        for (const item of design) assert.match(item.paper, LOCATED, `${item.item}: ${item.paper}`);
        // The sizes are the paper's only at full.
        const sized = design.filter((d) => /records|documents|items|data|Experiment/.test(d.item));
        assert.ok(sized.length > 0);
        for (const d of sized) if (scale !== 'full') assert.equal(d.same, false, `${d.item} at ${scale}`);
        const info = studyInfo(study, context(study, scale), design, 'step');
        assert.ok(info.deviations.length > 0 && info.deviations.length === design.filter((d) => !d.same).length);
      }
    });
  }

  it("Tang & Fan 2016: runs the paper's stores docbench has; HBase is one of them once the store exists, and said to be missing until then", async () => {
    const tang = preset('tang2016');
    assert.deepEqual(
      tang.paperStores.map((s) => s.store),
      ['redis', 'mongodb', 'couchbase', 'cassandra', 'hbase'],
    );
    assert.deepEqual(
      paperStoresHere(tang),
      tang.paperStores.map((s) => s.store).filter((s) => isStoreName(s)),
    );
    const hbase = (await studyDesign(tang, context(tang, 'small'), () => '--url')).find(
      (d) => d.item === 'store: hbase',
    )!;
    assert.match(hbase.paper, /HBase 0\.98\.20 \(Section III\)/);
    // HBase is a store of docbench's: Tang & Fan's preset runs all five of the paper's stores.
    assert.ok(isStoreName('hbase'));
    assert.deepEqual([...paperStoresHere(tang)].sort(), ['cassandra', 'couchbase', 'hbase', 'mongodb', 'redis']);
    assert.doesNotMatch(hbase.docbench, /no hbase store/);
  });

  it("--repetitions N: every step of the study runs N rounds, a deviation beside the paper's own count unless N is the preset's", async () => {
    const carvalho = preset('carvalho2023');
    const five = { ...context(carvalho, 'small'), repetitions: 5 };
    assert.deepEqual(
      stepsOf(carvalho, five).map((s) => s.plan.repetitions),
      [5],
    );
    const item = (await studyDesign(carvalho, five, () => '--url')).find(
      (d) => d.item === 'repetitions (--repetitions)',
    )!;
    assert.equal(item.same, false);
    assert.match(item.paper, /three executions were performed/);
    assert.match(item.docbench, /5 runs of each cell, in 5 interleaved rounds \(--repetitions 5; the preset runs 3\)/);
    assert.deepEqual(studyArgs(carvalho, five).slice(-2), ['--repetitions', '5']);
    // The preset's own count: nothing differs.
    const three = { ...context(carvalho, 'small'), repetitions: 3 };
    assert.ok(!(await studyDesign(carvalho, three, () => '--url')).some((d) => d.item.includes('--repetitions')));
    // Scenario steps too, and their estimate counts every round's seed and runs.
    const altoros = preset('altoros2022');
    const once = context(altoros, 'tiny');
    const twice = { ...once, repetitions: 2 };
    assert.ok(stepsOf(altoros, twice).every((s) => s.plan.repetitions === 2));
    const [a, b] = [estimateSteps(stepsOf(altoros, once)), estimateSteps(stepsOf(altoros, twice))];
    assert.equal(b.runs, 2 * a.runs);
    assert.equal(b.diskBytes, a.diskBytes);
  });

  it('DZone 2016 says its "limit 50" and "unmodified" contradict each other, and which one the run follows', async () => {
    const p = preset('dzone2016');
    const scan = (await studyDesign(p, context(p, 'small'), () => '--url')).find((d) => d.item === 'scan length')!;
    assert.match(scan.paper, /limit 50/);
    assert.match(scan.docbench, /uniform 1–100/);
  });
});

describe('the plan: estimates, and full refused where it cannot fit', () => {
  it('counts the runs and the data of a sweep', () => {
    const c = preset('carvalho2023');
    const e = scaleEstimates(c, context(c, 'full'));
    assert.equal(e.full.runs, 8 * 3 * 3 * 3 * 3);
    assert.equal(e.full.diskBytes, 3 * 10_000_000 * (20 * 500 + 32));
    assert.ok(e.tiny.seconds < e.small.seconds && e.small.seconds < e.full.seconds);
    assert.equal(estimateSteps([]).runs, 0);
  });

  it('refuses full when the data exceeds the local disk, with the sizes and the time; not for remote servers', () => {
    const estimate = { runs: 1, loaded: 1, diskBytes: 300e9, seconds: 30 * 86_400 };
    const refused = fullVerdict(estimate, { bytes: 80e9, where: 'the cache' }, true);
    assert.match(
      refused ?? '',
      /need about 300 GB of data on disk .* the cache has 80 GB free; it would take about 30d00h/,
    );
    assert.equal(
      fullVerdict(estimate, { bytes: 80e9, where: 'the cache' }, false),
      undefined,
      'a remote server: docbench cannot see its disk',
    );
    assert.equal(fullVerdict({ ...estimate, diskBytes: 1e9 }, { bytes: 80e9, where: 'the cache' }, true), undefined);
  });

  for (const study of STUDIES) {
    it(`${study.name}: the plan names the runs, the design beside them, the published figures and every scale, in 120 columns`, async () => {
      const ctx = context(study, 'small');
      const design = await studyDesign(study, ctx, () => '--url');
      const estimates = scaleEstimates(study, ctx);
      const plan = (details: boolean) =>
        renderPlan({
          preset: study,
          context: ctx,
          steps: study.steps(ctx),
          design,
          verdicts: {
            tiny: { estimate: estimates.tiny },
            small: { estimate: estimates.small },
            full: { estimate: estimates.full },
          },
          details,
        });
      const short = plan(false);
      const long = plan(true);
      // Measured in bytes, as `awk 'length > 120'` measures a line.
      for (const text of [short, long])
        for (const line of text.split('\n')) assert.ok(Buffer.byteLength(line) <= 120, `${line.length}: ${line}`);
      const flat = (text: string) => text.replace(/\s+/g, ' ');
      assert.match(short, /nothing has run/);
      assert.match(short, /Add --details/);
      assert.ok(short.split('\n').length < 100, `${short.split('\n').length} lines`);
      for (const scale of SCALES) assert.ok(flat(short).includes(study.scales[scale]), scale);
      // Every step says the docbench command that runs it.
      for (const step of study.steps(ctx))
        assert.match(
          flat(short),
          new RegExp(`${step.name}, a (YCSB sweep|sweep of the \\w+ scenario): [^]*?docbench sweep `),
        );
      assert.match(long, /DIFFERS/);
      for (const d of design) assert.ok(flat(long).includes(flat(d.paper)), d.item);
      for (const t of study.published) assert.ok(flat(long).includes(flat(t.title)), t.title);
    });
  }
});

describe("--nodes: stores on local clusters beside the paper's node count", () => {
  it("Tang & Fan 2016 at --nodes 3: redis and cassandra on clusters of 3, fewer than the paper's 4, said so; the others one node", async () => {
    const tang = preset('tang2016');
    const clustered: StudyContext = { ...context(tang, 'small'), nodes: 3, clusterStores: ['redis', 'cassandra'] };
    const design = await studyDesign(tang, clustered, () => 'local');
    const item = (name: string) => design.find((d) => d.item === name)!;
    assert.match(item('nodes: redis').docbench, /a local cluster of 3 nodes .*fewer nodes than the paper/);
    assert.equal(item('nodes: redis').same, false);
    assert.match(item('nodes: mongodb').docbench, /one node, fewer than the paper/);
    assert.match(item('cluster').docbench, /redis and cassandra on local clusters of 3 nodes/);
    const four = await studyDesign(tang, { ...clustered, nodes: 4 }, () => 'local');
    assert.equal(four.find((d) => d.item === 'nodes: cassandra')!.same, true);
    const single = await studyDesign(tang, context(tang, 'small'), () => 'local');
    assert.match(single.find((d) => d.item === 'nodes: cassandra')!.docbench, /one node, fewer than the paper/);
    const hinted = await studyDesign(
      tang,
      { ...context(tang, 'small'), clusterable: [{ store: 'redis', minNodes: 3 }] },
      () => 'local',
    );
    assert.match(
      hinted.find((d) => d.item === 'nodes: redis')!.docbench,
      /--nodes 4 runs it on a local cluster \(of at least 3\)/,
    );
    const carvalho = preset('carvalho2023');
    assert.equal(
      (await studyDesign(carvalho, context(carvalho, 'small'), () => 'local')).filter((d) =>
        d.item.startsWith('nodes: '),
      ).length,
      0,
      'a single-node paper gets no node items',
    );
  });
});
