import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { translateYcsbArgs } from '../../src/cli/main.ts';
import { suffixedCount } from '../../src/common/option-parsers.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { LOCAL_STORE_NAMES } from '../../src/stores/stores.ts';
import { ECOMMERCE_DIALECTS } from '../../scenarios/ecommerce/dialects.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'docbench-cli-'));
after(() => rmSync(work, { recursive: true, force: true }));

const docbench = (...args: string[]) => runDocbench(args, { cwd: work });

describe('CLI user errors', () => {
  const out = join(work, 'result.json');
  it('unknown property', () =>
    assertUserError(
      docbench('run', '--store', 'basic', '-P', 'workloada', '-p', 'readproportoin=1', '--out', out),
      /unknown property "readproportoin"/,
      out,
    ));
  it('wrong type', () =>
    assertUserError(
      docbench('run', '--store', 'basic', '-P', 'workloada', '-p', 'recordcount=many', '--out', out),
      /"recordcount" = "many" is invalid/,
      out,
    ));
  it('proportions not summing to 1', () =>
    assertUserError(
      docbench('run', '--store', 'basic', '-P', 'workloada', '-p', 'readproportion=0.9', '--out', out),
      /sum to 1.4, expected 1/,
      out,
    ));
  it('missing workload file', () =>
    assertUserError(
      docbench('run', '--store', 'basic', '-P', 'nosuchfile', '--out', out),
      /workload file nosuchfile not found/,
      out,
    ));
  it('malformed workload file', () => {
    const bad = join(work, 'bad.properties');
    writeFileSync(bad, 'recordcount=100\n=oops\n');
    assertUserError(
      docbench('load', '--store', 'basic', '-P', bad, '--out', out),
      /bad.properties:2: cannot read "=oops"/,
      out,
    );
  });
  it('unknown store', () =>
    assertUserError(
      docbench('run', '--store', 'nosql9000', '-P', 'workloada', '--out', out),
      /unknown store "nosql9000"; expected one of/,
      out,
    ));
  it('unreachable store', () =>
    assertUserError(
      docbench('run', '--store', 'redis', '--url', 'redis://127.0.0.1:1', '-P', 'workloada', '--out', out),
      /cannot reach redis at redis:\/\/127.0.0.1:1/,
      out,
    ));
  it('bad --threads', () =>
    assertUserError(
      docbench('run', '--store', 'basic', '-P', 'workloada', '--threads', '0'),
      /--threads expects a whole number >= 1, got "0"/,
    ));
  it('missing --store', () =>
    assertUserError(docbench('run', '-P', 'workloada'), /required option '--store <name>' not specified/));
  it('--out pointing at a directory', () =>
    assertUserError(docbench('run', '--store', 'basic', '-P', 'workloada', '--out', work), /is a directory/));
  it('unknown command', () => assert.equal(docbench('frobnicate').code, 2));
});

describe('CLI user errors: the e-commerce scenario', () => {
  const out = join(work, 'ecommerce.json');
  it('unknown workload', () =>
    assertUserError(
      docbench('run', '--scenario', 'ecommerce', '--store', 'redis', '-P', 'paginate', '--out', out),
      /--workload: unknown ecommerce workload "paginate"; expected one of pagination, join, mix/,
      out,
    ));
  it('no workload named', () =>
    assertUserError(
      docbench('run', '--scenario', 'ecommerce', '--store', 'redis'),
      /--workload: name the ecommerce workload to run/,
    ));
  it('a store without the scenario', () =>
    assertUserError(
      docbench('run', '--scenario', 'ecommerce', '--store', 'basic', '-P', 'join'),
      new RegExp(`the ecommerce scenario runs on ${ECOMMERCE_DIALECTS.stores.join(', ')}; got "basic"`),
    ));
  it('unknown setting', () =>
    assertUserError(
      docbench('run', '--scenario', 'ecommerce', '--store', 'redis', '-P', 'join', '-p', 'maxofset=3'),
      /-p maxofset: unknown ecommerce setting/,
    ));
  it('bad setting value', () =>
    assertUserError(
      docbench('run', '--scenario', 'ecommerce', '--store', 'redis', '-P', 'join', '-p', 'maxlimit=lots'),
      /-p maxlimit=lots: /,
    ));
  it('load without a size', () =>
    assertUserError(
      docbench('load', '--scenario', 'ecommerce', '--store', 'redis'),
      /-p customers: how many customers to seed/,
    ));
  it('unknown scenario', () => assert.equal(docbench('run', '--scenario', 'shop', '--store', 'redis').code, 2));
  it('comparison on an unknown store', () =>
    assertUserError(
      docbench('ecommerce', '--stores', 'redis,dynamo'),
      /--stores: the ecommerce scenario runs on .*got "dynamo"/,
    ));
  it('comparison of an unknown workload', () =>
    assertUserError(
      docbench('ecommerce', '--workloads', 'join,checkout'),
      /--workloads: unknown ecommerce workload "checkout"/,
    ));
  it('seed with a bad size', () =>
    assertUserError(
      docbench('seed', 'ecommerce', '--store', 'redis', '--customers', '0'),
      /--customers expects a whole number >= 1, got "0"/,
    ));
});

