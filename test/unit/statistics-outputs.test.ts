/**
 * Repetitions in every output: results grouped into cells (the repetition is no part of a cell),
 * a cell's figures over its repetitions written by the one formatter in the comparison table,
 * the CSV, the JSON statistics and the HTML report (its whiskers the intervals), each workload's
 * stores ranked against the fastest with ties as ties; and results of single runs rendered
 * exactly as before, with a note that one run cannot show a difference.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Result } from '../../src/results/schema.ts';
import { writeResult } from '../../src/results/write.ts';
import { summarizeCells } from '../../src/report/cell-statistics.ts';
import { renderComparisonTable } from '../../src/report/comparison-table.ts';
import { renderCsv } from '../../src/report/csv.ts';
import { cellsOf, repetitionOf, REPETITION_PROPERTY } from '../../src/report/groups.ts';
import { chartsOf, renderHtmlReport } from '../../src/report/html-page.ts';
import { latencyPercentile, percentileOverRepetitions } from '../../src/report/percentiles.ts';
import { rankCells } from '../../src/report/rankings.ts';
import { runReport } from '../../src/report/run-report.ts';
import { formatSummary, ONE_RUN_NOTE } from '../../src/stats/format.ts';
import { summarize } from '../../src/stats/summary.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-statistics-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A run of an interleaved design: round `round` of 3, its place in the round's order. */
function inRound(r: Result, round: number, order: string[]): Result {
  const { [REPETITION_PROPERTY]: _, ...properties } = r.workload.properties;
  return {
    ...r,
    workload: { ...r.workload, properties },
    repetition: { round, rounds: 3, position: order.indexOf(r.store.name) + 1, order, seed: 42 },
  };
}

/**
 * Three stores, three rounds: redis and the MongoDB stand-in alike (an A/A pair), cassandra at
 * half their throughput. 2,000 operations over a runtime that varies a few percent by round.
 */
function design(): Result[] {
  const runtimes = [3000, 3090, 2940];
  const out: Result[] = [];
  for (const round of [1, 2, 3]) {
    const order = round === 2 ? ['cassandra', 'mongodb', 'redis'] : ['redis', 'mongodb', 'cassandra'];
    const ms = runtimes[round - 1]!;
    out.push(inRound(syntheticResult({ store: 'redis', seed: round, runtimeMs: ms }), round, order));
    out.push(
      inRound(
        syntheticResult({
          store: 'mongodb',
          standIn: 'SecantusDB',
          seed: 10 + round,
          runtimeMs: runtimes[(round + 1) % 3]!,
        }),
        round,
        order,
      ),
    );
    out.push(inRound(syntheticResult({ store: 'cassandra', seed: 20 + round, runtimeMs: 2 * ms }), round, order));
  }
  return out;
}

/** The Markdown table's row whose first cells are `lead`, as cells. */
function rowOf(table: string, lead: readonly string[]): string[] {
  const row = table
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .split('|')
        .map((c) => c.trim())
        .slice(1, -1),
    )
    .find((cells) => lead.every((v, i) => cells[i] === v));
  assert.ok(row, `no row ${lead.join(' ')} in\n${table}`);
  return row;
}

describe('cells and repetitions', () => {
  it("a cell is everything but the repetition: the round (or a sweep's repetition) groups runs, a target rate separates them", () => {
    const results = design();
    assert.deepEqual(results.map(repetitionOf), [1, 1, 1, 2, 2, 2, 3, 3, 3]);
    const cells = cellsOf(results);
    assert.deepEqual(
      cells.map((c) => [c.series, c.runs.length]),
      [
        ['redis', 3],
        ['mongodb (stand-in: SecantusDB)', 3],
        ['cassandra', 3],
      ],
    );
    // Results written before rounds: the sweep's property.
    const swept = syntheticResult({ store: 'redis', repetition: 2 });
    assert.equal(repetitionOf(swept), 2);
    // Held to a target rate, the same store and workload is another cell.
    const capped = syntheticResult({ store: 'redis' });
    capped.workload.properties.target = 500;
    assert.equal(cellsOf([...results, capped]).length, 4);
    assert.equal(cellsOf([capped])[0]!.target, 500);
  });
});

