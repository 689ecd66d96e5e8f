/**
 * `--processes` through the CLI: one result file for the whole client, saying how many processes
 * ran and carrying each row's histogram; bad combinations are one-line user errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { chooseProcesses } from '../../src/session/process-count.ts';
import { processesFor } from '../../src/client/worker-pool.ts';
import { resultSchema } from '../../src/results/schema.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

describe('docbench --processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docbench-processes-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the workers in two processes and writes one merged result', () => {
    const out = join(dir, 'c.json');
    const r = runDocbench(
      [
        'run',
        '--store',
        'basic',
        '-P',
        'workloadc',
        '-p',
        'recordcount=1000',
        '-p',
        'operationcount=20000',
        '--threads',
        '4',
        '--processes',
        '2',
        '-q',
        '--out',
        out,
      ],
      { timeoutMs: 120_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const result = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    assert.equal(result.clientCpu.processes, 2);
    assert.equal(result.overall.operations, 20_000);
    const read = result.operations.find((o) => o.name === 'READ')!;
    assert.equal(read.latency.operations, 20_000);
    assert.ok(read.histogram && read.histogram.length > 0, 'the row carries its histogram');
    assert.match(r.stdout, /^# the 4 workers ran in 2 processes/m);
    assert.match(r.stdout, /^\[READ\], Operations, 20000$/m);
  });

  it('refuses what cannot be spread over processes, in one line', () => {
    assertUserError(
      runDocbench([
        'run',
        '--store',
        'basic',
        '-P',
        'workloadc',
        '-p',
        'basic.store=true',
        '--threads',
        '2',
        '--processes',
        '2',
      ]),
      /--processes: basic\.store=true keeps records in one process's memory/,
    );
    assertUserError(
      runDocbench(['run', '--store', 'basic', '-P', 'workloadc', '--processes', '0']),
      /--processes expects auto or a whole number >= 1, got "0"/,
    );
  });

  it('takes the processes property from a workload file; --processes wins; never more than the workers', () => {
    const p = workloadFromText('threadcount=4\nprocesses=3', 'test', []);
    assert.equal(processesFor(undefined, p, []).processes, 3);
    assert.equal(processesFor(2, p, []).processes, 2);
    assert.equal(processesFor(8, p, []).processes, 4);
    assert.match(processesFor(8, p, []).reason, /^4 processes: --processes 8, capped by threadcount 4$/);
    assert.equal(processesFor(undefined, workloadFromText('threadcount=4', 'test', []), ['redis']).processes, 1);
    assert.equal(workloadFromText('processes=AUTO', 'test', []).processes, 'auto');
    assert.throws(() => workloadFromText('processes=0', 'test', []), /processes/);
    assert.throws(() => workloadFromText('processes=many', 'test', []), /processes/);
  });

  it('auto: one process per core when every store is remote, capped by threadcount; 1 beside a local server', () => {
    const remote = chooseProcesses({ threadcount: 16, localStores: [], cores: 32 });
    assert.equal(remote.processes, 16);
    assert.match(
      remote.reason,
      /^16 processes: auto \(the default\), every store is remote, so one per core \(32 cores, capped by threadcount 16\)$/,
    );
    assert.equal(chooseProcesses({ threadcount: 16, localStores: [], cores: 4 }).processes, 4);
    assert.equal(chooseProcesses({ threadcount: 1, localStores: [], cores: 4 }).processes, 1);
    assert.equal(chooseProcesses({ property: 'auto', threadcount: 8, localStores: [], cores: 2 }).processes, 2);
    const local = chooseProcesses({ flag: 'auto', threadcount: 16, localStores: ['redis', 'mongodb'], cores: 32 });
    assert.equal(local.processes, 1);
    assert.match(local.reason, /^1 process: auto \(--processes\), because redis, mongodb run on this machine/);
    // A number given is used as given, local server or not.
    assert.equal(chooseProcesses({ flag: 3, threadcount: 16, localStores: ['redis'], cores: 32 }).processes, 3);
  });

  it('records the choice and why in the result (a local store: 1 process)', () => {
    const out = join(dir, 'auto.json');
    const r = runDocbench([
      'run',
      '--store',
      'basic',
      '-P',
      'workloadc',
      '-p',
      'recordcount=100',
      '-p',
      'operationcount=200',
      '--threads',
      '4',
      '-q',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    assert.equal(result.clientCpu.processes, 1);
    assert.match(
      result.clientCpu.processesReason ?? '',
      /^1 process: auto \(the default\), because basic runs on this machine/,
    );
    assertUserError(
      runDocbench(['run', '--store', 'basic', '-P', 'workloadc', '--processes', 'some']),
      /--processes expects auto or a whole number >= 1, got "some"/,
    );
  });
});
