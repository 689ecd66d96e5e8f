/**
 * Is the harness the bottleneck? On the local Redis, in one invocation and interleaved rounds:
 *   1. docbench workload C (100% reads of 10 x 100 B records), 16 workers, node-redis and ioredis;
 *   2. a bare loop: 16 concurrent HGETALLs of the same records straight through node-redis,
 *      no docbench code at all (what the driver can do in this process);
 *   3. `redis-benchmark -t get -c 16 -P 1` (C client, GET of 3 bytes: the issue's yardstick),
 *      and redis-benchmark doing HGETALL of one loaded record (the same server work as 1.).
 * Prints each rate and the ratios. Target: docbench >= 0.8 of redis-benchmark's GET rate
 * (YCSB 0.17.0's Java client reached about 0.6 on this kind of machine).
 *
 *   npx tsx bench/harness-overhead.ts [--ops 200000] [--records 10000] [--rounds 3]
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { createClient } from '@redis/client';
import { openStore } from '../src/cli/store-session.ts';
import { runLoadPhase, runTransactionPhase } from '../src/runner/phases.ts';
import { localTarget as redisTarget } from '../src/stores/redis/local-target.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';

const { values } = parseArgs({ options: { ops: { type: 'string', default: '200000' }, records: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } } });
const ops = Number(values.ops);
const rounds = Number(values.rounds);
const table = 'harnessbench';

const status = await redisTarget.start((line) => console.error(line));
const port = new URL(status.url).port;
const overrides = [`recordcount=${values.records}`, `operationcount=${ops}`, 'threadcount=16', `table=${table}`];
const { properties } = loadWorkload(['workloadc'], overrides);
const loader = await openStore('redis', status.url, properties);
const schema = { table, fieldNames: Array.from({ length: properties.fieldcount }, (_, i) => `field${i}`) };
await loader.store.drop(schema);
await runLoadPhase({ store: loader.store, workload: new CoreWorkload(properties, new Random(1)), properties, status: false, label: 'load' });
await loader.store.close();

async function docbench(driver: string, round: number): Promise<number> {
  const p = loadWorkload(['workloadc'], [...overrides, `redis.driver=${driver}`]).properties;
  const open = await openStore('redis', status.url, p);
  const outcome = await runTransactionPhase({ store: open.store, workload: new CoreWorkload(p, new Random(round)), properties: p, status: false, label: driver });
  await open.store.close();
  const ok = outcome.measurements.statusCounts('READ').get('OK') ?? 0;
  if (ok !== ops) throw new Error(`docbench (${driver}) read ${ok} of ${ops} records OK: the table is not loaded`);
  return (outcome.measurements.measuredOperations * 1000) / outcome.runtimeMs;
}

async function bareLoop(keys: readonly string[]): Promise<number> {
  const client = createClient({ url: status.url });
  await client.connect();
  let issued = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (issued < ops) {
        issued++;
        const reply = (await client.sendCommand(['HGETALL', keys[(issued * 7919) % keys.length]!])) as string[];
        if (reply.length === 0) throw new Error('bare loop read a missing record');
      }
    }),
  );
  const rate = (ops * 1000) / (performance.now() - start);
  await client.close();
  return rate;
}

function redisBenchmark(args: string[]): number {
  const text = execFileSync('redis-benchmark', ['-h', '127.0.0.1', '-p', port, '-c', '16', '-P', '1', '-n', String(ops), '-q', ...args], { encoding: 'utf8' });
  const match = /: ([\d.]+) requests per second/.exec(text.replace(/\r/g, '\n').split('\n').filter((l) => l.includes('requests per second')).at(-1) ?? '');
  if (!match) throw new Error(`cannot read redis-benchmark's output: ${text}`);
  return Number(match[1]);
}

const keyLister = createClient({ url: status.url });
await keyLister.connect();
const keys = ((await keyLister.sendCommand(['ZRANGE', `${table}#index`, '0', '-1'])) as string[]).map((k) => `${table}:${k}`);
await keyLister.close();

const rates: Record<string, number[]> = { 'docbench, node-redis': [], 'docbench, ioredis': [], 'bare node-redis loop': [], 'redis-benchmark GET': [], 'redis-benchmark HGETALL': [] };
for (let round = 1; round <= rounds; round++) {
  rates['docbench, node-redis']!.push(await docbench('node-redis', round));
  rates['docbench, ioredis']!.push(await docbench('ioredis', round));
  rates['bare node-redis loop']!.push(await bareLoop(keys));
  rates['redis-benchmark GET']!.push(redisBenchmark(['-t', 'get']));
  rates['redis-benchmark HGETALL']!.push(redisBenchmark(['hgetall', keys[0]!]));
  console.error(`round ${round}: ${Object.entries(rates).map(([k, v]) => `${k} ${Math.round(v.at(-1)!)}`).join(', ')}`);
}
const loaderAgain = await openStore('redis', status.url, properties);
await loaderAgain.store.drop(schema);
await loaderAgain.store.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const m = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)]));
const width = Math.max(...Object.keys(m).map((k) => k.length));
console.log(`harness overhead on the local Redis (${ops} operations, 16 in flight, medians of ${rounds} interleaved rounds)`);
for (const [name, rate] of Object.entries(m)) console.log(`  ${name.padEnd(width)}  ${Math.round(rate).toLocaleString('en-US').padStart(9)} ops/s`);
const best = Math.max(m['docbench, node-redis']!, m['docbench, ioredis']!);
console.log(`  docbench / redis-benchmark GET:      ${(best / m['redis-benchmark GET']!).toFixed(2)} (target >= 0.80)`);
console.log(`  docbench / redis-benchmark HGETALL:  ${(best / m['redis-benchmark HGETALL']!).toFixed(2)} (same server work per operation)`);
console.log(`  docbench / bare driver loop:         ${(m['docbench, node-redis']! / m['bare node-redis loop']!).toFixed(2)} (docbench's own cost)`);
process.exit(0);
