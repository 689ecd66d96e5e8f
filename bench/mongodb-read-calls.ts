/**
 * Which call of the official `mongodb` driver reads a YCSB record for the least client CPU? In
 * one invocation, on docbench's local MongoDB server and one loaded table, each candidate call
 * reads the same records in the same order (the round's keys, drawn as docbench's workload C
 * draws them), 16 in flight, in rounds: in each round every candidate runs back to back with a
 * pass of `findOne` (docbench's read before this bench), first or second in turn, and the
 * candidates' order rotates from round to round, so a machine that drifts moves both passes of a
 * pair alike.
 *
 * Before any pass is timed, every candidate reads a sample of keys (and one missing key) and its
 * record must equal `findOne`'s, field for field: a call that is cheaper but answers something
 * else is not a candidate.
 *
 * Prints, per candidate, the medians of its passes' ops/s and client CPU per read (user + system
 * of this process, over the pass), and the median of its CPU ratios to the `findOne` pass beside
 * it, with their range. Client and server are pinned apart as in
 * bench/harness-overhead.ts (bench/pin-apart.ts; `--shared` leaves them together).
 *
 *   npx tsx bench/mongodb-read-calls.ts [--rounds 7] [--ops 12000] [--only a,b] [--shared]
 *
 * It loads and drops its own collection (`readcallsbench`, 10,000 records of workload C: ten
 * fields of 100 bytes) on docbench's local server (started if needed); `--url` measures another.
 * The figures and what they decided are in docs/harness-benchmarks.md.
 */
import {
  MongoClient,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import { isDeepStrictEqual } from 'node:util';
import { runLoadPhase } from '../src/runner/phases.ts';
import { openStore, requestOf } from '../src/session/store-session.ts';
import type { MongodbHandle } from '../src/stores/mongodb/handle.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { benchArgs, numberOf } from './bench-args.ts';
import { pinApart, type Pinning } from './pin-apart.ts';
import { readKeys } from './workload-keys.ts';

const WORKERS = 16;
const TABLE = 'readcallsbench';
const RECORDS = 10_000;

/** Reads one whole record; null when there is none. */
type Read = (key: string) => Promise<Document | null>;

interface Candidate {
  readonly name: string;
  /** Options of a client of its own, besides the URL's and the pool size docbench sets; none: docbench's client. */
  readonly clientOptions?: MongoClientOptions;
  /** The read on a collection of that client. */
  make(collection: Collection<{ _id: string }>, db: Db, client: MongoClient): Read | Promise<Read>;
}

/** `find` as a database command: the first batch's document, without a cursor object. */
const findCommand = (db: Db, table: string, key: string, options: Document = {}) =>
  db.command({ find: table, filter: { _id: key }, limit: 1, singleBatch: true }, options);

/**
 * Explicit sessions, one per operation in flight, reused: what the driver otherwise makes and
 * ends for every operation (an implicit session). Causal consistency off, as the implicit
 * session has it: on, each read would carry afterClusterTime.
 */
function sessionPool(client: MongoClient): { take(): ClientSession; give(s: ClientSession): void } {
  const free: ClientSession[] = [];
  return {
    take: () => free.pop() ?? client.startSession({ causalConsistency: false }),
    give: (s) => void free.push(s),
  };
}

const CANDIDATES: readonly Candidate[] = [
  { name: 'findOne', make: (c) => (key) => c.findOne({ _id: key }) },
  {
    name: 'find.limit1.next',
    // findOne without its cursor.close(): a singleBatch cursor the server closed (id 0) is done.
    make: (c) => (key) => c.find({ _id: key }, { limit: 1, singleBatch: true }).next(),
  },
  {
    name: 'find.batch1.toArray',
    make: (c) => async (key) => (await c.find({ _id: key }, { limit: 1, batchSize: 1 }).toArray())[0] ?? null,
  },
  {
    name: 'command find',
    make: (c, db) => async (key) =>
      ((await findCommand(db, c.collectionName, key)).cursor.firstBatch[0] as Document) ?? null,
  },
  {
    name: 'findOne noUtf8Check',
    make: (c) => (key) => c.findOne({ _id: key }, { enableUtf8Validation: false }),
  },
  {
    name: 'command find noUtf8Check',
    make: (c, db) => async (key) =>
      ((await findCommand(db, c.collectionName, key, { enableUtf8Validation: false })).cursor
        .firstBatch[0] as Document) ?? null,
  },
  {
    name: 'findOne sessionPool',
    make: (c, _db, client) => {
      const pool = sessionPool(client);
      return async (key) => {
        const session = pool.take();
        try {
          return await c.findOne({ _id: key }, { session });
        } finally {
          pool.give(session);
        }
      };
    },
  },
  {
    name: 'command find sessionPool',
    make: (c, db, client) => {
      const pool = sessionPool(client);
      return async (key) => {
        const session = pool.take();
        try {
          return ((await findCommand(db, c.collectionName, key, { session })).cursor.firstBatch[0] as Document) ?? null;
        } finally {
          pool.give(session);
        }
      };
    },
  },
  {
    name: 'findOne poll-monitor',
    clientOptions: { serverMonitoringMode: 'poll' },
    make: (c) => (key) => c.findOne({ _id: key }),
  },
];

const { values } = benchArgs({
  script: import.meta.url,
  summary:
    "The official driver's candidate calls for a YCSB read, same records in the same order, in interleaved rounds.",
  options: {
    rounds: { type: 'string', default: '7', value: '<n>', description: 'rounds counted, after one warm-up round' },
    ops: { type: 'string', default: '12000', value: '<n>', description: 'reads per pass' },
    only: {
      type: 'string',
      value: '<list>',
      description: `candidates to measure (findOne always): ${CANDIDATES.map((c) => c.name).join(', ')}`,
    },
    url: { type: 'string', value: '<url>', description: "a MongoDB URL (default: docbench's local server)" },
    shared: {
      type: 'boolean',
      default: false,
      description: 'leave client and server sharing the CPUs, not pinned apart',
    },
  },
});
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
const ops = numberOf(import.meta.url, '--ops', values.ops);
const only = values.only?.split(',').map((s) => s.trim());
const chosen = CANDIDATES.filter((c) => c.name === 'findOne' || !only || only.includes(c.name));

// The table, loaded as docbench loads workload C.
const overrides = [`recordcount=${RECORDS}`, `operationcount=${ops}`, `threadcount=${WORKERS}`, `table=${TABLE}`];
const loadProperties = loadWorkload(['workloadc'], [...overrides, 'batchsize=100']).properties;
const open = await openStore('mongodb', values.url, requestOf(loadProperties));
const handle = open.store.handle as MongodbHandle;
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

interface Pass {
  opsPerSec: number;
  cpuUsPerOp: number;
}
interface Measured {
  candidate: Candidate;
  read: Read;
  passes: Pass[];
}

const clients: MongoClient[] = [];
const measured: Measured[] = [];
for (const candidate of chosen) {
  let client = handle.client;
  if (candidate.clientOptions) {
    client = new MongoClient(open.url, { maxPoolSize: WORKERS, ...candidate.clientOptions });
    await client.connect();
    clients.push(client);
  }
  const db = client.db(handle.db.databaseName);
  measured.push({ candidate, read: await candidate.make(db.collection(TABLE), db, client), passes: [] });
}

// Every candidate answers as findOne does: the same record, or null for a missing key.
const sample = [...Array.from({ length: 50 }, (_, i) => `user${i * 7919}`), ...keysOf(0).slice(0, 50), 'no-such-key'];
for (const key of sample) {
  const expected = await measured[0]!.read(key);
  for (const m of measured.slice(1)) {
    const got = await m.read(key);
    if (!isDeepStrictEqual(got, expected))
      throw new Error(
        `${m.candidate.name} read ${key} as ${JSON.stringify(got)}, findOne as ${JSON.stringify(expected)}`,
      );
  }
}

/** The keys docbench's workload C reads in a round, in its order. */
function keysOf(round: number): string[] {
  return readKeys(loadWorkload(['workloadc'], overrides).properties, round);
}

async function pass(read: Read, keys: readonly string[]): Promise<Pass> {
  let next = 0;
  let found = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < keys.length) if ((await read(keys[next++]!)) !== null) found++;
    }),
  );
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (found !== keys.length) throw new Error(`found ${found} of ${keys.length} records`);
  return { opsPerSec: (keys.length * 1000) / ms, cpuUsPerOp: (used.user + used.system) / keys.length };
}

