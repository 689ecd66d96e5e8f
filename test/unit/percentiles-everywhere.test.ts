/**
 * One percentile, one value, in every output: the same results rendered through the result JSON,
 * the YCSB text and both JSON exporters, the CSV, the Markdown comparison and mode tables, the
 * HTML runs table and the percentile charts' points, for single runs, a cell of repeated runs (the
 * union of their histograms) and a result merged from two client processes; each percentile
 * equals the one function (`valueAtPercentile`) over the row's histogram.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import hdr from 'hdr-histogram-js';
import { Measurements } from '../../src/measure/measurements.ts';
import { valueAtPercentile, type Histogram } from '../../src/measure/histogram.ts';
import { buildResult } from '../../src/results/build.ts';
import { mergeResults } from '../../src/results/merge.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { renderComparisonTable } from '../../src/report/comparison-table.ts';
import { renderCsv } from '../../src/report/csv.ts';
import { chartsOf, renderHtmlReport } from '../../src/report/html-page.ts';
import { renderModeComparison } from '../../src/report/mode-comparison.ts';
import { renderYcsbExport } from '../../src/report/ycsb-export.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { outcomeOf, recordCalls, samples, storeInfoOf, syntheticResult } from '../support/synthetic-results.ts';

const PERCENTILES = [50, 95, 99, 99.9];
const ROWS = ['READ', 'UPDATE'];

function union(runs: readonly Result[], row: string): Histogram {
  const encoded = runs.map((r) => r.operations.find((o) => o.name === row)!.histogram!);
  const into = hdr.decodeFromCompressedBase64(encoded[0]!, 32, false);
  for (const more of encoded.slice(1)) into.add(hdr.decodeFromCompressedBase64(more, 32, false));
  return into;
}

/** `[READ], 99thPercentileLatency(us), 1234` -> the value, from YCSB's text. */
function fromYcsbText(text: string, row: string, percentile: number): number {
  const name = Number.isInteger(percentile) ? `${percentile}th` : String(percentile);
  const line = text.split('\n').find((l) => l.startsWith(`[${row}], ${name}PercentileLatency(us), `));
  assert.ok(line, `no ${name} line for ${row}`);
  return Number(line.split(', ')[2]);
}

function fromJsonArray(text: string, row: string, percentile: number): number {
  const name = Number.isInteger(percentile) ? `${percentile}th` : String(percentile);
  const found = (JSON.parse(text) as { metric: string; measurement: string; value: number }[]).find(
    (o) => o.metric === row && o.measurement === `${name}PercentileLatency(us)`,
  );
  assert.ok(found);
  return found.value;
}

function csvRows(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.trimEnd().split('\n');
  const names = header!.split(',');
  // No field of these synthetic results holds a comma or a quote except the verdict (last): split the rest plainly.
  return lines.map((line) =>
    Object.fromEntries(
      line
        .split(',')
        .slice(0, names.length - 1)
        .map((v, i) => [names[i]!, v]),
    ),
  );
}

/** The cell under `column` in the Markdown table's row whose first cells match `lead`. */
function markdownCell(table: string, lead: readonly string[], column: string): string {
  const lines = table.split('\n').filter((l) => l.startsWith('|'));
  const header = lines[0]!.split('|').map((c) => c.trim());
  const row = lines
    .slice(2)
    .map((l) => l.split('|').map((c) => c.trim()))
    .find((cells) => lead.every((v, i) => cells[i + 1] === v));
  assert.ok(row, `no row ${lead.join(' ')} in\n${table}`);
  return row[header.indexOf(column)]!;
}

const toNumber = (text: string) => Number(text.replace(/,/g, ''));

