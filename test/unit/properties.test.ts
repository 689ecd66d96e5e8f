import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  checkDbProperty,
  loadBatchingNote,
  parsePropertiesText,
  resolveProperties,
  workloadFromText,
  WorkloadError,
} from '../../src/workload/properties.ts';
import { FIXTURE_WORKLOADS_DIR, loadWorkload } from '../../src/workload/workload-file.ts';
import { STORE_NAMES } from '../../src/stores/stores.ts';

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
    assert.equal(p.workload, 'site.ycsb.workloads.CoreWorkload');
  });

  it('applies -p overrides after the file, in order', () => {
    const p = workloadFromText('recordcount=10\nreadproportion=1\nupdateproportion=0', 'f', [
      'recordcount=20',
      'recordcount=30',
    ]);
    assert.equal(p.recordcount, 30);
  });

  it('rejects an unknown property, naming it and suggesting the nearest', () => {
    assert.throws(
      () => workloadFromText('readproportoin=0.5', 'wl'),
      (e: unknown) => {
        assert.ok(e instanceof WorkloadError);
        assert.match(e.message, /wl:1: unknown property "readproportoin" \(did you mean "readproportion"\?\)/);
        return true;
      },
    );
  });

  it('rejects a wrong type, naming the key, the value and what was expected', () => {
    assert.throws(() => workloadFromText('recordcount=lots', 'wl'), /wl:1: property "recordcount" = "lots" is invalid/);
    assert.throws(
      () => workloadFromText('requestdistribution=gaussian', 'wl'),
      /expected one of uniform, zipfian, latest, hotspot, exponential, sequential/,
    );
    assert.throws(() => workloadFromText('readallfields=yes', 'wl'), /property "readallfields"/);
    assert.throws(() => workloadFromText('threadcount=0', 'wl'), /expected a value >= 1/);
  });

  it('rejects proportions that do not sum to 1', () => {
    assert.throws(
      () => workloadFromText('readproportion=0.5\nupdateproportion=0.2', 'wl'),
      /operation proportions sum to 0.7, expected 1/,
    );
  });

  it('rejects inconsistent ranges', () => {
    assert.throws(
      () => workloadFromText('minscanlength=10\nmaxscanlength=5', 'wl'),
      /minscanlength \(10\) exceeds maxscanlength \(5\)/,
    );
    assert.throws(
      () => workloadFromText('dataintegrity=true\nfieldlengthdistribution=uniform', 'wl'),
      /requires fieldlengthdistribution=constant/,
    );
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

describe("YCSB's Client and measurement keys: implemented, or refused with what to use instead", () => {
  /** The one-line error a workload text gets, checked to be a WorkloadError naming the key. */
  const refusal = (text: string, key: string) => {
    try {
      workloadFromText(text, 'wl');
    } catch (error) {
      assert.ok(error instanceof WorkloadError, String(error));
      assert.ok(!error.message.includes('\n'), error.message);
      assert.ok(error.message.startsWith(`wl:1: property "${key}"`), error.message);
      return error.message;
    }
    assert.fail(`${text} was accepted`);
  };

  it('loads one record per insert by default, as YCSB does; batchsize is opt-in and its load says so', () => {
    const p = workloadFromText('', 'empty');
    assert.equal(p.batchsize, 1);
    assert.equal(loadBatchingNote(p, true), undefined);
    const batched = workloadFromText('batchsize=100', 'wl');
    assert.match(
      loadBatchingNote(batched, true)!,
      /^load used bulk writes of 100 records \(batchsize=100; YCSB's bindings insert one record per call\)/,
    );
    // A store without bulk writes inserts one by one whatever batchsize says: nothing to note.
    assert.equal(loadBatchingNote(batched, false), undefined);
  });

  it('workload: CoreWorkload (either package) is what runs; another class is refused', () => {
    assert.equal(
      workloadFromText('workload=com.yahoo.ycsb.workloads.CoreWorkload', 'wl').workload,
      'site.ycsb.workloads.CoreWorkload',
    );
    assert.match(
      refusal('workload=site.ycsb.workloads.TimeSeriesWorkload', 'workload'),
      /docbench runs YCSB's CoreWorkload; application workloads are scenarios \(--scenario\)/,
    );
  });

  it("db: a store or one of YCSB's bindings for it, which must agree with --store", () => {
    assert.equal(workloadFromText('db=site.ycsb.db.MongoDbClient', 'wl').db, 'mongodb');
    assert.equal(workloadFromText('db=com.yahoo.ycsb.db.RedisClient', 'wl').db, 'redis');
    assert.equal(workloadFromText('db=cassandra-cql', 'wl').db, 'cassandra');
    assert.equal(workloadFromText('db=couchdb', 'wl').db, 'couchdb');
    assert.equal(workloadFromText('', 'wl').db, undefined);
    assert.ok(
      refusal('db=site.ycsb.db.JdbcDBClient', 'db').includes(`expected a docbench store (${STORE_NAMES.join(', ')})`),
    );
    checkDbProperty(workloadFromText('db=site.ycsb.db.couchbase3.Couchbase3Client', 'wl'), 'couchbase');
    checkDbProperty(workloadFromText('', 'wl'), 'redis');
    assert.throws(
      () => checkDbProperty(workloadFromText('db=site.ycsb.db.MongoDbClient', 'wl'), 'redis'),
      /property "db" names the store mongodb, but --store is redis/,
    );
  });

  it("exporter: YCSB's three exporters by class name (full, old package or bare); others refused", () => {
    assert.equal(workloadFromText('', 'wl').exporter, 'text');
    assert.equal(
      workloadFromText('exporter=site.ycsb.measurements.exporter.TextMeasurementsExporter', 'wl').exporter,
      'text',
    );
    assert.equal(
      workloadFromText('exporter=com.yahoo.ycsb.measurements.exporter.JSONMeasurementsExporter', 'wl').exporter,
      'json',
    );
    assert.equal(workloadFromText('exporter=JSONArrayMeasurementsExporter', 'wl').exporter, 'json-array');
    assert.match(
      refusal('exporter=site.ycsb.measurements.exporter.CsvExporter', 'exporter'),
      /expected one of YCSB's exporters: site\.ycsb\.measurements\.exporter\.TextMeasurementsExporter, /,
    );
  });

  it('exportfile: a path, kept for the export', () => {
    assert.equal(workloadFromText('exportfile=out/ycsb.txt', 'wl').exportfile, 'out/ycsb.txt');
    assert.equal(workloadFromText('', 'wl').exportfile, undefined);
    assert.match(refusal('exportfile=', 'exportfile'), /is invalid/);
  });

  it('measurementtype: hdrhistogram (what docbench records); every other type refused with what to use', () => {
    assert.equal(workloadFromText('measurementtype=hdrhistogram', 'wl').measurementtype, 'hdrhistogram');
    assert.match(refusal('measurementtype=histogram', 'measurementtype'), /not supported: .*hdrhistogram\.percentiles/);
    assert.match(
      refusal('measurementtype=hdrhistogram+histogram', 'measurementtype'),
      /not supported: docbench records HDR histograms only/,
    );
    assert.match(
      refusal('measurementtype=hdrhistogram+raw', 'measurementtype'),
      /not supported: docbench keeps no raw per-operation latencies/,
    );
    assert.match(
      refusal('measurementtype=raw', 'measurementtype'),
      /not supported: docbench keeps no raw per-operation latencies/,
    );
    assert.match(
      refusal('measurementtype=timeseries', 'measurementtype'),
      /not supported: docbench always records a one-second time series in the result file/,
    );
    assert.match(refusal('measurementtype=bogus', 'measurementtype'), /expected hdrhistogram/);
  });

  it('measurement.trackjvm: JVM statistics, meaningless for a Node client, accepted and recorded', () => {
    assert.equal(workloadFromText('measurement.trackjvm=true', 'wl')['measurement.trackjvm'], true);
    assert.match(refusal('measurement.trackjvm=maybe', 'measurement.trackjvm'), /is invalid/);
  });

  const refused: [key: string, value: string, instead: RegExp][] = [
    ['measurement.raw.output_file', 'raw.txt', /belongs to measurementtype=raw/],
    ['measurement.raw.no_summary', 'true', /belongs to measurementtype=raw/],
    ['histogram.buckets', '1000', /belongs to measurementtype=histogram.*hdrhistogram\.percentiles/],
    ['timeseries.granularity', '1000', /one-second time series/],
    [
      'fieldlengthhistogram',
      'hist.txt',
      /fieldlengthdistribution=histogram is not supported; use constant, uniform or zipfian/,
    ],
    ['core_workload_insertion_retry_limit', '3', /does not retry failed inserts/],
    ['core_workload_insertion_retry_interval', '3', /does not retry failed inserts/],
    ['readallfieldsbyname', 'true', /reads all fields by asking for the whole record/],
    ['dotransactions', 'false', /takes the phase from its command: `docbench load` or `docbench run`/],
    ['maxexecutiontime.warmup', '10', /use warmuptime/],
  ];
  for (const [key, value, instead] of refused) {
    it(`${key}=${value} is refused, saying what to use instead`, () => {
      const message = refusal(`${key}=${value}`, key);
      assert.ok(message.startsWith(`wl:1: property "${key}" = "${value}" is not supported: `), message);
      assert.match(message, instead);
    });
  }

  it('YCSB\'s "off" values of those keys are accepted and recorded: docbench then does what YCSB does', () => {
    const p = workloadFromText('core_workload_insertion_retry_limit=0\nreadallfieldsbyname=False', 'wl');
    assert.deepEqual(p.passthrough, { core_workload_insertion_retry_limit: '0', readallfieldsbyname: 'False' });
  });

  it("hdrhistogram.fileoutput and hdrhistogram.output.path: YCSB's HdrHistogram interval logs, off by default", () => {
    const off = workloadFromText('', 'wl');
    assert.equal(off['hdrhistogram.fileoutput'], false);
    assert.equal(off['hdrhistogram.output.path'], '');
    const on = workloadFromText('hdrhistogram.fileoutput=true\nhdrhistogram.output.path=logs/run1-', 'wl');
    assert.equal(on['hdrhistogram.fileoutput'], true);
    assert.equal(on['hdrhistogram.output.path'], 'logs/run1-');
    assert.match(refusal('hdrhistogram.fileoutput=yes', 'hdrhistogram.fileoutput'), /is invalid/);
  });

  it('fieldlengthdistribution=histogram is refused by its own key too', () => {
    assert.match(
      refusal('fieldlengthdistribution=histogram', 'fieldlengthdistribution'),
      /expected one of constant, uniform, zipfian/,
    );
  });
});

describe('shipped workload files', () => {
  const expected: Record<string, Partial<Record<string, number | string>>> = {
    workloada: { readproportion: 0.5, updateproportion: 0.5, requestdistribution: 'zipfian' },
    workloadb: { readproportion: 0.95, updateproportion: 0.05, requestdistribution: 'zipfian' },
    workloadc: { readproportion: 1, requestdistribution: 'zipfian' },
    workloadd: { readproportion: 0.95, insertproportion: 0.05, requestdistribution: 'latest' },
    workloade: {
      scanproportion: 0.95,
      insertproportion: 0.05,
      requestdistribution: 'zipfian',
      maxscanlength: 100,
      scanlengthdistribution: 'uniform',
    },
    workloadf: { readproportion: 0.5, readmodifywriteproportion: 0.5, requestdistribution: 'zipfian' },
    workloadg: { readproportion: 0.05, updateproportion: 0.95, requestdistribution: 'zipfian' },
    workloadh: { readproportion: 0, updateproportion: 1, requestdistribution: 'zipfian' },
    // Altoros 2022's E: updates instead of inserts, keys-only scans; YCSB's workloade stays as it is.
    'workloade-altoros2022': {
      scanproportion: 0.95,
      updateproportion: 0.05,
      insertproportion: 0,
      requestdistribution: 'zipfian',
      maxscanlength: 100,
      scanlengthdistribution: 'uniform',
      scankeysonly: 'true',
    },
  };

  it("ships A–H, Altoros 2022's E, and nothing unparseable", () => {
    const files = readdirSync(FIXTURE_WORKLOADS_DIR).filter((f) => f.startsWith('workload'));
    assert.deepEqual(files.sort(), Object.keys(expected).sort());
  });

  for (const [name, settings] of Object.entries(expected)) {
    it(`${name} has YCSB's (or its study's) mix`, () => {
      const { properties } = loadWorkload([name], []);
      assert.equal(properties.recordcount, 1000);
      assert.equal(properties.operationcount, 1000);
      assert.equal(properties.scankeysonly, name === 'workloade-altoros2022', "only Altoros 2022's E scans keys alone");
      for (const [key, value] of Object.entries(settings))
        assert.equal(String((properties as unknown as Record<string, unknown>)[key]), String(value), key);
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

  it("takes YCSB's own workload paths (workloads/workloadb) when no such file is here", () => {
    const { properties, name } = loadWorkload(['workloads/workloadb'], []);
    assert.equal(name, 'workloadb');
    assert.equal(properties.readproportion, 0.95);
    assert.throws(() => loadWorkload(['workloads/workloadz'], []), /workload file workloads\/workloadz not found/);
  });

  it('names a missing workload file', () => {
    assert.throws(() => loadWorkload(['workloadz'], []), /workload file workloadz not found/);
  });
});
