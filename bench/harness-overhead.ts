/**
 * What does docbench itself cost per operation, on each store? In one invocation, per store, in
 * interleaved rounds on the same server and the same loaded table:
 *   1. docbench workload C (100% zipfian reads of 10 x 100 B records), 16 workers;
 *   2. a bare loop: 16 concurrent reads of the same records in the same order (the round's keys,
 *      drawn beforehand as docbench's pass draws them) straight through the store's official
 *      driver, no docbench code at all (bench/bare-readers.ts);
 * (docbench's Redis rate against redis-benchmark is bench/redis-benchmark.ts). The first row,
 * `basic`, is docbench on YCSB's BasicDB keeping its records in memory (no server, no driver)
 * beside a bare loop of the same store's reads: the harness's own cost, free of any server's noise.
 *
 * Prints, per store, ops/s and the client's CPU per operation (user + system of this process,
 * which also counts the drivers' own threads) for both, and their ratio: the median of the
 * rounds' ratios with its range (each round's two passes run back to back, in alternating order,
 * so a machine that drifts between rounds moves both). Target: docbench's CPU per operation
 * <= 1.05 x the bare loop's on every store.
 *
 * Client and server are pinned apart while a store is measured (bench/pin-apart.ts: the server
 * on every CPU but the last, this process on the last), as on separate machines: sharing the
 * cores, a client's CPU per operation depends on how much it leaves the server, which turns a
 * small difference into a large and unsteady one. `--shared` leaves them sharing.
 *
 *   npx tsx bench/harness-overhead.ts [--stores basic,redis,cassandra,mongodb,couchdb,couchbase,hbase] [--rounds 7] [--scale 1] [--shared]
 *
 * It loads and drops its own table (`harnessbench`) on docbench's local servers (started if needed).
 * Run it on a quiet machine: the figures are per-process CPU, but a busy neighbour still moves them.
 */
import { parseArgs } from 'node:util';
import { openStore, type OpenStore, requestOf } from '../src/session/store-session.ts';
import { runLoadPhase, runTransactionPhase } from '../src/runner/phases.ts';
import type { CassandraHandle } from '../src/stores/cassandra/handle.ts';
import type { CouchbaseHandle } from '../src/stores/couchbase/handle.ts';
import type { CouchdbHandle } from '../src/stores/couchdb/handle.ts';
import type { HbaseHandle } from '../src/stores/hbase/handle.ts';
import type { MongodbHandle } from '../src/stores/mongodb/handle.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { hasLocalTarget } from '../src/local/targets.ts';
import { pinApart, type Pinning } from './pin-apart.ts';
import {
  cassandraReader,
  couchbaseReader,
  couchdbReader,
  hbaseReader,
  mongodbReader,
  redisReader,
  storeReader,
  type BareReader,
} from './bare-readers.ts';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: 'basic,redis,cassandra,mongodb,couchdb,couchbase,hbase' },
    rounds: { type: 'string', default: '7' },
    shared: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
  },
});
const rounds = Number(values.rounds);
const WORKERS = 16;
const TABLE = 'harnessbench';

/**
 * Operations per pass and records loaded, per store: two to three seconds a pass at each one's
 * pace here, long enough that a run's fixed costs (about 2 ms) and a collection of the garbage
 * collector fall within the noise.
 */
const SIZES: Record<string, { ops: number; records: number }> = {
  basic: { ops: 1_000_000, records: 10_000 },
  redis: { ops: 150_000, records: 10_000 },
  cassandra: { ops: 60_000, records: 10_000 },
  mongodb: { ops: 12_000, records: 10_000 },
  couchdb: { ops: 1_500, records: 2_000 },
  couchbase: { ops: 30_000, records: 10_000 },
  hbase: { ops: 5_000, records: 10_000 },
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
  const storeSettings = store === 'basic' ? ['basic.store=true'] : driver ? [`redis.driver=${driver}`] : [];
  return [
    `recordcount=${records}`,
    `operationcount=${ops}`,
    `threadcount=${WORKERS}`,
    `table=${TABLE}`,
    ...storeSettings,
  ];
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
    const outcome = await runTransactionPhase({
      store: open.store,
      workload,
      properties: p,
      status: false,
      label: store,
    });
    ok = outcome.measurements.statusCounts('READ').get('OK') ?? 0;
  });
  if (ok !== p.operationcount) throw new Error(`docbench on ${store} read ${ok} of ${p.operationcount} records OK`);
  return pass;
}

/**
 * The keys docbench's pass of a round reads, in the order it issues them: the same workload,
 * drawn with the same calls in the same order, before the bare loop's clock starts. Both passes
 * then ask the server for the same records in the same order: a bare loop that replayed one
 * sequence every round would find the server's caches warmer for it (measured on Couchbase: 3-6%
 * less client CPU per operation, because a quicker server means more replies per wake-up).
 */