describe('the comparison table', () => {
  it('single runs: exactly the table of before, and the note that one run cannot show a difference', () => {
    const results = [
      syntheticResult({ store: 'redis', seed: 1, runtimeMs: 3000 }),
      syntheticResult({ store: 'mongodb', standIn: 'SecantusDB', seed: 2, runtimeMs: 4000, latencyMs: 4 }),
      syntheticResult({ store: 'redis', workload: 'workloadc', seed: 3, runtimeMs: 2500 }),
    ];
    // Rendered by the comparison table before repetitions existed (these results are deterministic).
    const before = [
      '| workload  | store              | ops/s | READ p99 (us) | UPDATE p99 (us) | INSERT p99 (us) | SCAN p99 (us) | RMW p99 (us) | not OK | CPU steal |',
      '| --------- | ------------------ | ----: | ------------: | --------------: | --------------: | ------------: | -----------: | -----: | --------: |',
      '| workloada | redis              | 1,333 |        58,911 |          59,903 |                 |               |              |      0 |        1% |',
      '| workloada | mongodb (stand-in) | 1,000 |       120,255 |         117,887 |                 |               |              |      0 |        1% |',
      '| workloadc | redis              | 1,600 |        58,239 |          60,703 |                 |               |              |      0 |        1% |',
      '',
      'mongodb: figures come from a STAND-IN, SecantusDB, not the real product. SecantusDB is not mongodb',
    ].join('\n');
    assert.equal(renderComparisonTable(results), `${before}\n\n${ONE_RUN_NOTE}\n`);
  });

  it('repeated cells: median [95% CI] (n, CoV) from the one formatter; the halved store ranks below an A/A tie', () => {
    const results = design();
    const table = renderComparisonTable(results);
    const redisRuns = results.filter((r) => r.store.name === 'redis');
    const throughput = summarize(redisRuns.map((r) => r.overall.throughputOpsPerSec));
    assert.equal(rowOf(table, ['workloada', 'redis'])[2], formatSummary(throughput));
    assert.match(formatSummary(throughput), /^[\d,]+ \[[\d,]+, [\d,]+\] \(n=3, CoV \d+\.\d%\)$/);
    // Each repetition's p99 from its own histogram, median and interval.
    assert.equal(
      rowOf(table, ['workloada', 'redis'])[3],
      formatSummary(percentileOverRepetitions(redisRuns, 'READ', 99), { brief: true }),
    );
    assert.doesNotMatch(table, /One run per cell/);
    // The ranking: redis and the stand-in tie for 1, cassandra is slower at about half.
    const redis = rowOf(table, ['workloada', '1 (tie)', 'redis']);
    const standIn = rowOf(table, ['workloada', '1 (tie)', 'mongodb (stand-in: SecantusDB)']);
    const cassandra = rowOf(table, ['workloada', '2', 'cassandra']);
    assert.equal(redis[5]!.startsWith('highest median') || standIn[5]!.startsWith('highest median'), true);
    assert.match([redis[5], standIn[5]].join(' '), /no difference this run can show/);
    assert.match(cassandra[4]!, /^0\.5\d× \[0\.\d\d, 0\.\d\d\]$/);
    assert.equal(cassandra[5], 'slower');
  });

  it('a store with one run among repeated ones: cannot tell, and it ties rather than ranks', () => {
    const results = [
      ...design().filter((r) => r.store.name === 'redis'),
      syntheticResult({ store: 'cassandra', seed: 5, runtimeMs: 6000 }),
    ];
    const [ranking] = rankCells(summarizeCells(results));
    const cassandra = ranking!.cells.find((c) => c.cell.series === 'cassandra')!;
    assert.equal(cassandra.vsFastest.verdict, 'cannot tell');
    assert.equal(cassandra.rank, 1);
    assert.equal(cassandra.tied, true);
    assert.match(renderComparisonTable(results), /cannot tell: one run cannot show a difference/);
  });
});

