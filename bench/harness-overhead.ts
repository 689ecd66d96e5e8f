/**
 * Is the harness the bottleneck? Drives YCSB workload C (100% reads) on the local Redis with 16
 * workers through docbench's own runner, then runs `redis-benchmark -t get -c 16 -P 1` against
 * the same server in the same invocation, and prints both rates and their ratio.
 * Target: docbench >= 0.8 of redis-benchmark's rate (YCSB 0.17.0's Java client reached ~0.6 here).
 *
 *   npx tsx bench/harness-overhead.ts [--ops 200000] [--records 10000]
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { openStore } from '../src/cli/store-session.ts';
import { redisTarget } from '../src/local/redis.ts';
import { runLoadPhase, runTransactionPhase } from '../src/runner/phases.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';

const { values } = parseArgs({ options: { ops: { type: 'string', default: '200000' }, records: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } } });
const ops = Number(values.ops);
const rounds = Number(values.rounds);

const status = await redisTarget.start((line) => console.error(line));
const port = new URL(status.url).port;
const { properties } = loadWorkload(['workloadc'], [`recordcount=${values.records}`, `operationcount=${ops}`, 'threadcount=16', 'table=benchtable']);
const open = await openStore('redis', status.url, properties);
const schema = { table: properties.table, fieldNames: Array.from({ length: properties.fieldcount }, (_, i) => `field${i}`) };
await open.store.drop(schema);
await open.store.prepare(schema);
await runLoadPhase({ store: open.store, workload: new CoreWorkload(properties, new Random(1)), properties, status: false, label: 'load' });

const docbenchRates: number[] = [];
const redisBenchmarkRates: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const outcome = await runTransactionPhase({ store: open.store, workload: new CoreWorkload(properties, new Random(round)), properties, status: false, label: 'run' });
  const errors = outcome.measurements.totalOf('ERROR') + outcome.measurements.totalOf('NOT_FOUND');
  if (errors > 0) throw new Error(`docbench run had ${errors} failed operations`);
  docbenchRates.push((outcome.measurements.measuredOperations * 1000) / outcome.runtimeMs);
  const text = execFileSync('redis-benchmark', ['-h', '127.0.0.1', '-p', port, '-t', 'get', '-c', '16', '-P', '1', '-n', String(ops), '-q'], { encoding: 'utf8' });
  const match = /GET: ([\d.]+) requests per second/.exec(text.replace(/\r/g, '\n'));
  if (!match) throw new Error(`cannot read redis-benchmark's output: ${text}`);
  redisBenchmarkRates.push(Number(match[1]));
  console.error(`round ${round}: docbench ${Math.round(docbenchRates.at(-1)!)} ops/s, redis-benchmark ${Math.round(redisBenchmarkRates.at(-1)!)} req/s`);
}
await open.store.drop(schema);
await open.store.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const d = median(docbenchRates);
const r = median(redisBenchmarkRates);
console.log(`harness overhead on Redis ${port}, ${ops} operations x ${rounds} rounds (medians):`);
console.log(`  docbench workload C, 16 workers (HGETALL of 10 x 100 B): ${Math.round(d).toLocaleString('en-US')} ops/s`);
console.log(`  redis-benchmark -t get -c 16 -P 1 (GET of 3 B):           ${Math.round(r).toLocaleString('en-US')} req/s`);
console.log(`  ratio docbench / redis-benchmark: ${(d / r).toFixed(2)} (target >= 0.80)`);
process.exit(0);
