/**
 * Which Node client for HBase? HBase has no official Node.js driver; this bench puts docbench's own
 * REST client (protobuf and JSON cell sets) beside npm `hbase` (the REST client on npm; JSON only,
 * callbacks) on the same gateway: 16 reads of one whole record in flight, the same keys in the same
 * order for each, in interleaved rounds of one invocation, and reports each client's CPU per read
 * (user + system of this process) and reads per second. The README's Stores section quotes it.
 *
 *   npm install --no-save hbase@0.6.1          # once: npm `hbase` is no dependency of docbench
 *   npx tsx bench/hbase-clients.ts [--reads 3000] [--rounds 7]
 *
 * It loads and drops its own table (`clientbench`, 2,000 records of 10 x 100 B) on docbench's
 * local HBase (started if needed). Client and server share the machine's cores here.
 */
import { createRequire } from 'node:module';
import { openStore, requestOf } from '../src/session/store-session.ts';
import { runLoadPhase } from '../src/runner/phases.ts';
import type { HbaseHandle } from '../src/stores/hbase/handle.ts';
import { createStore } from '../src/stores/hbase/index.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { benchArgs, numberOf } from './bench-args.ts';

const { values } = benchArgs({
  script: import.meta.url,
  summary: "docbench's HBase REST client (protobuf and JSON) beside npm hbase: CPU per read and reads per second.",
  options: {
    reads: { type: 'string', default: '3000', value: '<n>', description: 'reads per client and round' },
    rounds: { type: 'string', default: '7', value: '<n>', description: 'interleaved rounds' },
  },
});
const reads = numberOf(import.meta.url, '--reads', values.reads);
const roundCount = numberOf(import.meta.url, '--rounds', values.rounds);
const TABLE = 'clientbench';
const RECORDS = 2000;
const IN_FLIGHT = 16;

type Read = (key: string) => Promise<boolean>;

/** npm `hbase`, when installed beside docbench (see the header). */
function npmHbase(url: URL): Read {
  let hbase: (options: { host: string; port: number }) => {
    table(name: string): {
      row(key: string): { get(column: string, callback: (error: unknown, cells: unknown[]) => void): void };
    };
  };
  try {
    hbase = createRequire(import.meta.url)('hbase');
  } catch {
    console.error('npm hbase is not installed: npm install --no-save hbase@0.6.1 (it is no dependency of docbench)');
    process.exit(2);
  }
  const client = hbase({ host: url.hostname, port: Number(url.port) });
  return (key) =>
    new Promise((resolve, reject) =>
      client
        .table(TABLE)
        .row(key)
        .get('family', (error, cells) => (error ? reject(error) : resolve(cells.length > 0))),
    );
}

async function pass(read: Read, keys: readonly string[]): Promise<{ cpuUsPerRead: number; readsPerSec: number }> {
  let next = 0;
  let found = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < keys.length) if (await read(keys[next++]!)) found++;
    }),
  );
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (found !== keys.length) throw new Error(`found ${found} of ${keys.length} records`);
  return { cpuUsPerRead: (used.user + used.system) / keys.length, readsPerSec: (keys.length * 1000) / ms };
}

const properties = loadWorkload(
  ['workloadc'],
  [`recordcount=${RECORDS}`, `table=${TABLE}`, 'threadcount=8'],
).properties;
const open = await openStore('hbase', undefined, requestOf(properties));
const schema = { table: TABLE, fieldNames: new CoreWorkload(properties, new Random(1)).fieldNames };
await open.store.drop(schema);
await open.store.prepare(schema);
await runLoadPhase({
  store: open.store,
  workload: new CoreWorkload(properties, new Random(1)),
  properties,
  status: false,
  label: 'load',
});

const url = new URL(open.url.replace(/^hbase\+rest/, 'http'));
const stores = (['protobuf', 'json'] as const).map((format) =>
  createStore({ url: open.url, settings: { 'hbase.format': format }, concurrency: IN_FLIGHT }),
);
for (const s of stores) await s.connect();
const viaHandle =
  (handle: HbaseHandle): Read =>
  async (key) =>
    (await handle.get(TABLE, key)) !== null;
const clients: [string, Read][] = [
  ["docbench's client, protobuf (handle.get)", viaHandle(stores[0]!.handle)],
  ["docbench's client, JSON (handle.get)", viaHandle(stores[1]!.handle)],
  ['npm hbase 0.6.1, JSON (row.get)', npmHbase(url)],
];

const workload = new CoreWorkload(properties, new Random(7));
const keys = Array.from({ length: reads }, () => workload.nextTransactionKey());
for (const [, read] of clients) await pass(read, keys.slice(0, 500));
const rounds = new Map<string, { cpuUsPerRead: number; readsPerSec: number }[]>();
for (let round = 0; round < roundCount; round++) {
  const order = round % 2 === 0 ? clients : [...clients].reverse();
  for (const [name, read] of order) rounds.set(name, [...(rounds.get(name) ?? []), await pass(read, keys)]);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(
  `HBase clients: ${IN_FLIGHT} reads in flight, ${reads} reads a round, ${roundCount} interleaved rounds (medians; CPU of every round)`,
);
console.log('| client | CPU us/read | reads/s | rounds |\n|---|--:|--:|---|');
for (const [name, rs] of rounds) {
  console.log(
    `| ${name} | ${median(rs.map((r) => r.cpuUsPerRead)).toFixed(0)} | ${median(rs.map((r) => r.readsPerSec)).toFixed(0)} | ${rs.map((r) => r.cpuUsPerRead.toFixed(0)).join(' ')} |`,
  );
}
for (const s of stores) await s.close();
await open.store.drop(schema);
await open.store.close();
process.exit(0);
