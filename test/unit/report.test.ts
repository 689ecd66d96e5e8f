/**
 * `docbench report`: loading results from files and folders, the HTML page's content (every
 * chart names what ran, where, the versions and the stand-ins; the chart library is inlined),
 * CSV and Markdown, and `--merge` of one run split over two client processes giving the
 * histogram of the whole run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import hdr from 'hdr-histogram-js';
import { Measurements } from '../../src/measure/measurements.ts';
import { buildResult } from '../../src/results/build.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { writeResult } from '../../src/results/write.ts';
import { chartsOf, renderHtmlReport } from '../../src/report/html-page.ts';
import { curvePercentiles, percentileCurve } from '../../src/report/percentile-curve.ts';
import { spreadOf } from '../../src/report/groups.ts';
import { runReport } from '../../src/report/run-report.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { outcomeOf, recordCalls, samples, storeInfoOf, syntheticResult } from '../support/synthetic-results.ts';
import { renderComparisonTable } from '../../src/report/comparison-table.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function decode(encoded: string) {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

describe('report --merge', () => {
  it('merges one run split over two client processes into the histogram of the whole run', () => {
    const properties = workloadFromText('recordcount=1000', 'workloada');
    const context = {
      kind: 'ycsb',
      mode: 'direct' as const,
      workloadName: 'workloada',
      properties,
      overrides: [],
      store: storeInfoOf('redis'),
    };
    const endedAt = new Date('2026-01-01T00:01:00Z');
    // One run's calls, split between two client processes (2,500 and 3,500 calls).
    const calls = samples(6000, 3, 11);
    const whole = recordCalls(new Measurements(true, true), calls);
    const firstRows = buildResult(
      outcomeOf(recordCalls(new Measurements(true, true), calls.slice(0, 2500)), endedAt, 4000, 2500),
      context,
    );
    const rest = buildResult(
      outcomeOf(recordCalls(new Measurements(true, true), calls.slice(2500)), endedAt, 4000, 3500),
      context,
    );
    const paths = [join(dir, 'client-1.json'), join(dir, 'client-2.json')];
    writeResult(paths[0]!, firstRows);
    writeResult(paths[1]!, rest);
    const out = join(dir, 'merged.json');
    const { results } = runReport(paths, { merge: out, html: join(dir, 'merged.html') });
    const merged = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    assert.equal(results.length, 1);
    const expected = buildResult(outcomeOf(whole, endedAt, 4000, 6000), context);
    for (const name of ['READ', 'UPDATE']) {
      const got = merged.operations.find((o) => o.name === name)!;
      const want = expected.operations.find((o) => o.name === name)!;
      assert.equal(got.latency.operations, want.latency.operations, `${name}: count of the whole`);
      assert.deepEqual(got.latency.percentilesUs, want.latency.percentilesUs, `${name}: percentiles of the whole`);
      const a = decode(got.histogram!);
      const b = decode(want.histogram!);
      for (const p of curvePercentiles(a.totalCount))
        assert.equal(a.getValueAtPercentile(p), b.getValueAtPercentile(p), `${name} p${p}`);
      a.destroy();
      b.destroy();
    }
    assert.equal(
      merged.overall.throughputOpsPerSec,
      firstRows.overall.throughputOpsPerSec + rest.overall.throughputOpsPerSec,
    );
    assert.ok(merged.notes.some((n) => n.startsWith('merged from 2 results')));
  });

  it('refuses to merge results of different workloads, naming both', () => {
    const a = syntheticResult({ store: 'redis', workload: 'workloada' });
    const b = syntheticResult({ store: 'redis', workload: 'workloadc' });
    const paths = [join(dir, 'm-a.json'), join(dir, 'm-c.json')];
    writeResult(paths[0]!, a);
    writeResult(paths[1]!, b);
    assert.throws(
      () => runReport(paths, { merge: join(dir, 'never.json') }),
      /cannot merge results of different runs: workload workloada and workloadc/,
    );
  });
});

describe('report', () => {
  const results: Result[] = [];
  for (const threads of [1, 4]) {
    for (const repetition of [1, 2, 3]) {
      results.push(syntheticResult({ store: 'redis', threads, repetition, seed: repetition, latencyMs: 0.5 }));
      results.push(
        syntheticResult({
          store: 'mongodb',
          standIn: 'SecantusDB',
          threads,
          repetition,
          seed: 10 + repetition,
          latencyMs: 5,
        }),
      );
    }
  }

  it('draws throughput, thread scaling, percentile curves, time series and cost charts, each with a caption of its own and the stand-ins in its legend', () => {
    const charts = chartsOf(results);
    const sections = new Set(charts.map((c) => c.section));
    for (const s of ['Throughput', 'Scaling', 'Latency percentiles', 'Throughput over time', 'Cost'])
      assert.ok(sections.has(s), `section ${s}`);
    for (const chart of charts) {
      // One short line: what ran, on which stores, which run; the machine and versions are the page's.
      assert.equal(chart.subtitle.length, 1, `${chart.title}: one caption line`);
      assert.match(
        chart.subtitle[0]!,
        /workloada on .*redis.* · .*run/,
        `${chart.title}: what, which stores, which run`,
      );
      assert.doesNotMatch(
        chart.subtitle[0]!,
        /versions: |where: /,
        `${chart.title}: the machine and versions are said once, at the top`,
      );
      for (const d of chart.datasets) if (d.label.startsWith('mongodb')) assert.match(d.label, /stand-in: SecantusDB/);
    }
    const throughput = charts.find((c) => c.section === 'Throughput')!;
    assert.ok(
      throughput.datasets.every((d) => d.ranges !== undefined),
      'repetitions draw min–max whiskers',
    );
    const scaling = charts.find((c) => c.section === 'Scaling')!;
    assert.deepEqual(
      (scaling.datasets[0]!.data as { x: number }[]).map((p) => p.x),
      [1, 4],
    );
  });

  it('writes one self-contained page: Chart.js inlined, no external script, stand-ins called out', () => {
    const html = renderHtmlReport(results);
    assert.match(html, /Chart\.js v4/);
    assert.doesNotMatch(html, /<script[^>]+src=/);
    assert.doesNotMatch(html, /https?:\/\/cdn/);
    assert.match(html, /<dt class="standin">Stand-ins<\/dt><dd class="standin">mongodb = SecantusDB 0\.1/);
    // The machine and the versions once, at the top, not under every chart.
    assert.equal((html.match(/<dt>Machine<\/dt>/g) ?? []).length, 1);
    assert.match(html, /<dt>Versions<\/dt><dd>[^<]*redis-driver 1\.0/);
    assert.equal((html.match(/<canvas /g) ?? []).length, chartsOf(results).length);
  });

  it('draws percentile curves from the histograms of all repetitions together', () => {
    const runs = results.filter((r) => r.store.name === 'redis' && r.workload.properties.threadcount === 1);
    const curve = percentileCurve(runs, 'READ')!;
    const total = runs.reduce((n, r) => n + r.operations.find((o) => o.name === 'READ')!.latency.operations, 0);
    // HdrHistogram's walk of the tail, and the percentiles the tables show, so a tooltip at 99% is the tables' p99.
    assert.deepEqual(
      curve.map((p) => p.percentile),
      [...new Set([...curvePercentiles(total), 50, 95, 99, 99.9])].sort((a, b) => a - b),
    );
    for (let i = 1; i < curve.length; i++)
      assert.ok(curve[i]!.latencyUs >= curve[i - 1]!.latencyUs, 'a percentile curve never falls');
  });

  it('keeps median and min–max of repetitions', () => {
    assert.deepEqual(spreadOf([3, 1, 2]), { median: 2, mean: 2, min: 1, max: 3, n: 3 });
    assert.deepEqual(spreadOf([4, 1, 2, 3]), { median: 2.5, mean: 2.5, min: 1, max: 4, n: 4 });
  });

  it('reads folders (skipping JSON that is not a result), and writes CSV and Markdown', () => {
    const folder = join(dir, 'folder');
    results.slice(0, 4).forEach((r, i) => writeResult(join(folder, 'nested', `r${i}.json`), r));
    writeFileSync(join(folder, 'sweep-state.json'), '{"done": []}');
    const csv = join(dir, 'out.csv');
    const md = join(dir, 'out.md');
    const { results: read, written } = runReport([folder], { csv, md });
    assert.equal(read.length, 4);
    assert.deepEqual(written, [csv, md]);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    assert.equal(lines.length, 1 + read.reduce((n, r) => n + r.operations.length, 0));
    assert.match(lines[0]!, /^phase,kind,workload,store,stand_in/);
    assert.match(readFileSync(md, 'utf8'), /mongodb \(stand-in\)/);
  });

  it('names a file that is not a result, and a path that does not exist', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"schemaVersion": 1}');
    assertUserError(runDocbench(['report', bad]), /bad\.json: not a docbench result file \(kind: /);
    assertUserError(runDocbench(['report', join(dir, 'missing')]), /missing: no such file or folder/);
  });
});

describe('the comparison table', () => {
  it('marks a partial run in its row and says why under the table; stand-ins are named', () => {
    const whole = syntheticResult({ store: 'redis', workload: 'workloada' });
    const cut: Result = {
      ...syntheticResult({ store: 'mongodb', standIn: 'SecantusDB', workload: 'workloada' }),
      partial: { reason: 'SIGINT', detail: 'interrupted after 5.0 s' },
    };
    const table = renderComparisonTable([whole, cut]);
    assert.match(table, /^\| workloada +\| redis /m);
    assert.match(table, /^\| workloada \(partial\) \| mongodb \(stand-in\) /m);
    assert.match(table, /^workloada on mongodb is PARTIAL \(SIGINT\): interrupted after 5\.0 s$/m);
    assert.match(table, /^mongodb: figures come from a STAND-IN, SecantusDB/m);
  });
});
