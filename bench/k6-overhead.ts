/**
 * Is the load generator the limit of an end-to-end run? In one invocation, interleaved rounds of:
 *   1. k6 driving a trivial Node endpoint with the plainest script (bench/k6-plain-get.ts): what
 *      one request costs k6 itself;
 *   2. `docbench k6 ycsb-c --store basic` (BasicDB: no store work), the same VUs and duration:
 *      what one YCSB operation costs k6 through docbench's script;
 * each measured as k6's CPU over the measured window (end of setup() to start of teardown())
 * divided by the requests in it. Prints both, the service's CPU per request, and the ratio
 * (target: <= 1.5). With --redis, also `docbench k6 ycsb-c --store redis --direct`: the same
 * workload through the driver and end to end.
 *
 *   npx tsx bench/k6-overhead.ts [--vus 8] [--duration 15] [--rounds 3] [--redis]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runK6 } from '../src/cli/k6-process.ts';
import { installK6 } from '../src/local/k6.ts';
import type { Result } from '../src/results/schema.ts';

const { values } = parseArgs({
  options: { vus: { type: 'string', default: '8' }, duration: { type: 'string', default: '15' }, rounds: { type: 'string', default: '3' }, redis: { type: 'boolean', default: false } },
});
const vus = Number(values.vus);
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'docbench-k6-bench-'));
const log = (line: string) => process.stderr.write(`${line}\n`);

const k6 = await installK6(log);

/** A trivial endpoint in a process of its own: a fixed small JSON answer, nothing else. */
async function startTrivialEndpoint(): Promise<{ url: string; stop: () => void }> {
  const code = `
    const body = '{"key":"user1","fields":{}}';
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

interface Sample {
  cpuUsPerRequest: number;
  perSecond: number;
  serviceCpuUsPerRequest?: number;
}

async function plainGet(url: string, round: number): Promise<Sample> {
  const resultFile = join(work, `plain-${round}.json`);
  const run = await runK6(k6, join(root, 'bench', 'k6-plain-get.ts'), { BASE_URL: url, VUS: String(vus), DURATION: `${seconds}s`, RESULT_FILE: resultFile }, { quiet: true });
  if (run.code !== 0) throw new Error(`k6 on the trivial endpoint exited with ${run.code}`);
  const r = JSON.parse(readFileSync(resultFile, 'utf8')) as { requests: number; failed: number; startedAt: number; endedAt: number };
  if (r.failed > 0) throw new Error(`${r.failed} requests to the trivial endpoint failed`);
  const cpu = run.sampler?.between(r.startedAt, r.endedAt);
  if (!cpu) throw new Error('k6 CPU not measured (needs /proc, i.e. Linux)');
  return { cpuUsPerRequest: ((cpu.userMs + cpu.systemMs) * 1000) / r.requests, perSecond: (r.requests * 1000) / (r.endedAt - r.startedAt) };
}

/** `docbench k6 …` as a user runs it; returns the results it wrote. */
function docbenchK6(args: string[], outDir: string): Result[] {
  const run = spawnSync(process.execPath, [join(root, 'bin', 'docbench.js'), 'k6', 'ycsb-c', '--threads', String(vus), '--duration', String(seconds), '-p', 'operationcount=0', '--out-dir', outDir, '-q', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`docbench k6 ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return readdirSync(outDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')) as Result);
}

function ycsbOnBasic(round: number): Sample {
  const [result] = docbenchK6(['--store', 'basic'], join(work, `basic-${round}`));
  const extra = result!.store.extra!;
  return { cpuUsPerRequest: Number(extra['client.cpuUsPerRequest']), perSecond: result!.overall.throughputOpsPerSec, serviceCpuUsPerRequest: Number(extra['service.cpuUsPerRequest']) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (x: number) => x.toFixed(1);

const endpoint = await startTrivialEndpoint();
const plain: Sample[] = [];
const ycsb: Sample[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    log(`round ${round}/${rounds}: k6 on a trivial endpoint, then docbench k6 ycsb-c on basic (${vus} VUs, ${seconds} s each)`);
    plain.push(await plainGet(endpoint.url, round));
    ycsb.push(ycsbOnBasic(round));
  }
} finally {
  endpoint.stop();
}

console.log(`k6 CPU per request, ${vus} VUs, ${seconds} s per run, ${rounds} interleaved rounds (measured window of each run)\n`);
console.log('| round | plain GET us/req | plain req/s | ycsb-c us/op | ycsb-c ops/s | service us/req | ratio |');
console.log('|---|---|---|---|---|---|---|');
for (let i = 0; i < rounds; i++) {
  const p = plain[i]!;
  const y = ycsb[i]!;
  console.log(`| ${i + 1} | ${f1(p.cpuUsPerRequest)} | ${Math.round(p.perSecond)} | ${f1(y.cpuUsPerRequest)} | ${Math.round(y.perSecond)} | ${f1(y.serviceCpuUsPerRequest!)} | ${(y.cpuUsPerRequest / p.cpuUsPerRequest).toFixed(2)} |`);
}
const plainMedian = median(plain.map((s) => s.cpuUsPerRequest));
const ycsbMedian = median(ycsb.map((s) => s.cpuUsPerRequest));
const ratio = ycsbMedian / plainMedian;
console.log(`| median | ${f1(plainMedian)} | ${Math.round(median(plain.map((s) => s.perSecond)))} | ${f1(ycsbMedian)} | ${Math.round(median(ycsb.map((s) => s.perSecond)))} | ${f1(median(ycsb.map((s) => s.serviceCpuUsPerRequest!)))} | ${ratio.toFixed(2)} |`);
console.log(`\nratio of medians: ${ratio.toFixed(2)} x a plain GET (target <= 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'})`);

if (values.redis) {
  log(`redis: docbench k6 ycsb-c --store redis --direct (${vus} threads/VUs, ${seconds} s each)`);
  const results = docbenchK6(['--store', 'redis', '--direct'], join(work, 'redis'));
  const direct = results.find((r) => r.mode !== 'http')!;
  const http = results.find((r) => r.mode === 'http')!;
  console.log('\n| redis, workload C | ops/s | client CPU us/op | service CPU us/req |');
  console.log('|---|---|---|---|');
  console.log(`| direct (driver) | ${Math.round(direct.overall.throughputOpsPerSec)} | ${f1(direct.clientCpu.usPerOp)} | |`);
  console.log(`| end to end (k6 -> service) | ${Math.round(http.overall.throughputOpsPerSec)} | ${f1(http.clientCpu.usPerOp)} | ${f1(Number(http.store.extra!['service.cpuUsPerRequest']))} |`);
}
rmSync(work, { recursive: true, force: true });
