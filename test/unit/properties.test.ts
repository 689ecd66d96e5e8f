import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsePropertiesText, resolveProperties, workloadFromText, WorkloadError } from '../../src/workload/properties.ts';
import { FIXTURE_WORKLOADS_DIR, loadWorkload } from '../../src/workload/workload-file.ts';

describe('workload properties', () => {
  it('applies YCSB 0.17.0 defaults', () => {
    const p = workloadFromText('', 'empty');
    assert.equal(p.table, 'usertable');
    assert.equal(p.fieldcount, 10);
    assert.equal(p.fieldlength, 100);
    assert.equal(p.readproportion, 0.95);
    assert.equal(p.updateproportion, 0.05);
    assert.equal(p.requestdistribution, 'uniform');
    assert.equal(p.insertorder, 'hashed');
    assert.equal(p.maxscanlength, 1000);
    assert.equal(p.hotspotdatafraction, 0.2);
    assert.equal(p.hotspotopnfraction, 0.8);
    assert.equal(p['exponential.percentile'], 95);
    assert.equal(p['exponential.frac'], 0.8571428571);
    assert.equal(p.readallfields, true);
    assert.equal(p.writeallfields, false);
    assert.equal(p.threadcount, 1);
    assert.equal(p['status.interval'], 10);
  });

  it('reads a YCSB file unchanged, with comments, separators, continuations and the workload class', () => {
    const text = [
      '# comment',
      '! also a comment',
      'workload=site.ycsb.workloads.CoreWorkload',
      'recordcount = 5000',
      'operationcount: 20',
      'readproportion 0.5',
      'updateproportion=0.\\',
      '  5',
      'requestdistribution=zipfian',
      'mongodb.url=mongodb://localhost:27017/ycsb?w=1',
    ].join('\n');
    const p = workloadFromText(text, 'file');
    assert.equal(p.recordcount, 5000);
    assert.equal(p.operationcount, 20);
    assert.equal(p.readproportion, 0.5);
    assert.equal(p.updateproportion, 0.5);
    assert.equal(p.insertcount, 5000);
    assert.equal(p.passthrough['mongodb.url'], 'mongodb://localhost:27017/ycsb?w=1');
    assert.equal(p.passthrough.workload, 'site.ycsb.workloads.CoreWorkload');
  });

  it('applies -p overrides after the file, in order', () => {
    const p = workloadFromText('recordcount=10\nreadproportion=1\nupdateproportion=0', 'f', ['recordcount=20', 'recordcount=30']);
    assert.equal(p.recordcount, 30);
  });

  it('rejects an unknown property, naming it and suggesting the nearest', () => {
    assert.throws(() => workloadFromText('readproportoin=0.5', 'wl'), (e: unknown) => {
      assert.ok(e instanceof WorkloadError);
      assert.match(e.message, /wl:1: unknown property "readproportoin" \(did you mean "readproportion"\?\)/);
      return true;
    });
  });

  it('rejects a wrong type, naming the key, the value and what was expected', () => {
    assert.throws(() => workloadFromText('recordcount=lots', 'wl'), /wl:1: property "recordcount" = "lots" is invalid/);
    assert.throws(() => workloadFromText('requestdistribution=gaussian', 'wl'), /expected one of uniform, zipfian, latest, hotspot, exponential, sequential/);
    assert.throws(() => workloadFromText('readallfields=yes', 'wl'), /property "readallfields"/);
    assert.throws(() => workloadFromText('threadcount=0', 'wl'), /expected a value >= 1/);
  });

  it('rejects proportions that do not sum to 1', () => {
    assert.throws(() => workloadFromText('readproportion=0.5\nupdateproportion=0.2', 'wl'), /operation proportions sum to 0.7, expected 1/);
  });

  it('rejects inconsistent ranges', () => {
    assert.throws(() => workloadFromText('minscanlength=10\nmaxscanlength=5', 'wl'), /minscanlength \(10\) exceeds maxscanlength \(5\)/);
    assert.throws(() => workloadFromText('dataintegrity=true\nfieldlengthdistribution=uniform', 'wl'), /requires fieldlengthdistribution=constant/);
    assert.throws(() => workloadFromText('recordcount=10\ninsertstart=5\ninsertcount=10', 'wl'), /exceeds recordcount/);
  });

  it('rejects a malformed -p override', () => {
    assert.throws(() => workloadFromText('', 'wl', ['recordcount']), /-p recordcount: expected key=value/);
  });

  it('parses unicode escapes and keeps the origin of each key', () => {
    const raw = parsePropertiesText('table=user\\u0074able', 'x');
    assert.equal(raw.values.get('table'), 'usertable');
    assert.equal(raw.origin.get('table'), 'x:1');
    assert.equal(resolveProperties(raw).table, 'usertable');
  });
});

describe('shipped workload files', () => {
  const expected: Record<string, Partial<Record<string, number | string>>> = {
    workloada: { readproportion: 0.5, updateproportion: 0.5, requestdistribution: 'zipfian' },
    workloadb: { readproportion: 0.95, updateproportion: 0.05, requestdistribution: 'zipfian' },
    workloadc: { readproportion: 1, requestdistribution: 'zipfian' },
    workloadd: { readproportion: 0.95, insertproportion: 0.05, requestdistribution: 'latest' },
    workloade: { scanproportion: 0.95, insertproportion: 0.05, requestdistribution: 'zipfian', maxscanlength: 100, scanlengthdistribution: 'uniform' },
    workloadf: { readproportion: 0.5, readmodifywriteproportion: 0.5, requestdistribution: 'zipfian' },
    workloadg: { readproportion: 0.05, updateproportion: 0.95, requestdistribution: 'zipfian' },
    workloadh: { readproportion: 0, updateproportion: 1, requestdistribution: 'zipfian' },
  };

  it('ships A–H and nothing unparseable', () => {
    const files = readdirSync(FIXTURE_WORKLOADS_DIR).filter((f) => f.startsWith('workload'));
    assert.deepEqual(files.sort(), Object.keys(expected));
  });

  for (const [name, settings] of Object.entries(expected)) {
    it(`${name} has YCSB's (or seed 000's) mix`, () => {
      const { properties } = loadWorkload([name], []);
      assert.equal(properties.recordcount, 1000);
      assert.equal(properties.operationcount, 1000);
      for (const [key, value] of Object.entries(settings)) assert.equal((properties as unknown as Record<string, unknown>)[key], value, key);
    });
  }

  it('combines a workload with a record-shape preset', () => {
    const tenKb = loadWorkload(['workloada', 'record-10kb'], []);
    assert.equal(tenKb.properties.fieldcount, 20);
    assert.equal(tenKb.properties.fieldlength, 500);
    assert.equal(tenKb.name, 'workloada');
    const oneKb = loadWorkload(['workloadh', join(FIXTURE_WORKLOADS_DIR, 'presets', 'record-1kb')], []);
    assert.equal(oneKb.properties.fieldcount * oneKb.properties.fieldlength, 1000);
  });

  it('names a missing workload file', () => {
    assert.throws(() => loadWorkload(['workloadz'], []), /workload file workloadz not found/);
  });
});