describe('CLI on the basic store', () => {
  it('loads and runs workload A, printing YCSB text and writing a valid result', () => {
    const out = join(work, 'run.json');
    const load = docbench('load', '--store', 'basic', '-P', 'workloada', '-q');
    assert.equal(load.code, 0, load.stderr);
    assert.match(load.stdout, /^\[OVERALL\], RunTime\(ms\), \d+$/m);
    assert.match(load.stdout, /^\[INSERT\], Return=OK, 1000$/m);
    const run = docbench(
      '-t',
      '-db',
      'basic',
      '-P',
      'workloada',
      '-p',
      'operationcount=2000',
      '-threads',
      '4',
      '--out',
      out,
      '-q',
    );
    assert.equal(run.code, 0, run.stderr);
    for (const row of [
      '[OVERALL], Throughput(ops/sec)',
      '[READ], Operations',
      '[READ], AverageLatency(us)',
      '[READ], MinLatency(us)',
      '[READ], MaxLatency(us)',
      '[READ], 50thPercentileLatency(us)',
      '[READ], 95thPercentileLatency(us)',
      '[READ], 99thPercentileLatency(us)',
      '[READ], 99.9PercentileLatency(us)',
      '[UPDATE], Return=OK',
      '[Intended-READ], Operations',
    ]) {
      assert.ok(run.stdout.includes(row), `missing ${row}`);
    }
    const result = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    assert.equal(result.overall.operations, 2000);
    assert.equal(result.workload.properties.threadcount, 4);
    assert.equal(result.store.name, 'basic');
    const read = result.operations.find((o) => o.name === 'READ')!;
    const update = result.operations.find((o) => o.name === 'UPDATE')!;
    assert.equal(read.latency.operations + update.latency.operations, 2000);
    assert.ok(read.latency.operations > 850 && read.latency.operations < 1150, `read share ${read.latency.operations}`);
  });
});

describe('counts with a k / m suffix (sweep --records, persons --size)', () => {
  it('reads plain, suffixed and separated counts', () => {
    for (const [text, n] of [
      ['5000', 5000],
      ['10k', 10_000],
      ['10K', 10_000],
      ['1.5m', 1_500_000],
      ['10_000', 10_000],
      [' 2k ', 2000],
    ] as const)
      assert.equal(suffixedCount(text), n, text);
  });
  it('refuses anything but a whole number >= 1', () => {
    for (const text of ['0', '0k', '1.5', '1.0001k', '-1', '10g', 'k', '', 'ten'])
      assert.equal(suffixedCount(text), undefined, text);
  });
});

describe('docbench status --json', () => {
  it('lists every local store of the STORES table, each running or not, passwords masked', () => {
    const r = docbench('status', '--json');
    assert.equal(r.code, 0, r.stderr);
    const servers = JSON.parse(r.stdout) as { store: string; running: boolean; url: string; product: string }[];
    assert.deepEqual(
      servers.map((s) => s.store),
      LOCAL_STORE_NAMES,
    );
    for (const s of servers) {
      assert.equal(typeof s.running, 'boolean', s.store);
      assert.ok(s.product.length > 0, s.store);
      assert.doesNotMatch(s.url, /:[^:/@*]+@/, `${s.store}: ${s.url}`);
    }
  });
});

describe('YCSB argument habits', () => {
  it('maps -load, -t, -threads, -target, -db', () => {
    assert.deepEqual(translateYcsbArgs(['-load', '-db', 'redis', '-P', 'workloada', '-threads', '4', '-s']), [
      'load',
      '--store',
      'redis',
      '-P',
      'workloada',
      '--threads',
      '4',
    ]);
    assert.deepEqual(translateYcsbArgs(['-t', '-target', '100']), ['run', '--target', '100']);
  });
});
