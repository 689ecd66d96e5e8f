/**
 * What does docbench itself cost per operation, on each store? In one invocation, per store, in
 * interleaved rounds on the same server and the same loaded table:
 *   1. docbench workload C (100% zipfian reads of 10 x 100 B records), 16 workers;
 *   2. a bare loop: 16 concurrent reads of the same number of records (keys drawn beforehand from
 *      the same workload) straight through the store's official driver, no docbench code at all
 *      (bench/bare-readers.ts);
 * and on Redis also 3. `redis-benchmark -t get -c 16 -P 1` (C client, GET of 3 bytes: the
 * issue's yardstick) and redis-benchmark doing HGETALL of one loaded record.
 *
 * Prints, per store, ops/s and the client's CPU per operation (user + system of this process,
 * which also counts the drivers' own threads) for both, and the ratio. Targets: docbench's CPU
 * per operation <= 1.05 x the bare loop's on every store; on Redis docbench >= 0.8 of
 * redis-benchmark's GET rate (YCSB 0.17.0's Java client reached about 0.6 on this kind of machine).
 *
 *   npx tsx bench/harness-overhead.ts [--stores redis,cassandra,mongodb,couchdb,couchbase] [--rounds 3] [--scale 1]
 *
 * It loads and drops its own table (`harnessbench`) on docbench's local servers (started if needed).
 * Run it on a quiet machine: the figures are per-process CPU, but a busy neighbour still moves them.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { openStore, type OpenStore } from '../src/cli/store-session.ts';
import { runLoadPhase, runTransactionPhase } from '../src/runner/phases.ts';
import type { CassandraHandle } from '../src/stores/cassandra/handle.ts';
import type { CouchbaseHandle } from '../src/stores/couchbase/handle.ts';
import type { CouchdbHandle } from '../src/stores/couchdb/handle.ts';
import type { MongodbHandle } from '../src/stores/mongodb/handle.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { cassandraReader, couchbaseReader, couchdbReader, mongodbReader, redisReader, type BareReader } from './bare-readers.ts';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'redis,cassandra,mongodb,couchdb,couchbase' },
    rounds: { type: 'string', default: '3' },
    scale: { type: 'string', default: '1' },
  },
});
const rounds = Number(values.rounds);
const WORKERS = 16;
const TABLE = 'harnessbench';

/** Operations per round and records loaded, per store: a few seconds a round at each one's pace here. */
const SIZES: Record<string, { ops: number; records: number }> = {
  redis: { ops: 100_000, records: 10_000 },
  cassandra: { ops: 20_000, records: 10_000 },
  mongodb: { ops: 5_000, records: 10_000 },
  couchdb: { ops: 1_000, records: 2_000 },
  couchbase: { ops: 20_000, records: 10_000 },
};

/** One measured pass: how many reads, how long, how much CPU this process spent. */
interface Pass {
  opsPerSec: number;
  cpuUsPerOp: number;
}

async function measure(ops: number, body: () => Promise<void>): Promise<Pass> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await body();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { opsPerSec: (ops * 1000) / ms, cpuUsPerOp: (used.user + used.system) / ops };
}

function overrides(store: string, driver?: string): string[] {
  const { ops, records } = scaled(store);
  return [`recordcount=${records}`, `operationcount=${ops}`, `threadcount=${WORKERS}`, `table=${TABLE}`, ...(driver ? [`redis.driver=${driver}`] : [])];
}

function scaled(store: string): { ops: number; records: number } {
  const size = SIZES[store]!;
  return { ops: Math.max(1000, Math.round(size.ops * Number(values.scale))), records: size.records };
}

/** docbench's run phase of workload C; every read must find its record. */
async function docbenchPass(open: OpenStore, store: string, round: number, driver?: string): Promise<Pass> {
  const p = loadWorkload(['workloadc'], overrides(store, driver)).properties;
  const workload = new CoreWorkload(p, new Random(round));
  let ok = 0;
  const pass = await measure(p.operationcount, async () => {
    const outcome = await runTransactionPhase({ store: open.store, workload, properties: p, status: false, label: store });
    ok = outcome.measurements.statusCounts('READ').get('OK') ?? 0;
  });
  if (ok !== p.operationcount) throw new Error(`docbench on ${store} read ${ok} of ${p.operationcount} records OK`);
  return pass;
}

/** The bare driver loop: WORKERS reads in flight over the given keys. */
async function barePass(reader: BareReader, keys: readonly string[]): Promise<Pass> {
  let next = 0;
  let found = 0;
  const pass = await measure(keys.length, async () => {
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (next < keys.length) if (await reader.read(keys[next++]!)) found++;
      }),
    );
  });
  if (found !== keys.length) throw new Error(`the bare loop found ${found} of ${keys.length} records`);
  return pass;
}

function redisBenchmark(url: string, ops: number, args: string[]): number {
  const port = new URL(url).port;
  const text = execFileSync('redis-benchmark', ['-h', '127.0.0.1', '-p', port, '-c', String(WORKERS), '-P', '1', '-n', String(ops), '-q', ...args], { encoding: 'utf8' });
  const line = text.replace(/\r/g, '\n').split('\n').filter((l) => l.includes('requests per second')).at(-1) ?? '';
  const match = /: ([\d.]+) requests per second/.exec(line);
  if (!match) throw new Error(`cannot read redis-benchmark's output: ${text}`);
  return Number(match[1]);
}