const pinning: Pinning | undefined = values.shared || values.url ? undefined : await pinApart('mongodb');
if (pinning) {
  console.error(pinning.description);
  // An interrupted bench still gives the server its CPUs back.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      pinning.restore();
      process.exit(130);
    });
}
const [base, ...others] = measured as [Measured, ...Measured[]];
/** Per candidate, each round's CPU per read over findOne's in the pass beside it. */
const ratios = new Map<Measured, number[]>(others.map((m) => [m, []]));
try {
  // Round 0 warms up the JIT, the pools and the server's caches; it is not counted. Each
  // candidate runs beside a findOne pass, first or second in turn, and the candidates' order
  // rotates from round to round.
  for (let round = 0; round <= rounds; round++) {
    const keys = keysOf(round);
    for (let i = 0; i < others.length; i++) {
      const m = others[(round + i) % others.length]!;
      const baseFirst = (round + i) % 2 === 0;
      const first = await pass(baseFirst ? base.read : m.read, keys);
      const second = await pass(baseFirst ? m.read : base.read, keys);
      if (round === 0) continue;
      const [b, c] = baseFirst ? [first, second] : [second, first];
      base.passes.push(b);
      m.passes.push(c);
      ratios.get(m)!.push(c.cpuUsPerOp / b.cpuUsPerOp);
      console.error(
        `round ${round}: findOne ${Math.round(b.opsPerSec)} ops/s ${b.cpuUsPerOp.toFixed(1)} us/op; ${m.candidate.name} ${Math.round(c.opsPerSec)} ops/s ${c.cpuUsPerOp.toFixed(1)} us/op`,
      );
    }
  }
} finally {
  pinning?.restore();
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: readonly number[], digits: number) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
console.log(
  `MongoDB read calls: ${ops} reads a pass of ${RECORDS} records (workload C), ${WORKERS} in flight, ${rounds} rounds, each candidate beside a findOne pass (medians, with the range over the passes; the ratio is the median of the rounds' ratios to the findOne pass beside it)`,
);
console.log("| call | ops/s | CPU us/read | CPU us/read, range | CPU ratio to findOne | rounds' ratios |");
console.log('|---|--:|--:|--:|--:|--:|');
for (const m of measured) {
  const cpu = m.passes.map((p) => p.cpuUsPerOp);
  const r = ratios.get(m);
  console.log(
    `| ${m.candidate.name} | ${Math.round(median(m.passes.map((p) => p.opsPerSec))).toLocaleString('en-US')} | ${median(cpu).toFixed(1)} | ${range(cpu, 0)} | ${r ? median(r).toFixed(2) : '1'} | ${r ? range(r, 2) : ''} |`,
  );
}
console.log(pinning ? `client and server apart: ${pinning.description}` : 'client and server shared the CPUs');

for (const client of clients) await client.close();
await open.store.drop(schema);
await open.store.close();
process.exit(0);