describe('CSV, JSON and the HTML report', () => {
  it("CSV: single runs keep their columns; repeated cells add the cell's figures to each of its lines", () => {
    const single = renderCsv([syntheticResult({ store: 'redis' })]).split('\n')[0]!;
    assert.doesNotMatch(single, /cell_/);
    assert.match(single, /,verdict$/);
    const results = design();
    const [header, ...lines] = renderCsv(results).trimEnd().split('\n');
    const names = header!.split(',');
    const line = lines.find((l) => l.startsWith('run,ycsb,workloada,cassandra,') && l.includes(',READ,'))!;
    const fields = Object.fromEntries(line.split(',').map((v, i) => [names[i]!, v]));
    const cassandra = summarize(
      results.filter((r) => r.store.name === 'cassandra').map((r) => r.overall.throughputOpsPerSec),
    );
    assert.equal(Number(fields.cell_runs), 3);
    assert.equal(Number(fields.cell_throughput_median), Math.round(cassandra.median * 1000) / 1000);
    assert.equal(Number(fields.cell_throughput_ci_low), Math.round(cassandra.interval!.low * 1000) / 1000);
    assert.equal(Number(fields.cell_throughput_ci_high), Math.round(cassandra.interval!.high * 1000) / 1000);
    assert.ok(Number(fields.cell_p99_ci_low_us) <= Number(fields.cell_p99_median_us));
  });

  it("JSON: each cell's figures over repetitions beside the pooled histogram's percentiles, and the rankings", () => {
    const results = design();
    const folder = join(dir, 'json');
    results.forEach((r, i) => writeResult(join(folder, `r${i}.json`), r));
    const out = join(dir, 'statistics.json');
    runReport([folder], { json: out });
    const doc = JSON.parse(readFileSync(out, 'utf8')) as {
      statistics: {
        cells: {
          series: string;
          throughput: { overRepetitions: { n: number; median: number; interval: { method: string } } };
          latency: { figure: string; pooledUs: number; overRepetitions: { values: number[] } }[];
        }[];
        rankings: { stores: { series: string; rank: number; vsFastest: { verdict: string } }[] }[];
      };
    };
    const redis = doc.statistics.cells.find((c) => c.series === 'redis')!;
    assert.equal(redis.throughput.overRepetitions.n, 3);
    assert.equal(redis.throughput.overRepetitions.interval.method, 'log-t');
    const p99 = redis.latency.find((f) => f.figure === 'READ p99')!;
    const runs = results.filter((r) => r.store.name === 'redis');
    assert.equal(p99.pooledUs, latencyPercentile(runs, 'READ', 99));
    assert.deepEqual(
      p99.overRepetitions.values,
      runs.map((r) => latencyPercentile([r], 'READ', 99)),
    );
    const cassandra = doc.statistics.rankings[0]!.stores.find((s) => s.series === 'cassandra')!;
    assert.deepEqual([cassandra.rank, cassandra.vsFastest.verdict], [2, 'slower']);
  });

  it('HTML: whiskers are the 95% intervals on bars and on every percentile point; the verdicts get their section', () => {
    const results = design();
    const charts = chartsOf(results);
    const throughput = charts.find((c) => c.section === 'Throughput')!;
    assert.match(throughput.title, /whiskers its 95% confidence interval/);
    const redisBars = throughput.datasets.find((d) => d.label === 'redis')!;
    const interval = summarize(
      results.filter((r) => r.store.name === 'redis').map((r) => r.overall.throughputOpsPerSec),
    ).interval!;
    assert.deepEqual(redisBars.ranges, [[Math.round(interval.low * 10) / 10, Math.round(interval.high * 10) / 10]]);
    const curve = charts.find((c) => c.section === 'Latency percentiles' && c.title.includes(' READ: '))!;
    const redisCurve = curve.datasets.find((d) => d.label.startsWith('redis'))!;
    const points = redisCurve.data as { x: number; y: number }[];
    assert.equal(redisCurve.ranges!.length, points.length);
    assert.ok(redisCurve.ranges!.every((r) => r !== null && r[0] <= r[1]));
    const at99 = points.findIndex((p) => Math.abs(100 - 100 / p.x - 99) < 1e-9);
    const p99 = percentileOverRepetitions(
      results.filter((r) => r.store.name === 'redis'),
      'READ',
      99,
    ).interval!;
    assert.deepEqual(redisCurve.ranges![at99], [Math.round(p99.low), Math.round(p99.high)]);
    const html = renderHtmlReport(results);
    assert.match(html, /<h2>Is the difference real\?<\/h2>/);
    assert.match(html, /ops\/s median \[95% CI\] \(n, CoV\)/);
    // Single runs: no verdict section, the note instead.
    const single = renderHtmlReport([syntheticResult({ store: 'redis' })]);
    assert.doesNotMatch(single, /Is the difference real/);
    assert.ok(single.includes('One run per cell'));
  });
});
