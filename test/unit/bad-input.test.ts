/**
 * The bad-input corpus: what a new user mistypes, one row per case, each expecting one clear line
 * naming the culprit and what was expected, exit code 2 (400 for HTTP), no stack trace, and no
 * result file left behind. CLI rows run in-process through main() (fast: no process start per
 * row); a few run as real child processes, for the exit code the shell sees.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { main } from '../../src/cli/main.ts';
import { buildApp, type ServiceInfo } from '../../src/service/app.ts';
import { tableLayout } from '../../src/service/server.ts';
import { combineStats, RequestCounter } from '../../src/service/stats.ts';
import { StoreGate } from '../../src/service/store-gate.ts';
import { registerEcommerceRoutes } from '../../scenarios/ecommerce/routes.ts';
import { registerPersonsRoutes } from '../../scenarios/persons/routes.ts';
import { registerPlanRoute } from '../../src/service/ycsb-plan-route.ts';
import { parseSettings as ecommerceSettings } from '../../scenarios/ecommerce/settings.ts';
import { createStore as createBasicStore } from '../../src/stores/basic/index.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-bad-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const out = join(dir, 'never-written.json');
/** A port nothing listens on: a store URL that fails at once. */
const DEAD = '127.0.0.1:1';

/** A workload file with one line changed from a valid one. */
const workload = (name: string, extra: string) =>
  file(`${name}.properties`, `recordcount=10\noperationcount=10\nreadproportion=0.5\nupdateproportion=0.5\n${extra}\n`);
const run = (...args: string[]) => ['run', '--store', 'basic', '-P', 'workloada', ...args, '--out', out];
const runWith = (workloadFile: string) => ['run', '--store', 'basic', '-P', workloadFile, '--out', out];

interface CliCase {
  name: string;
  argv: string[];
  expect: RegExp;
}

const resultFile = file(
  'a-result.json',
  JSON.stringify({ schemaVersion: 1, kind: 'ycsb', overall: { operations: 3 } }, null, 2),
);
const existingDir = join(dir, 'a-folder');
mkdirSync(existingDir);