function readerFor(store: string, open: OpenStore): BareReader {
  const handle = open.store.handle;
  if (store === 'cassandra') return cassandraReader(handle as CassandraHandle, TABLE);
  if (store === 'mongodb') return mongodbReader(handle as MongodbHandle, TABLE);
  if (store === 'couchdb') return couchdbReader(handle as CouchdbHandle, TABLE);
  if (store === 'couchbase') return couchbaseReader(handle as CouchbaseHandle);
  throw new Error(`no bare reader for ${store}`);
}

interface Row {
  name: string;
  call: string;
  docbench: Pass[];
  bare: Pass[];
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Row[] = [];
const benchmarks: Record<string, number[]> = { GET: [], HGETALL: [] };

for (const store of values.stores.split(',')) {
  const loadProperties = loadWorkload(['workloadc'], [...overrides(store), 'batchsize=100']).properties;
  const open = await openStore(store, undefined, loadProperties);
  const schema = { table: TABLE, fieldNames: Array.from({ length: loadProperties.fieldcount }, (_, i) => `field${i}`) };
  await open.store.drop(schema);
  await open.store.prepare(schema);
  await runLoadPhase({ store: open.store, workload: new CoreWorkload(loadProperties, new Random(1)), properties: loadProperties, status: false, label: 'load' });
  // The bare loop reads the keys docbench's workload would: drawn up front, so no generator runs in its loop.
  const keyMaker = new CoreWorkload(loadProperties, new Random(99));
  const keys = Array.from({ length: loadProperties.operationcount }, () => keyMaker.nextTransactionKey());

  const drivers = store === 'redis' ? (['ioredis', 'node-redis'] as const) : [undefined];
  const storeRows = new Map<string | undefined, Row>();
  const readers = new Map<string | undefined, BareReader>();
  for (const driver of drivers) {
    const reader = driver ? await redisReader(driver, open.url, TABLE) : readerFor(store, open);
    readers.set(driver, reader);
    storeRows.set(driver, { name: driver ? `${store} (${driver})` : store, call: reader.call, docbench: [], bare: [] });
  }
  // Each redis.driver needs its own docbench store; the others run on the one opened above.
  const opened = new Map<string | undefined, OpenStore>();
  for (const driver of drivers) opened.set(driver, driver ? await openStore(store, undefined, loadWorkload(['workloadc'], overrides(store, driver)).properties) : open);

  // Round 0 warms up the JIT, the pools and the server's caches; it is not counted.
  for (let round = 0; round <= rounds; round++) {
    for (const driver of drivers) {
      const row = storeRows.get(driver)!;
      const docbench = await docbenchPass(opened.get(driver)!, store, round, driver);
      const bare = await barePass(readers.get(driver)!, keys);
      if (round === 0) continue;
      row.docbench.push(docbench);
      row.bare.push(bare);
      console.error(`${row.name} round ${round}: docbench ${Math.round(row.docbench.at(-1)!.opsPerSec)} ops/s ${row.docbench.at(-1)!.cpuUsPerOp.toFixed(1)} us/op; bare ${Math.round(row.bare.at(-1)!.opsPerSec)} ops/s ${row.bare.at(-1)!.cpuUsPerOp.toFixed(1)} us/op`);
    }
    if (store === 'redis' && round > 0) {
      benchmarks.GET!.push(redisBenchmark(open.url, keys.length, ['-t', 'get']));
      benchmarks.HGETALL!.push(redisBenchmark(open.url, keys.length, ['hgetall', `${TABLE}:${keys[0]!}`]));
    }
  }
  rows.push(...storeRows.values());
  for (const reader of readers.values()) await reader.close();
  for (const [driver, o] of opened) if (driver) await o.store.close();
  await open.store.drop(schema);
  await open.store.close();
}

console.log(`client cost per operation: docbench workload C vs a bare driver loop, ${WORKERS} in flight, medians of ${rounds} interleaved rounds`);
console.log('| store | bare loop | bare ops/s | docbench ops/s | bare CPU us/op | docbench CPU us/op | CPU ratio (target <= 1.05) |');
console.log('|---|---|--:|--:|--:|--:|--:|');
for (const row of rows) {
  const d = { ops: median(row.docbench.map((p) => p.opsPerSec)), cpu: median(row.docbench.map((p) => p.cpuUsPerOp)) };
  const b = { ops: median(row.bare.map((p) => p.opsPerSec)), cpu: median(row.bare.map((p) => p.cpuUsPerOp)) };
  console.log(`| ${row.name} | ${row.call} | ${Math.round(b.ops).toLocaleString('en-US')} | ${Math.round(d.ops).toLocaleString('en-US')} | ${b.cpu.toFixed(1)} | ${d.cpu.toFixed(1)} | ${(d.cpu / b.cpu).toFixed(2)} |`);
}
if (benchmarks.GET!.length > 0) {
  const redisRows = rows.filter((r) => r.name.startsWith('redis'));
  const best = Math.max(...redisRows.map((r) => median(r.docbench.map((p) => p.opsPerSec))));
  const get = median(benchmarks.GET!);
  const hgetall = median(benchmarks.HGETALL!);
  console.log(`redis-benchmark -c ${WORKERS} -P 1: GET ${Math.round(get).toLocaleString('en-US')} ops/s, HGETALL of a record ${Math.round(hgetall).toLocaleString('en-US')} ops/s`);
  console.log(`docbench (best driver) / redis-benchmark GET: ${(best / get).toFixed(2)} (target >= 0.80); / HGETALL: ${(best / hgetall).toFixed(2)} (same server work per operation)`);
}
process.exit(0);
