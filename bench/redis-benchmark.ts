/**
 * docbench against redis-benchmark, on the same Redis server in one invocation: YCSB workload C
 * (zipfian reads of 10 x 100 B records), 16 workers, with 1, 2 and 3 processes, one or two
 * connections a process (`redis.connections`) and either client, beside `redis-benchmark -t get -c 16 -P 1` (16 connections, one request in flight on
 * each: GET of a 3-byte value, the yardstick) and redis-benchmark doing HGETALL of one
 * loaded record (the same server work as a docbench read). Rounds are interleaved, so a machine
 * that drifts moves every figure alike; each figure is the median of the rounds.
 * Target: docbench >= 0.8 x redis-benchmark's GET rate.
 *
 * Also prints the client CPU per operation (user + system of this process and its worker
 * threads) and how busy the whole machine was (from /proc/stat): more processes do more
 * operations only while the machine has cores to give them, and here Redis shares the client's.
 *
 *   npx tsx bench/redis-benchmark.ts [--ops 200000] [--rounds 5] [--processes 1,2,3] [--connections 1,2] [--drivers ioredis,node-redis,ioredis+autopipelining]
 *
 * (`ioredis+autopipelining` is ioredis with `redis.autopipelining=true`: commands issued in one
 * event-loop turn leave in one socket write.)
 *
 * It loads and drops its own table (`redisbench`) on docbench's local Redis (started if needed).
 */
import { execFileSync } from 'node:child_process';
import { openStore, type OpenStore, requestOf } from '../src/session/store-session.ts';
import { runLoadPhase, runTransactionPhase } from '../src/runner/phases.ts';
import { ProcessPool } from '../src/runner/process-pool.ts';
import { settingsOf, storeName } from '../src/stores/stores.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { benchArgs, numberOf } from './bench-args.ts';

const { values } = benchArgs({
  script: import.meta.url,
  summary:
    'docbench against redis-benchmark on the same Redis server: workload C with 1-3 processes and either client.',
  options: {
    ops: { type: 'string', default: '200000', value: '<n>', description: 'operations a docbench pass' },
    rounds: { type: 'string', default: '5', value: '<n>', description: 'rounds counted, after one warm-up round' },
    processes: { type: 'string', default: '1,2,3', value: '<list>', description: 'process counts' },
    connections: {
      type: 'string',
      default: '1,2',
      value: '<list>',
      description: 'connections a process (redis.connections)',
    },
    drivers: {
      type: 'string',
      default: 'ioredis,node-redis',
      value: '<list>',
      description: 'clients (redis.driver); ioredis+autopipelining is ioredis with redis.autopipelining=true',
    },
  },
});
const WORKERS = 16;
const TABLE = 'redisbench';
const ops = numberOf(import.meta.url, '--ops', values.ops);
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
const processCounts = values.processes.split(',').map((n) => numberOf(import.meta.url, '--processes', n));
const connectionCounts = values.connections.split(',').map((n) => numberOf(import.meta.url, '--connections', n));
const drivers = values.drivers.split(',');
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

/** A --drivers entry as redis.* settings: `ioredis+autopipelining` is ioredis with redis.autopipelining=true. */
function driverSettings(driver: string): string[] {
  const [client, option] = driver.split('+');
  return [`redis.driver=${client}`, ...(option === 'autopipelining' ? ['redis.autopipelining=true'] : [])];
}
const overrides = (driver: string, connections = 1) => [
  'recordcount=10000',
  `operationcount=${ops}`,
  `threadcount=${WORKERS}`,
  `table=${TABLE}`,
  `redis.connections=${connections}`,
  ...driverSettings(driver),
];
const loadProperties = loadWorkload(['workloadc'], [...overrides('ioredis'), 'batchsize=100']).properties;
const open = await openStore('redis', undefined, requestOf(loadProperties));
const schema = { table: TABLE, fieldNames: Array.from({ length: loadProperties.fieldcount }, (_, i) => `field${i}`) };
await open.store.drop(schema);
await runLoadPhase({
  store: open.store,
  workload: new CoreWorkload(loadProperties, new Random(1)),
  properties: loadProperties,
  status: false,
  label: 'load',
});
const port = new URL(open.url).port;

/** One configuration of docbench: a driver, a process count and connections a process (pools started once, reused every round). */
interface Config {
  name: string;
  overrides: string[];
  store: OpenStore;
  pool?: ProcessPool;
  rates: number[];
  cpuUsPerOp: number[];
  machineBusy: number[];
}