const CLI_CASES: CliCase[] = [
  // ---- workload files ----
  {
    name: 'workload: a value of the wrong type',
    argv: runWith(workload('type', 'fieldcount=ten')),
    expect: /type\.properties:\d+: property "fieldcount" = "ten" is invalid/,
  },
  {
    name: 'workload: proportions that do not sum to 1',
    argv: runWith(file('sum.properties', 'readproportion=0.5\nupdateproportion=0.2\noperationcount=5\n')),
    expect: /operation proportions sum to 0\.7, expected 1/,
  },
  {
    name: 'workload: a misspelt key',
    argv: runWith(workload('typo', 'recordcont=10')),
    expect: /unknown property "recordcont" \(did you mean "recordcount"\?\)/,
  },
  {
    name: 'workload: a line that is no key=value',
    argv: runWith(workload('line', '=5')),
    expect: /line\.properties:\d+: cannot read "=5"; expected key=value/,
  },
  {
    name: 'workload: a file that does not exist',
    argv: runWith(join(dir, 'missing.properties')),
    expect: /missing\.properties/,
  },
  { name: 'workload: a folder instead of a file', argv: runWith(existingDir), expect: /a-folder/ },
  {
    name: 'workload: minfieldlength over fieldlength',
    argv: runWith(workload('minlen', 'fieldlength=5\nminfieldlength=9')),
    expect: /minfieldlength \(9\) exceeds fieldlength \(5\)/,
  },
  {
    name: 'workload: an unknown request distribution',
    argv: runWith(workload('dist', 'requestdistribution=gaussian')),
    expect: /property "requestdistribution" = "gaussian" is invalid/,
  },
  {
    name: 'workload: another workload class',
    argv: runWith(workload('class', 'workload=site.ycsb.workloads.TimeSeriesWorkload')),
    expect: /property "workload" .* expected site\.ycsb\.workloads\.CoreWorkload/,
  },
  {
    name: 'workload: a measurement type docbench does not record',
    argv: runWith(workload('mtype', 'measurementtype=raw')),
    expect: /property "measurementtype" = "raw" is invalid: not supported/,
  },
  {
    name: 'workload: percentiles that are not numbers',
    argv: runWith(workload('pct', 'hdrhistogram.percentiles=p99')),
    expect: /property "hdrhistogram\.percentiles" = "p99" is invalid: expected a comma-separated list of percentiles/,
  },
  {
    name: 'workload: dataintegrity with variable field lengths',
    argv: runWith(workload('integrity', 'dataintegrity=true\nfieldlengthdistribution=uniform')),
    expect: /dataintegrity=true requires fieldlengthdistribution=constant/,
  },
  {
    name: 'workload: insertstart + insertcount past recordcount',
    argv: runWith(workload('range', 'insertstart=8\ninsertcount=5')),
    expect: /insertstart \(8\) \+ insertcount \(5\) exceeds recordcount \(10\)/,
  },
  {
    name: 'workload: a YCSB key docbench refuses',
    argv: runWith(workload('retry', 'core_workload_insertion_retry_limit=3')),
    expect: /property "core_workload_insertion_retry_limit" = "3" is not supported/,
  },
  {
    name: 'workload: a result file given as a workload file',
    argv: runWith(resultFile),
    expect: /a-result\.json:1: cannot read "\{"; expected key=value|a-result\.json/,
  },

  // ---- -p overrides ----
  { name: '-p without =', argv: run('-p', 'recordcount'), expect: /-p recordcount: expected key=value/ },
  { name: '-p threadcount=0', argv: run('-p', 'threadcount=0'), expect: /property "threadcount" = "0" is invalid/ },
  {
    name: '-p operationcount=-1',
    argv: run('-p', 'operationcount=-1'),
    expect: /property "operationcount" = "-1" is invalid/,
  },
  {
    name: '-p maxerrorrate past 1',
    argv: run('-p', 'maxerrorrate=5'),
    expect: /-p maxerrorrate=5: expected the fraction of failed operations \(0 to 1/,
  },
  {
    name: '-p maxerrorrate not a number',
    argv: run('-p', 'maxerrorrate=lots'),
    expect: /-p maxerrorrate=lots: expected the fraction/,
  },
  {
    name: '-p db naming no store',
    argv: run('-p', 'db=oracle'),
    expect: /property "db" = "oracle" is invalid: expected a docbench store/,
  },
  {
    name: '-p db disagreeing with --store',
    argv: run('-p', 'db=mongodb'),
    expect: /db.*mongodb.*basic|basic.*mongodb/,
  },
  {
    name: '-p exporter unknown',
    argv: run('-p', 'exporter=CsvExporter'),
    expect: /property "exporter" = "CsvExporter" is invalid: expected one of YCSB's exporters/,
  },
  {
    name: 'run with neither operationcount nor maxexecutiontime',
    argv: run('-p', 'operationcount=0'),
    expect: /the run phase needs operationcount > 0 or maxexecutiontime > 0/,
  },
  {
    name: 'load with nothing to load',
    argv: ['load', '--store', 'basic', '-P', 'workloada', '-p', 'recordcount=0', '--out', out],
    expect: /nothing to load: recordcount \(or insertcount\) is 0/,
  },
  {
    name: '-p a misspelt key',
    argv: run('-p', 'threadcuont=4'),
    expect: /-p threadcuont: unknown property "threadcuont" \(did you mean "threadcount"\?\)/,
  },

  // ---- store settings, each store ----
  {
    name: 'redis: an unknown driver',
    argv: [
      'run',
      '--store',
      'redis',
      '--url',
      `redis://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'redis.driver=jedis',
      '--out',
      out,
    ],
    expect: /redis\.driver/,
  },
  {
    name: 'redis: a misspelt setting',
    argv: [
      'run',
      '--store',
      'redis',
      '--url',
      `redis://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'redis.autopipeline=true',
      '--out',
      out,
    ],
    expect: /redis\.autopipeline.*did you mean "redis\.autopipelining"/,
  },
  {
    name: 'redis: autopipelining on node-redis',
    argv: [
      'run',
      '--store',
      'redis',
      '--url',
      `redis://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'redis.driver=node-redis',
      '-p',
      'redis.autopipelining=true',
      '--out',
      out,
    ],
    expect: /redis\.autopipelining=true: applies to redis\.driver=ioredis only/,
  },
  {
    name: 'cassandra: a misspelt setting',
    argv: [
      'run',
      '--store',
      'cassandra',
      '--url',
      `cassandra://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'cassandra.replicaton=1',
      '--out',
      out,
    ],
    expect: /cassandra\.replicaton/,
  },
  {
    name: 'mongodb: a bad write concern',
    argv: [
      'run',
      '--store',
      'mongodb',
      '--url',
      `mongodb://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'mongodb.writeConcern=most',
      '--out',
      out,
    ],
    expect: /mongodb\.writeConcern/,
  },
  {
    name: 'mongodb: a timeout that is not a number',
    argv: [
      'run',
      '--store',
      'mongodb',
      '--url',
      `mongodb://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'mongodb.serverSelectionTimeoutMS=soon',
      '--out',
      out,
    ],
    expect: /mongodb\.serverSelectionTimeoutMS/,
  },
  {
    name: 'couchdb: maxsockets not a number',
    argv: [
      'run',
      '--store',
      'couchdb',
      '--url',
      `http://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'couchdb.maxsockets=many',
      '--out',
      out,
    ],
    expect: /couchdb\.maxsockets/,
  },
  {
    name: 'couchbase: an unknown setting',
    argv: [
      'run',
      '--store',
      'couchbase',
      '--url',
      `couchbase://u:p@${DEAD}/b`,
      '-P',
      'workloada',
      '-p',
      'couchbase.bogus=1',
      '--out',
      out,
    ],
    expect: /couchbase\.bogus/,
  },
  {
    name: 'redis: a command timeout of 0',
    argv: [
      'run',
      '--store',
      'redis',
      '--url',
      `redis://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'redis.commandtimeout=0',
      '--out',
      out,
    ],
    expect: /redis\.commandtimeout=0: expected a whole number >= 1/,
  },
  {
    name: 'couchdb: a request timeout that is not a number',
    argv: [
      'run',
      '--store',
      'couchdb',
      '--url',
      `http://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'couchdb.requesttimeout=soon',
      '--out',
      out,
    ],
    expect: /couchdb\.requesttimeout=soon: expected a whole number >= 1/,
  },
  {
    name: 'cassandra: a read timeout of 0',
    argv: [
      'run',
      '--store',
      'cassandra',
      '--url',
      `cassandra://${DEAD}`,
      '-P',
      'workloada',
      '-p',
      'cassandra.readtimeout=0',
      '--out',
      out,
    ],
    expect: /cassandra\.readtimeout=0: expected a whole number >= 1/,
  },
  { name: 'basic: store=maybe', argv: run('-p', 'basic.store=maybe'), expect: /basic\.store/ },

  // ---- command-line arguments ----
  { name: 'an unknown command', argv: ['frobnicate'], expect: /unknown command 'frobnicate'/ },
  { name: 'run without --store', argv: ['run', '-P', 'workloada'], expect: /--store/ },
  { name: 'an unknown store', argv: ['run', '--store', 'oracle', '-P', 'workloada', '--out', out], expect: /oracle/ },
  { name: '--threads 0', argv: run('--threads', '0'), expect: /--threads/ },
  { name: '--threads not a number', argv: run('--threads', 'four'), expect: /--threads/ },
  { name: '--target negative', argv: run('--target', '-5'), expect: /--target/ },
  { name: '--processes 0', argv: run('--processes', '0'), expect: /--processes/ },
  {
    name: '--on-error unknown',
    argv: run('--on-error', 'retry'),
    expect: /--on-error retry: expected continue or abort/,
  },
  {
    name: '--out a folder',
    argv: ['run', '--store', 'basic', '-P', 'workloada', '--out', existingDir],
    expect: /--out .*a-folder is a directory; expected a file path/,
  },
  {
    name: '--out under a file',
    argv: ['run', '--store', 'basic', '-P', 'workloada', '--out', join(resultFile, 'r.json')],
    expect: /--out .*a-result\.json is not a directory/,
  },
  {
    name: '--out empty',
    argv: ['run', '--store', 'basic', '-P', 'workloada', '--out', ''],
    expect: /--out: expected a file path, got an empty one/,
  },
  {
    name: 'exportfile a folder (refused before the run, not after it)',
    argv: run('-p', `exportfile=${existingDir}`),
    expect: /exportfile .*a-folder is a directory; expected a file path/,
  },
  {
    name: 'run with no workload',
    argv: ['run', '--store', 'basic', '--out', out],
    expect: /no workload given: use -P <file>/,
  },
  { name: 'an unknown option', argv: run('--frobnicate'), expect: /unknown option '--frobnicate'/ },
  { name: '--scenario unknown', argv: run('--scenario', 'chess'), expect: /--scenario/ },
  {
    name: 'ecommerce: no processes',
    argv: ['ecommerce', '--stores', 'redis', '--processes', '0', '--out-dir', out],
    expect: /--processes expects a whole number >= 1, got "0"/,
  },
  {
    name: 'compare: an unknown store in --stores',
    argv: ['compare', '--stores', 'redis,oracle', '--out-dir', join(dir, 'cmp')],
    expect: /oracle/,
  },
  {
    name: 'compare: an unknown workload',
    argv: ['compare', '--stores', 'basic', '--workloads', 'z', '--out-dir', join(dir, 'cmp')],
    expect: /\bz\b/,
  },
  {
    name: 'compare: an exportfile',
    argv: ['compare', '--stores', 'basic', '--workloads', 'a', '-p', 'exportfile=x.txt', '--out-dir', join(dir, 'cmp')],
    expect: /exportfile=x\.txt: compare writes one result file per run/,
  },
  {
    name: 'ecommerce: zero customers',
    argv: ['ecommerce', '--stores', 'basic', '--customers', '0'],
    expect: /--customers/,
  },
  {
    name: 'persons: a size that is no size',
    argv: ['persons', '--stores', 'basic', '--size', 'big'],
    expect: /--size|big/,
  },

  // ---- URLs ----
  {
    name: 'redis: a URL with a bad port',
    argv: ['run', '--store', 'redis', '--url', 'redis://127.0.0.1:http', '-P', 'workloada', '--out', out],
    expect: /redis/,
  },
  {
    name: 'redis: a URL of another scheme',
    argv: ['run', '--store', 'redis', '--url', 'ftp://127.0.0.1', '-P', 'workloada', '--out', out],
    expect: /ftp:\/\/127\.0\.0\.1/,
  },
  {
    name: 'redis: nothing listens there',
    argv: ['run', '--store', 'redis', '--url', `redis://${DEAD}`, '-P', 'workloada', '--out', out],
    expect: /cannot reach redis at redis:\/\/127\.0\.0\.1:1: nothing listens on 127\.0\.0\.1:1/,
  },
  {
    name: 'couchdb: a URL without a scheme',
    argv: ['run', '--store', 'couchdb', '--url', 'db:5984', '-P', 'workloada', '--out', out],
    expect: /db:5984/,
  },
  {
    name: "couchbase: a URL that is not Couchbase's",
    argv: ['run', '--store', 'couchbase', '--url', 'http://127.0.0.1:8091', '-P', 'workloada', '--out', out],
    expect: /couchbase: the URL "http:\/\/127\.0\.0\.1:8091" is not a Couchbase URL/,
  },
  {
    name: 'couchbase: a URL without a login',
    argv: ['run', '--store', 'couchbase', '--url', `couchbase://${DEAD}/b`, '-P', 'workloada', '--out', out],
    expect: /couchbase: the URL "couchbase:\/\/127\.0\.0\.1:1\/b" lacks a user name and a password/,
  },
  {
    name: 'mongodb: a URL of another scheme',
    argv: ['run', '--store', 'mongodb', '--url', 'postgres://127.0.0.1', '-P', 'workloada', '--out', out],
    expect: /postgres:\/\/127\.0\.0\.1/,
  },
  {
    name: 'mongodb: nothing listens there',
    argv: [
      'run',
      '--store',
      'mongodb',
      '--url',
      `mongodb://app:hunter2@${DEAD}/?directConnection=true`,
      '-P',
      'workloada',
      '-p',
      'mongodb.serverSelectionTimeoutMS=300',
      '--out',
      out,
    ],
    expect:
      /^(?!.*hunter2)docbench: cannot reach mongodb at mongodb:\/\/app:\*\*\*@127\.0\.0\.1:1\/.*no server answered within the server selection timeout of 300 ms \(connect ECONNREFUSED/,
  },
  {
    name: 'couchbase: nothing listens there (the SDK retries a refused port until its timeout)',
    argv: [
      'run',
      '--store',
      'couchbase',
      '--url',
      `couchbase://app:hunter2@${DEAD}/b`,
      '-P',
      'workloada',
      '-p',
      'couchbase.connectTimeout=300',
      '--out',
      out,
    ],
    expect:
      /^(?!.*hunter2)docbench: cannot reach couchbase at couchbase:\/\/app:\*\*\*@127\.0\.0\.1:1\/b: connection refused at 127\.0\.0\.1:1: nothing listens there/,
  },
  {
    name: 'a password in a bad URL is not printed',
    argv: [
      'run',
      '--store',
      'couchbase',
      '--url',
      'http://admin:hunter2@127.0.0.1:8091',
      '-P',
      'workloada',
      '--out',
      out,
    ],
    expect: /^(?!.*hunter2).*couchbase/,
  },
  {
    name: 'compare: its one store unreachable',
    argv: [
      'compare',
      '--stores',
      'redis',
      '--url',
      `redis://${DEAD}`,
      '--workloads',
      'a',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /^docbench: cannot reach redis at redis:\/\/127\.0\.0\.1:1: nothing listens/,
  },
  {
    name: '--url for a store that is not run',
    argv: ['compare', '--stores', 'basic', '--url', `mongodb=mongodb://${DEAD}`, '--out-dir', join(dir, 'cmp')],
    expect: /mongodb/,
  },

  // ---- capacity and live metrics ----
  {
    name: 'capacity: a budget without <=',
    argv: ['capacity', '--stores', 'basic', '-P', 'workloada', '--slo', 'p99<5ms', '--out-dir', join(dir, 'cmp')],
    expect: /--slo.*expected a latency budget such as "p99<=5ms".*got "p99<5ms"/,
  },
  {
    name: 'capacity: a budget without a unit',
    argv: ['capacity', '--stores', 'basic', '-P', 'workloada', '--slo', 'p99<=5', '--out-dir', join(dir, 'cmp')],
    expect: /--slo.*a time in us, ms or s/,
  },
  {
    name: 'capacity: no budget',
    argv: ['capacity', '--stores', 'basic', '-P', 'workloada', '--out-dir', join(dir, 'cmp')],
    expect: /--slo/,
  },
  {
    name: 'capacity: an error budget over 100%',
    argv: [
      'capacity',
      '--stores',
      'basic',
      '-P',
      'workloada',
      '--slo',
      'p99<=5ms',
      '--error-budget',
      '150%',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /--error-budget: expected the share of operations that may fail/,
  },
  {
    name: 'capacity: a step setting given as a property',
    argv: [
      'capacity',
      '--stores',
      'basic',
      '-P',
      'workloada',
      '--slo',
      'p99<=5ms',
      '-p',
      'target=500',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /-p target=500: the capacity search sets it for each step; use --start/,
  },
  {
    name: 'capacity: an unknown store',
    argv: [
      'capacity',
      '--stores',
      'redis,oracle',
      '-P',
      'workloada',
      '--slo',
      'p99<=5ms',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /oracle/,
  },
  {
    name: 'capacity: --min-seconds over --max-seconds',
    argv: [
      'capacity',
      '--stores',
      'basic',
      '-P',
      'workloada',
      '--slo',
      'p99<=5ms',
      '--min-seconds',
      '30',
      '--max-seconds',
      '10',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /--min-seconds \(30\) exceeds --max-seconds \(10\)/,
  },
  {
    name: 'capacity: no search at all',
    argv: [
      'capacity',
      '--stores',
      'basic',
      '-P',
      'workloada',
      '--slo',
      'p99<=5ms',
      '--repetitions',
      '0',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /--repetitions expects a whole number >= 1, got "0"/,
  },
  {
    name: 'capacity: a negative number of retries',
    argv: [
      'capacity',
      '--stores',
      'basic',
      '-P',
      'workloada',
      '--slo',
      'p99<=5ms',
      '--retries',
      '-1',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /--retries expects a whole number >= 0, got "-1"/,
  },
  {
    name: '--metrics-port out of range',
    argv: run('--metrics-port', '70000'),
    expect: /--metrics-port expects a port number from 0 to 65535/,
  },
  {
    name: 'hdrhistogram.fileoutput on a comparison',
    argv: [
      'compare',
      '--stores',
      'basic',
      '--workloads',
      'a',
      '-p',
      'hdrhistogram.fileoutput=true',
      '--out-dir',
      join(dir, 'cmp'),
    ],
    expect: /hdrhistogram\.fileoutput=true: compare runs many workloads/,
  },

  // ---- config files (files docbench reads) ----
  {
    name: 'config: not JSON',
    argv: ['compare', '--config', file('broken.json', '{ "stores": '), '--out-dir', join(dir, 'cmp')],
    expect: /broken\.json/,
  },
  {
    name: 'config: an unknown store',
    argv: ['compare', '--config', file('unknown.json', '{"stores": {"oracle": {}}}'), '--out-dir', join(dir, 'cmp')],
    expect: /unknown\.json.*oracle|oracle.*unknown\.json/,
  },
  {
    name: 'config: a result file given as the config',
    argv: ['compare', '--config', resultFile, '--out-dir', join(dir, 'cmp')],
    expect: /a-result\.json/,
  },
  {
    name: 'config: a file that does not exist',
    argv: ['compare', '--config', join(dir, 'nope.json'), '--out-dir', join(dir, 'cmp')],
    expect: /--config .*nope\.json: no such file/,
  },
];

/**
 * Run main() in this process, catching what it writes on stderr (where every error goes; stdout
 * is left alone: the test reporter writes there meanwhile).
 */
async function runInProcess(argv: readonly string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => (
    (stderr += String(chunk)),
    true
  )) as typeof process.stderr.write;
  try {
    return { code: await main(argv), stderr };
  } catch (error) {
    return { code: -1, stderr: `${stderr}${error instanceof Error ? error.stack : String(error)}` };
  } finally {
    process.stderr.write = write;
  }
}

describe('bad input: command line', { concurrency: false }, () => {
  for (const c of CLI_CASES) {
    it(c.name, async () => {
      const r = await runInProcess(c.argv);
      assertUserError({ code: r.code, signal: null, stdout: '', stderr: r.stderr }, c.expect, out);
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.startsWith('.')),
        [],
        'no temporary file left',
      );
      assert.equal(existsSync(join(dir, 'cmp')), false, 'no output folder made');
    });
  }
});

describe('bad input: as the shell sees it (child processes)', { concurrency: false }, () => {
  for (const c of [
    CLI_CASES[2]!,
    CLI_CASES.find((x) => x.name.startsWith('--on-error'))!,
    CLI_CASES.find((x) => x.name === 'redis: nothing listens there')!,
  ]) {
    it(c.name, () => assertUserError(runDocbench(c.argv), c.expect, out));
  }
  it('cassandra: an unreachable URL is one line, no driver dump', () => {
    assertUserError(
      runDocbench([
        'run',
        '--store',
        'cassandra',
        '--url',
        `cassandra://${DEAD}`,
        '-P',
        'workloada',
        '-q',
        '--out',
        out,
      ]),
      /^docbench: cannot reach cassandra at cassandra:\/\/127\.0\.0\.1:1: 127\.0\.0\.1:1: connection refused/,
      out,
    );
  });
});

// ---- HTTP: every route, each bad request a 400 naming the parameter ----

interface HttpCase {
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  body?: string;
  /** The parameter the answer must name. */
  parameter: string;
}

const HTTP_CASES: HttpCase[] = [
  {
    name: 'read: a field that is not in the table',
    method: 'GET',
    url: '/usertable/user1?fields=nofield',
    parameter: 'fields',
  },
  { name: 'read: an unknown query parameter', method: 'GET', url: '/usertable/user1?colour=red', parameter: 'colour' },
  { name: 'insert: a body that is not JSON', method: 'POST', url: '/usertable', body: '{"key": ', parameter: 'body' },
  {
    name: 'insert: no key',
    method: 'POST',
    url: '/usertable',
    body: JSON.stringify({ fields: { field0: 'a' } }),
    parameter: 'key',
  },
  {
    name: 'insert: fields not an object',
    method: 'POST',
    url: '/usertable',
    body: JSON.stringify({ key: 'user1', fields: 'a' }),
    parameter: 'fields',
  },
  {
    name: 'insert: a field value that is not a string',
    method: 'POST',
    url: '/usertable',
    body: JSON.stringify({ key: 'user1', fields: { field0: 5 } }),
    parameter: 'fields.field0',
  },
  {
    name: 'update: an unknown field',
    method: 'PUT',
    url: '/usertable/user1',
    body: JSON.stringify({ fields: { nofield: 'a' } }),
    parameter: 'fields',
  },
  { name: 'update: an empty body', method: 'PUT', url: '/usertable/user1', body: '{}', parameter: 'body' },
  { name: 'scan: no start key', method: 'GET', url: '/usertable?count=5', parameter: 'start' },
  {
    name: 'scan: a count that is not a number',
    method: 'GET',
    url: '/usertable?start=user1&count=many',
    parameter: 'count',
  },
  { name: 'scan: a count of 0', method: 'GET', url: '/usertable?start=user1&count=0', parameter: 'count' },
  {
    name: 'plan: a stream that is no number',
    method: 'GET',
    url: '/_docbench/ycsb/plan?stream=x&count=10',
    parameter: 'stream',
  },
  {
    name: 'plan: a count past the limit',
    method: 'GET',
    url: '/_docbench/ycsb/plan?stream=1&count=10001',
    parameter: 'count',
  },
  {
    name: 'customers: an unknown country',
    method: 'GET',
    url: '/customers?country=Atlantis&limit=5',
    parameter: 'country',
  },
  { name: 'customers: a limit of 0', method: 'GET', url: '/customers?country=France&limit=0', parameter: 'limit' },
  { name: 'sales report: a month of 13', method: 'GET', url: '/reports/sales?zip=12345&month=13', parameter: 'month' },
  {
    name: 'sales report: a zip that is no postal code',
    method: 'GET',
    url: '/reports/sales?zip=%3Cscript%3E&month=1',
    parameter: 'zip',
  },
  {
    name: 'e-commerce parameters: an unknown kind',
    method: 'GET',
    url: '/_docbench/ecommerce/parameters?kind=orders&stream=1&count=5',
    parameter: 'kind',
  },
  { name: 'persons: a query number past 5', method: 'GET', url: '/persons?q=9', parameter: 'q' },
  { name: 'persons: nested that is no boolean', method: 'GET', url: '/persons?q=1&nested=yes', parameter: 'nested' },
];

async function serviceApp(): Promise<FastifyInstance> {
  const properties = loadWorkload(['workloada'], ['fieldcount=3', 'maxscanlength=50']).properties;
  const layout = tableLayout(properties);
  const store = createBasicStore({ url: 'basic://', settings: { 'basic.store': 'true' }, concurrency: 1 });
  const gate = new StoreGate({
    open: async () => store,
    probe: (s) => s.read(layout.table, 'probe', null),
    retryIntervalMs: 50,
    log: () => {},
  });
  await gate.start();
  const counter = new RequestCounter();
  const app = buildApp({
    gate,
    layout,
    bodyLimitBytes: 64 * 1024,
    counter,
    stats: async () => combineStats([counter.snapshot()], 1),
    info: async () => ({}) as ServiceInfo,
    log: () => {},
    token: null,
    extraRoutes: (a) => {
      registerEcommerceRoutes(a, { gate, settings: ecommerceSettings([]) });
      registerPlanRoute(a, { properties, counter });
      registerPersonsRoutes(a, {
        gate,
        settings: { seed: 1, size: 1000, indexes: false, collection: null },
        log: () => {},
      });
    },
  });
  await app.ready();
  return app;
}

describe('bad input: HTTP requests to every route', () => {
  let app: FastifyInstance | undefined;
  for (const c of HTTP_CASES) {
    it(c.name, async () => {
      app ??= await serviceApp();
      const response = await app.inject({
        method: c.method,
        url: c.url,
        ...(c.body !== undefined ? { payload: c.body, headers: { 'content-type': 'application/json' } } : {}),
      });
      assert.equal(response.statusCode, 400, response.body);
      const body = JSON.parse(response.body) as { parameter?: string; message?: string };
      assert.equal(body.parameter, c.parameter, response.body);
      assert.ok(
        typeof body.message === 'string' && !body.message.includes('\n') && !/\n\s+at /.test(response.body),
        response.body,
      );
    });
  }
});

it('the corpus holds at least 50 cases', () => {
  assert.ok(CLI_CASES.length + HTTP_CASES.length >= 50, `${CLI_CASES.length + HTTP_CASES.length} cases`);
});
