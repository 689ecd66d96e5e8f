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
 *   npx tsx bench/harness-overhead.ts [--stores basic,redis,…] [--rounds 7] [--scale 1] [--shared]
 *
 * Every store of the STORES table is measured by default, with its bare loops and pass size from
 * bench/bare-readers.ts (`--help` lists them).
 *
 * It loads and drops its own table (`harnessbench`) on docbench's local servers (started if needed).
 * Run it on a quiet machine: the figures are per-process CPU, but a busy neighbour still moves them.
 */
import { openStore, type OpenStore, requestOf } from '../src/session/store-session.ts';
import { runLoadPhase, runTransactionPhase } from '../src/runner/phases.ts';
import { STORE_NAMES, type HandleOf, type StoreName } from '../src/stores/stores.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { hasLocalTarget } from '../src/local/targets.ts';
import { pinApart, type Pinning } from './pin-apart.ts';
import { readKeys } from './workload-keys.ts';
import { BARE_READERS, type BareReader, type NotMeasured, type StoreBench } from './bare-readers.ts';
import { benchArgs, namesOf, numberOf } from './bench-args.ts';

/** The stores with a bare loop, in the STORES table's order. */
const MEASURED = STORE_NAMES.filter((name) => !('none' in BARE_READERS[name]));

const { values } = benchArgs({
  script: import.meta.url,
  summary:
    'What docbench itself costs per operation on each store: its workload C beside a bare loop of the same reads on the driver, in interleaved rounds.',
  options: {
    stores: {
      type: 'string',
      default: MEASURED.join(','),
      value: '<list>',
      description: 'stores to measure, in order',
    },
    rounds: { type: 'string', default: '7', value: '<n>', description: 'rounds counted, after one warm-up round' },
    scale: {
      type: 'string',
      default: '1',
      value: '<x>',
      description: "operations per pass as a multiple of each store's (bench/bare-readers.ts), at least 1,000",
    },
    shared: {
      type: 'boolean',
      default: false,
      description: 'leave client and server sharing the CPUs, not pinned apart',
    },
  },
});
const stores = namesOf(import.meta.url, '--stores', values.stores, MEASURED);
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
const scale = numberOf(import.meta.url, '--scale', values.scale, { whole: false, min: 0 });
const WORKERS = 16;
const TABLE = 'harnessbench';

/** How a store is measured (every store of --stores has a bare loop). */
function benchOf(store: StoreName): StoreBench<StoreName> {
  const bench: StoreBench<StoreName> | NotMeasured = BARE_READERS[store];
  if ('none' in bench) throw new Error(`${store} has no bare loop: ${bench.none}`);
  return bench;
}

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

/** The workload's properties for a store: its pass size, its settings, and a loop's (`settings`). */
function overrides(bench: StoreBench<StoreName>, settings: readonly string[] = []): string[] {
  return [
    `recordcount=${bench.records}`,
    `operationcount=${Math.max(1000, Math.round(bench.ops * scale))}`,
    `threadcount=${WORKERS}`,
    `table=${TABLE}`,
    ...(bench.settings ?? []),
    ...settings,
  ];
}

/** docbench's run phase of workload C; every read must find its record. */
async function docbenchPass(
  open: OpenStore,
  store: StoreName,
  round: number,
  settings: readonly string[],
): Promise<Pass> {
  const p = loadWorkload(['workloadc'], overrides(benchOf(store), settings)).properties;
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
function keysOf(store: StoreName, round: number, settings: readonly string[]): string[] {
  return readKeys(loadWorkload(['workloadc'], overrides(benchOf(store), settings)).properties, round);
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

interface Row {
  name: string;
  call: string;
  docbench: Pass[];
  bare: Pass[];
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Row[] = [];
const pinned: string[] = [];

for (const store of stores) {
  const bench = benchOf(store);
  const loadProperties = loadWorkload(['workloadc'], [...overrides(bench), 'batchsize=100']).properties;
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

  const variantRows: { row: Row; reader: BareReader; settings: readonly string[] }[] = [];
  for (const loop of bench.loops) {
    // The handle of the store opened by this name: the one its loops are written for.
    const reader = await loop.open(open.store.handle as HandleOf<StoreName>, open, TABLE);
    variantRows.push({
      row: { name: loop.client ? `${store} (${loop.client})` : store, call: reader.call, docbench: [], bare: [] },
      reader,
      settings: loop.settings ?? [],
    });
  }
  // A loop on settings of its own (a Redis client) is compared with a docbench store opened with
  // them; the others with the one opened above.
  const key = (settings: readonly string[]) => settings.join(' ');
  const opened = new Map<string, OpenStore>([['', open]]);
  for (const { settings } of variantRows)
    if (!opened.has(key(settings)))
      opened.set(
        key(settings),
        await openStore(
          store,
          undefined,
          requestOf(loadWorkload(['workloadc'], overrides(bench, settings)).properties),
        ),
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
      for (const { row, reader, settings } of variantRows) {
        const docbenchFirst = round % 2 === 0;
        const keys = keysOf(store, round, settings);
        const docbenchStore = opened.get(key(settings))!;
        const first = docbenchFirst
          ? await docbenchPass(docbenchStore, store, round, settings)
          : await barePass(reader, keys);
        const second = docbenchFirst
          ? await barePass(reader, keys)
          : await docbenchPass(docbenchStore, store, round, settings);
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
  for (const [settings, o] of opened) if (settings) await o.store.close();
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