const configs: Config[] = [];
for (const driver of drivers) {
  for (const connections of connectionCounts) {
    const settings = overrides(driver, connections);
    const properties = loadWorkload(['workloadc'], settings).properties;
    const store = await openStore('redis', open.url, requestOf(properties));
    for (const processes of processCounts) {
      const pool =
        processes > 1
          ? await ProcessPool.start({
              store: 'redis',
              url: open.url,
              settings: settingsOf(storeName('redis'), properties.passthrough),
              threadcount: WORKERS,
              processes,
            })
          : undefined;
      const name = `docbench, ${driver}, ${processes} process${processes > 1 ? 'es' : ''} x ${connections} connection${connections > 1 ? 's' : ''}`;
      configs.push({
        name,
        overrides: settings,
        store,
        ...(pool ? { pool } : {}),
        rates: [],
        cpuUsPerOp: [],
        machineBusy: [],
      });
    }
  }
}

async function docbenchRound(config: Config, round: number): Promise<void> {
  const p = loadWorkload(['workloadc'], config.overrides).properties;
  const cpu = process.cpuUsage();
  const outcome = await runTransactionPhase({
    store: config.store.store,
    workload: new CoreWorkload(p, new Random(round)),
    properties: p,
    status: false,
    label: 'redis',
    ...(config.pool ? { pool: config.pool } : {}),
  });
  const used = process.cpuUsage(cpu);
  const ok = outcome.measurements.statusCounts('READ').get('OK') ?? 0;
  if (ok !== ops) throw new Error(`${config.name}: ${ok} of ${ops} reads OK`);
  config.rates.push((outcome.measurements.measuredOperations * 1000) / outcome.runtimeMs);
  config.cpuUsPerOp.push((used.user + used.system) / ops);
  config.machineBusy.push(outcome.cpu.machine?.busyPercent ?? Number.NaN);
}

function redisBenchmark(args: string[]): number {
  const text = execFileSync(
    'redis-benchmark',
    ['-h', '127.0.0.1', '-p', port, '-c', String(WORKERS), '-P', '1', '-n', String(ops), '-q', ...args],
    { encoding: 'utf8' },
  );
  const line =
    text
      .replace(/\r/g, '\n')
      .split('\n')
      .filter((l) => l.includes('requests per second'))
      .at(-1) ?? '';
  const match = /: ([\d.]+) requests per second/.exec(line);
  if (!match) throw new Error(`cannot read redis-benchmark's output: ${text}`);
  return Number(match[1]);
}

const get: number[] = [];
const hgetall: number[] = [];
const recordKey = `${TABLE}:${new CoreWorkload(loadProperties, new Random(5)).nextTransactionKey()}`;
try {
  // Round 0 warms up the JIT, the worker threads' connections and the server; it is not counted.
  for (let round = 0; round <= rounds; round++) {
    const rates: string[] = [];
    for (const config of configs) {
      await docbenchRound(config, round);
      rates.push(fmt(config.rates.at(-1)!));
      if (round === 0) {
        config.rates.length = 0;
        config.cpuUsPerOp.length = 0;
        config.machineBusy.length = 0;
      }
    }
    const g = redisBenchmark(['-t', 'get']);
    const h = redisBenchmark(['hgetall', recordKey]);
    if (round > 0) {
      get.push(g);
      hgetall.push(h);
    }
    console.error(
      `round ${round}: docbench ${rates.join(' / ')} ops/s; redis-benchmark GET ${fmt(g)}, HGETALL ${fmt(h)}`,
    );
  }
} finally {
  for (const config of configs) await config.pool?.close();
  for (const store of new Set(configs.map((c) => c.store))) await store.store.close();
  await open.store.drop(schema);
  await open.store.close();
}

const g = median(get);
const h = median(hgetall);
console.log(
  `Redis on 127.0.0.1:${port}, workload C (10,000 records of 10 x 100 B), ${WORKERS} workers, ${fmt(ops)} operations a pass, ${rounds} interleaved rounds (medians)`,
);
console.log(`redis-benchmark -c ${WORKERS} -P 1: GET ${fmt(g)} ops/s, HGETALL of a record ${fmt(h)} ops/s`);
console.log(
  '| client | ops/s | / redis-benchmark GET (target >= 0.80) | / redis-benchmark HGETALL | client CPU us/op | machine busy |',
);
console.log('|---|--:|--:|--:|--:|--:|');
for (const c of configs) {
  const rate = median(c.rates);
  console.log(
    `| ${c.name} | ${fmt(rate)} | ${(rate / g).toFixed(2)} | ${(rate / h).toFixed(2)} | ${median(c.cpuUsPerOp).toFixed(1)} | ${median(c.machineBusy).toFixed(0)}% |`,
  );
}
process.exit(0);
