import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { exportMeasurements, renderYcsbExport } from '../../src/report/ycsb-export.ts';
import { renderYcsbText } from '../../src/report/ycsb-text.ts';
import { workloadFromText } from '../../src/workload/properties.ts';

/** A small run result: one READ row with its Intended- twin, a stand-in store, one note. */
const result: Result = resultSchema.parse({
  schemaVersion: 1,
  kind: 'ycsb',
  mode: 'direct',
  phase: 'run',
  workload: { name: 'workloadc', properties: { recordcount: 10 }, overrides: [] },
  store: {
    name: 'couchdb',
    url: 'http://127.0.0.1:15984',
    server: 'pouchdb-server',
    serverVersion: '4.2.0',
    driver: 'nano 11',
    standIn: { name: 'pouchdb-server', version: '4.2.0', note: 'CouchDB HTTP API on PouchDB' },
    localTarget: true,
  },
  machine: {
    cpus: 2,
    cpuModel: 'x',
    memoryBytes: 1e9,
    platform: 'linux',
    release: '6',
    arch: 'x64',
    node: 'v20',
    docbench: '0.1.0',
  },
  startedAt: '2025-01-01T00:00:00.000Z',
  endedAt: '2025-01-01T00:00:01.000Z',
  overall: { runtimeMs: 1000, throughputOpsPerSec: 1234.5, operations: 1234 },
  warmup: { seconds: 0, operations: 0 },
  clientCpu: { userMs: 100, systemMs: 20, usPerOp: 97.2 },
  returns: { OK: 1234 },
  operations: [
    {
      name: 'READ',
      latency: {
        operations: 1234,
        averageUs: 812.25,
        minUs: 301,
        maxUs: 9001,
        percentilesUs: { '95': 1500, '99': 2100, '99.9': 5000 },
      },
      returns: { OK: 1234 },
    },
    {
      name: 'Intended-READ',
      latency: {
        operations: 1234,
        averageUs: 900,
        minUs: 310,
        maxUs: 9100,
        percentilesUs: { '95': 1600, '99': 2200, '99.9': 5100 },
      },
    },
  ],
  timeSeries: [],
  notes: ['a note'],
});

/** YCSB's rows of the text export, as (metric, measurement, value) triples. */
function textRows(text: string): [string, string, number][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('['))
    .map((line) => {
      const match = /^\[([^\]]+)\], ([^,]+), (.+)$/.exec(line);
      assert.ok(match, `not a YCSB text row: ${line}`);
      return [match[1]!, match[2]!, Number(match[3])];
    });
}

/** YCSB 0.17.0's JSONMeasurementsExporter output: pretty objects one after another, separated by a space. */
function parseObjectStream(text: string): unknown[] {
  assert.ok(!text.trimStart().startsWith('['), 'JSONMeasurementsExporter writes no enclosing array');
  return JSON.parse(`[${text.replace(/\n\} \{\n/g, '\n}, {\n')}]`) as unknown[];
}

describe('YCSB exporters', () => {
  const work = mkdtempSync(join(tmpdir(), 'docbench-export-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('TextMeasurementsExporter: `[metric], measurement, value` lines, as YCSB writes them', () => {
    const text = renderYcsbExport(result, 'text');
    assert.equal(text, renderYcsbText(result));
    assert.match(text, /^# STAND-IN: pouchdb-server 4\.2\.0, not the real product/m);
    assert.match(text, /^\[OVERALL\], RunTime\(ms\), 1000$/m);
    assert.match(text, /^\[OVERALL\], Throughput\(ops\/sec\), 1234\.5$/m);
    assert.match(text, /^\[READ\], 95thPercentileLatency\(us\), 1500$/m);
    assert.match(text, /^\[READ\], 99\.9PercentileLatency\(us\), 5000$/m);
    assert.match(text, /^\[READ\], Return=OK, 1234$/m);
    assert.match(text, /^\[Intended-READ\], Operations, 1234$/m);
  });

  it('JSONArrayMeasurementsExporter: one JSON array of {metric, measurement, value}, laid out as Jackson does', () => {
    const text = renderYcsbExport(result, 'json-array');
    assert.ok(
      text.startsWith(
        '[ {\n  "metric" : "DOCBENCH",\n  "measurement" : "Run",\n  "value" : "docbench 0.1.0 run workloadc on couchdb',
      ),
      text.slice(0, 120),
    );
    assert.ok(text.endsWith('\n} ]'));
    assert.match(text, /\n\}, \{\n  "metric" : "OVERALL",\n  "measurement" : "RunTime\(ms\)",\n  "value" : 1000\n\}/);
    const objects = JSON.parse(text) as { metric: string; measurement: string; value: unknown }[];
    for (const object of objects) assert.deepEqual(Object.keys(object), ['metric', 'measurement', 'value']);
    // Every figure is a number, and they are exactly the text export's rows.
    const figures = objects.filter((o) => o.metric !== 'DOCBENCH');
    assert.ok(figures.every((o) => typeof o.value === 'number'));
    assert.deepEqual(
      figures.map((o) => [o.metric, o.measurement, o.value]),
      textRows(renderYcsbText(result)),
    );
    // The stand-in statement travels with the figures.
    assert.ok(
      objects.some((o) => o.metric === 'DOCBENCH' && String(o.value).startsWith('STAND-IN: pouchdb-server 4.2.0')),
    );
  });

  it('JSONMeasurementsExporter: the same objects, one after another, as YCSB 0.17.0 writes them', () => {
    const text = renderYcsbExport(result, 'json');
    assert.deepEqual(parseObjectStream(text), JSON.parse(renderYcsbExport(result, 'json-array')));
    assert.match(
      text,
      /\n\} \{\n  "metric" : "OVERALL",\n  "measurement" : "Throughput\(ops\/sec\)",\n  "value" : 1234\.5\n\}/,
    );
  });

  it('exportfile: the export goes to the file, atomically, and nothing to stdout', () => {
    const file = join(work, 'sub', 'export.json');
    const printed: string[] = [];
    const properties = workloadFromText('', 'test', [
      `exportfile=${file}`,
      'exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter',
    ]);
    assert.equal(
      exportMeasurements(result, properties, (text) => printed.push(text)),
      file,
    );
    assert.deepEqual(printed, []);
    const written = readFileSync(file, 'utf8');
    assert.ok(written.endsWith('\n'));
    assert.equal(
      (JSON.parse(written) as unknown[]).length,
      (JSON.parse(renderYcsbExport(result, 'json-array')) as unknown[]).length,
    );
  });

  it("without exportfile, the export goes to stdout in the exporter's format (text by default)", () => {
    const printed: string[] = [];
    assert.equal(
      exportMeasurements(result, workloadFromText('', 'test'), (text) => printed.push(text)),
      undefined,
    );
    assert.deepEqual(printed, [renderYcsbText(result)]);
    printed.length = 0;
    exportMeasurements(result, workloadFromText('exporter=JSONMeasurementsExporter', 'test'), (text) =>
      printed.push(text),
    );
    assert.equal(printed.length, 1);
    assert.equal(parseObjectStream(printed[0]!).length, textRows(renderYcsbText(result)).length + 4);
  });
});