function keysOf(store: string, round: number, driver?: string): string[] {
  const p = loadWorkload(['workloadc'], overrides(store, driver)).properties;
  const workload = new CoreWorkload(p, new Random(round));
  return Array.from({ length: p.operationcount }, () => {
    workload.nextOperation();
    const key = workload.nextTransactionKey();
    workload.readFields();
    return key;
  });
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

function readerFor(store: string, open: OpenStore): BareReader {
  const handle = open.store.handle;
  if (store === 'cassandra') return cassandraReader(handle as CassandraHandle, TABLE);
  if (store === 'mongodb') return mongodbReader(handle as MongodbHandle, TABLE);
  if (store === 'couchdb') return couchdbReader(handle as CouchdbHandle, TABLE);
  if (store === 'couchbase') return couchbaseReader(handle as CouchbaseHandle);
  if (store === 'hbase') return hbaseReader(handle as HbaseHandle, TABLE);
  if (store === 'basic') return storeReader(open, TABLE);
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
const pinned: string[] = [];

for (const store of values.stores.split(',')) {
  const loadProperties = loadWorkload(['workloadc'], [...overrides(store), 'batchsize=100']).properties;
  const open = await openStore(store, undefined, requestOf(loadProperties));
  const schema = { table: TABLE, fieldNames: Array.from({ length: loadProperties.fieldcount }, (_, i) => `field${i}`) };
  await open.store.drop(schema);
  await open.store.prepare(schema);
  await runLoadPhase({
    store: open.store,
    workload: new CoreWorkload(loadProperties, new Random(1)),
    properties: loadProperties,
    status: false,
    label: 'load',
  });

  // Redis has two clients, and two bare loops each: the driver's own record read, and the raw reply.
  const variants: { driver?: 'ioredis' | 'node-redis'; raw?: boolean }[] =
    store === 'redis'
      ? [
          { driver: 'ioredis' },
          { driver: 'ioredis', raw: true },
          { driver: 'node-redis' },
          { driver: 'node-redis', raw: true },
        ]
      : [{}];
  const variantRows: { row: Row; reader: BareReader; driver?: 'ioredis' | 'node-redis' }[] = [];
  for (const { driver, raw } of variants) {
    const reader = driver ? await redisReader(driver, open.url, TABLE, raw) : readerFor(store, open);
    variantRows.push({
      row: { name: driver ? `${store} (${driver})` : store, call: reader.call, docbench: [], bare: [] },
      reader,
      ...(driver ? { driver } : {}),
    });
  }
  // Each redis.driver needs its own docbench store; the others run on the one opened above.
  const opened = new Map<string | undefined, OpenStore>([[undefined, open]]);
  for (const { driver } of variants)
    if (driver && !opened.has(driver))
      opened.set(
        driver,
        await openStore(store, undefined, requestOf(loadWorkload(['workloadc'], overrides(store, driver)).properties)),
      );

  const pinning: Pinning | undefined = !values.shared && hasLocalTarget(store) ? await pinApart(store) : undefined;
  if (pinning) {
    pinned.push(`${store}: ${pinning.description}`);
    console.error(`${store}: ${pinning.description}`);
  }
  // Round 0 warms up the JIT, the pools and the server's caches; it is not counted. The two
  // passes of a round run back to back, first one then the other, in turn.
  try {
    for (let round = 0; round <= rounds; round++) {
      for (const { row, reader, driver } of variantRows) {
        const docbenchFirst = round % 2 === 0;
        const keys = keysOf(store, round, driver);
        const first = docbenchFirst
          ? await docbenchPass(opened.get(driver)!, store, round, driver)
          : await barePass(reader, keys);
        const second = docbenchFirst
          ? await barePass(reader, keys)
          : await docbenchPass(opened.get(driver)!, store, round, driver);
        if (round === 0) continue;
        const [docbench, bare] = docbenchFirst ? [first, second] : [second, first];
        row.docbench.push(docbench);
        row.bare.push(bare);
        console.error(
          `${row.name} / ${row.call} round ${round}: docbench ${Math.round(docbench.opsPerSec)} ops/s ${docbench.cpuUsPerOp.toFixed(2)} us/op; bare ${Math.round(bare.opsPerSec)} ops/s ${bare.cpuUsPerOp.toFixed(2)} us/op`,
        );
      }
    }
  } finally {
    pinning?.restore();
  }
  rows.push(...variantRows.map((v) => v.row));
  for (const { reader } of variantRows) await reader.close();
  for (const [driver, o] of opened) if (driver) await o.store.close();
  await open.store.drop(schema);
  await open.store.close();
}

console.log(
  `client cost per operation: docbench workload C vs a bare driver loop, ${WORKERS} in flight, ${rounds} interleaved rounds (medians; the ratio is the median of the rounds' ratios, with their range)`,
);
console.log(
  "| store | bare loop | bare ops/s | docbench ops/s | bare CPU us/op | docbench CPU us/op | CPU ratio (target <= 1.05) | rounds' ratios |",
);
console.log('|---|---|--:|--:|--:|--:|--:|--:|');
for (const row of rows) {
  const d = { ops: median(row.docbench.map((p) => p.opsPerSec)), cpu: median(row.docbench.map((p) => p.cpuUsPerOp)) };
  const b = { ops: median(row.bare.map((p) => p.opsPerSec)), cpu: median(row.bare.map((p) => p.cpuUsPerOp)) };
  const ratios = row.docbench.map((p, i) => p.cpuUsPerOp / row.bare[i]!.cpuUsPerOp);
  const digits = b.cpu < 1 ? 3 : 1;
  const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
  console.log(
    `| ${row.name} | ${row.call} | ${Math.round(b.ops).toLocaleString('en-US')} | ${Math.round(d.ops).toLocaleString('en-US')} | ${b.cpu.toFixed(digits)} | ${d.cpu.toFixed(digits)} | ${median(ratios).toFixed(2)} | ${range} |`,
  );
}
console.log(pinned.length > 0 ? `client and server apart: ${pinned.join('; ')}` : 'client and server shared the CPUs');
process.exit(0);