describe('one percentile, one value, in every output', () => {
  // Three repetitions of one cell, and a stand-in's run.
  const repeated = [1, 2, 3].map((repetition) =>
    syntheticResult({ store: 'redis', repetition, seed: repetition, operations: 3000, latencyMs: 2 }),
  );
  const standIn = syntheticResult({
    store: 'mongodb',
    standIn: 'SecantusDB',
    seed: 9,
    operations: 2500,
    latencyMs: 5,
    workload: 'workloadb',
  });
  // One run split over two client processes, merged back.
  const properties = workloadFromText('recordcount=1000', 'workloadc');
  const context = {
    kind: 'ycsb',
    mode: 'direct' as const,
    workloadName: 'workloadc',
    properties,
    overrides: [],
    store: storeInfoOf('cassandra'),
  };
  const endedAt = new Date('2026-01-01T00:02:00Z');
  const calls = samples(5000, 3, 21);
  const halves = [calls.slice(0, 2200), calls.slice(2200)].map((part) =>
    resultSchema.parse(
      buildResult(outcomeOf(recordCalls(new Measurements(true, true), part), endedAt, 4000, part.length), context),
    ),
  );
  const merged = mergeResults(halves);
  const singles = [...repeated, standIn, merged];

  it('the result JSON, the YCSB text and both JSON exporters: each row, each percentile', () => {
    for (const r of singles) {
      const text = renderYcsbText(r);
      const array = renderYcsbExport(r, 'json-array');
      for (const row of ROWS) {
        const histogram = union([r], row);
        for (const p of PERCENTILES) {
          const want = valueAtPercentile(histogram, p);
          assert.equal(
            r.operations.find((o) => o.name === row)!.latency.percentilesUs[String(p)],
            want,
            `${r.store.name} ${row} p${p} in the JSON`,
          );
          assert.equal(fromYcsbText(text, row, p), want, `${r.store.name} ${row} p${p} in the YCSB text`);
          assert.equal(fromJsonArray(array, row, p), want, `${r.store.name} ${row} p${p} in the JSON array export`);
        }
      }
    }
  });

  it('the merged result holds the percentiles of the union of its parts', () => {
    for (const row of ROWS) {
      const histogram = union(halves, row);
      for (const p of PERCENTILES)
        assert.equal(
          merged.operations.find((o) => o.name === row)!.latency.percentilesUs[String(p)],
          valueAtPercentile(histogram, p),
          `merged ${row} p${p}`,
        );
    }
  });

  it('the CSV, the comparison table and the mode table', () => {
    const csv = csvRows(renderCsv(singles));
    const comparison = renderComparisonTable(singles);
    const modes = renderModeComparison([standIn, merged]);
    for (const r of singles) {
      for (const row of ROWS) {
        const histogram = union([r], row);
        const line = csv.find(
          (l) =>
            l.store === r.store.name &&
            l.operation === row &&
            l.started_at === r.startedAt &&
            l.repetition === String(r.workload.properties['sweep.repetition'] ?? ''),
        );
        assert.ok(line);
        for (const [column, p] of [
          ['p50_us', 50],
          ['p95_us', 95],
          ['p99_us', 99],
          ['p999_us', 99.9],
        ] as const)
          assert.equal(
            Number(line[column]),
            valueAtPercentile(histogram, p),
            `${r.store.name} ${row} ${column} in the CSV`,
          );
      }
    }
    for (const r of [standIn, merged]) {
      const store = `${r.store.name}${r.store.standIn ? ' (stand-in)' : ''}`;
      for (const row of ROWS) {
        const want = valueAtPercentile(union([r], row), 99);
        if (row === 'READ' || row === 'UPDATE')
          assert.equal(
            toNumber(markdownCell(comparison, [r.workload.name, store], `${row} p99 (us)`)),
            want,
            `${store} ${row} p99 in the comparison table`,
          );
        assert.equal(
          toNumber(markdownCell(modes, [store, r.workload.name], `${row} p99 (us)`)),
          want,
          `${store} ${row} p99 in the mode table`,
        );
      }
    }
  });

  it('the HTML runs table and the percentile charts: a cell of repeated runs shows the union of their histograms', () => {
    const html = renderHtmlReport(singles);
    const charts = chartsOf(singles);
    for (const [runs, label] of [
      [repeated, 'redis'],
      [[standIn], 'mongodb (stand-in: SecantusDB)'],
      [[merged], 'cassandra'],
    ] as const) {
      for (const row of ROWS) {
        const histogram = union(runs, row);
        for (const p of [50, 99])
          assert.ok(
            html.includes(`${row} ${valueAtPercentile(histogram, p).toLocaleString('en-US')}`),
            `${label} ${row} p${p} in the runs table`,
          );
        const chart = charts.find(
          (c) =>
            c.section === 'Latency percentiles' &&
            c.title.includes(` ${row}: `) &&
            c.datasets.some((d) => d.label.startsWith(label)),
        );
        assert.ok(chart, `a ${row} chart with ${label}`);
        const points = chart.datasets.find((d) => d.label.startsWith(label))!.data as { x: number; y: number }[];
        for (const p of PERCENTILES) {
          const point = points.find((pt) => Math.abs(100 - 100 / pt.x - p) < 1e-9);
          assert.ok(point, `${label} ${row}: the curve has a point at p${p}`);
          assert.equal(point.y, Math.max(1, valueAtPercentile(histogram, p)), `${label} ${row} p${p} on the chart`);
        }
      }
    }
  });

  it('a row without a histogram (an end-to-end k6 row) shows the value k6 gave, the same in every output', () => {
    const k6 = structuredClone(standIn);
    k6.mode = 'http';
    for (const op of k6.operations) delete op.histogram;
    const read = k6.operations.find((o) => o.name === 'READ')!;
    read.latency.percentilesUs = { '50': 1111, '95': 2222, '99': 3333, '99.9': 4444 };
    const csv = csvRows(renderCsv([k6])).find((l) => l.operation === 'READ')!;
    assert.deepEqual([csv.p50_us, csv.p95_us, csv.p99_us, csv.p999_us].map(Number), [1111, 2222, 3333, 4444]);
    assert.equal(fromYcsbText(renderYcsbText(k6), 'READ', 99), 3333);
    assert.equal(
      toNumber(markdownCell(renderModeComparison([k6]), ['mongodb (stand-in)', k6.workload.name], 'READ p99 (us)')),
      3333,
    );
    assert.ok(renderHtmlReport([k6]).includes('READ 3,333'));
  });
});
