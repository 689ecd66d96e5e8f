/**
 * Is the load generator the limit of an end-to-end run? In one invocation, interleaved rounds of:
 *   1. k6 driving a trivial Node endpoint with the plainest script (bench/k6-plain-get.ts): what
 *      one request costs k6 itself;
 *   2. `docbench k6 ycsb-c --store basic` (BasicDB: no store work): what one YCSB operation costs
 *      k6 through docbench's script, service, token and all;
 * each measured as k6's CPU over the measured window (end of setup() to start of teardown())
 * divided by the requests in it, and the ratio of the two (target: <= 1.5).
 *
 * Both run in the open model at the same request rate (--rate), because k6's CPU per request
 * depends on the rate: Go's scheduler parks and wakes k6's threads per request when they have
 * little to do, so the same plain GET cost k6 about four times as much CPU per request at 1,000
 * requests/s as at 7,000 (both tables below, on a 2-core machine). In the closed model each runs
 * as fast as its server answers, and the trivial endpoint answers faster than any real service:
 * that comparison (printed too, for reference) measures the servers as much as the scripts.
 * With --redis, also `docbench k6 ycsb-c --store redis --direct` (closed model): the same
 * workload through the driver and end to end.
 *
 *   npx tsx bench/k6-overhead.ts [--vus 8] [--rate 1000] [--duration 15] [--rounds 3] [--redis]
 * (--vus: the closed model's VUs; the open model allocates 4 × that up front.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runK6 } from '../src/client/k6-process.ts';
import { installK6 } from '../src/local/k6.ts';
import type { Result } from '../src/results/schema.ts';
import { benchArgs, numberOf } from './bench-args.ts';

const { values } = benchArgs({
  script: import.meta.url,
  summary:
    "What a request costs k6: the plainest script against a trivial endpoint beside docbench's YCSB-C script on BasicDB, k6's CPU per request.",
  options: {
    vus: {
      type: 'string',
      default: '8',
      value: '<n>',
      description: "the closed model's VUs (the open model allocates 4 x that up front)",
    },
    rate: { type: 'string', default: '1000', value: '<n>', description: "the open model's requests per second" },
    duration: { type: 'string', default: '15', value: '<s>', description: 'seconds a run' },
    rounds: { type: 'string', default: '3', value: '<n>', description: 'interleaved rounds' },
    redis: {
      type: 'boolean',
      default: false,
      description: 'also docbench k6 ycsb-c --store redis --direct (closed model), through the driver and end to end',
    },
  },
});
const vus = numberOf(import.meta.url, '--vus', values.vus);
const rate = numberOf(import.meta.url, '--rate', values.rate);
const seconds = numberOf(import.meta.url, '--duration', values.duration);
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
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
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

type Model = 'open' | 'closed';

interface Sample {
  cpuUsPerRequest: number;
  perSecond: number;
  dropped: number;
  serviceCpuUsPerRequest?: number;
}

/**
 * VUs of a run: the closed model's --vus; in the open model 4 × that, all allocated up front and
 * no more, so k6 never starts a VU during the measured window (starting one compiles the whole
 * script, which costs a docbench script far more than the plain one, and is not what a request
 * costs): an iteration no VU is free for is dropped, and counted.
 */
const vusOf = (model: Model) => (model === 'open' ? 4 * vus : vus);

async function plainGet(url: string, model: Model, round: number): Promise<Sample> {
  const resultFile = join(work, `plain-${model}-${round}.json`);
  const env = {
    BASE_URL: url,
    VUS: String(vusOf(model)),
    DURATION: `${seconds}s`,
    RESULT_FILE: resultFile,
    ...(model === 'open' ? { RATE: String(rate) } : {}),
  };
  const run = await runK6(k6, join(root, 'bench', 'k6-plain-get.ts'), env, { quiet: true });
  if (run.code !== 0) throw new Error(`k6 on the trivial endpoint exited with ${run.code}`);
  const r = JSON.parse(readFileSync(resultFile, 'utf8')) as {
    requests: number;
    failed: number;
    dropped: number;
    startedAt: number;
    endedAt: number;
  };
  if (r.failed > 0) throw new Error(`${r.failed} requests to the trivial endpoint failed`);
  const cpu = run.sampler?.between(r.startedAt, r.endedAt);
  if (!cpu) throw new Error('k6 CPU not measured (needs /proc, i.e. Linux)');
  return {
    cpuUsPerRequest: ((cpu.userMs + cpu.systemMs) * 1000) / r.requests,
    perSecond: (r.requests * 1000) / (r.endedAt - r.startedAt),
    dropped: r.dropped,
  };
}

/** `docbench k6 ycsb-c …` as a user runs it; returns the results it wrote. */
function docbenchK6(args: string[], outDir: string, model: Model = 'closed'): Result[] {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'bin', 'docbench.js'),
      'k6',
      'ycsb-c',
      '--threads',
      String(vusOf(model)),
      '--duration',
      String(seconds),
      '-p',
      'operationcount=0',
      '--out-dir',
      outDir,
      '-q',
      ...args,
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  if (run.status !== 0)
    throw new Error(`docbench k6 ycsb-c ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  return readdirSync(outDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(outDir, f), 'utf8')) as Result);
}

function ycsbOnBasic(model: Model, round: number): Sample {
  // Dropped iterations are reported below, not a failed run.
  const open =
    model === 'open' ? ['--target', String(rate), '-e', 'MAX_DROPPED=1', '-e', `MAX_VUS=${vusOf('open')}`] : [];
  const [result] = docbenchK6(['--store', 'basic', ...open], join(work, `basic-${model}-${round}`), model);
  const extra = result!.store.extra!;
  const dropped = Number(/^k6 dropped (\d+) iterations/m.exec(result!.notes.join('\n'))?.[1] ?? 0);
  return {
    cpuUsPerRequest: Number(extra['client.cpuUsPerRequest']),
    perSecond: result!.overall.throughputOpsPerSec,
    dropped,
    serviceCpuUsPerRequest: Number(extra['service.cpuUsPerRequest']),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (x: number) => x.toFixed(1);

const endpoint = await startTrivialEndpoint();
const samples: Record<Model, { plain: Sample[]; ycsb: Sample[] }> = {
  open: { plain: [], ycsb: [] },
  closed: { plain: [], ycsb: [] },
};
try {
  for (let round = 1; round <= rounds; round++) {
    for (const model of ['open', 'closed'] as const) {
      log(
        `round ${round}/${rounds}, ${model} model: k6 on a trivial endpoint, then docbench k6 ycsb-c on basic (${vusOf(model)} VUs${model === 'open' ? `, ${rate}/s` : ''}, ${seconds} s each)`,
      );
      samples[model].plain.push(await plainGet(endpoint.url, model, round));
      samples[model].ycsb.push(ycsbOnBasic(model, round));
    }
  }
} finally {
  endpoint.stop();
}

/** One table of rounds and medians; returns the ratio of the medians. */
function table(model: Model): number {
  const { plain, ycsb } = samples[model];
  console.log('| round | plain GET us/req | plain req/s | ycsb-c us/op | ycsb-c ops/s | service us/req | ratio |');
  console.log('|---|---|---|---|---|---|---|');
  const dropped = (s: Sample) => (s.dropped > 0 ? ` (${s.dropped} dropped)` : '');
  for (let i = 0; i < plain.length; i++) {
    const p = plain[i]!;
    const y = ycsb[i]!;
    console.log(
      `| ${i + 1} | ${f1(p.cpuUsPerRequest)} | ${Math.round(p.perSecond)}${dropped(p)} | ${f1(y.cpuUsPerRequest)} | ${Math.round(y.perSecond)}${dropped(y)} | ${f1(y.serviceCpuUsPerRequest!)} | ${(y.cpuUsPerRequest / p.cpuUsPerRequest).toFixed(2)} |`,
    );
  }
  const plainMedian = median(plain.map((s) => s.cpuUsPerRequest));
  const ycsbMedian = median(ycsb.map((s) => s.cpuUsPerRequest));
  console.log(
    `| median | ${f1(plainMedian)} | ${Math.round(median(plain.map((s) => s.perSecond)))} | ${f1(ycsbMedian)} | ${Math.round(median(ycsb.map((s) => s.perSecond)))} | ${f1(median(ycsb.map((s) => s.serviceCpuUsPerRequest!)))} | ${(ycsbMedian / plainMedian).toFixed(2)} |`,
  );
  return ycsbMedian / plainMedian;
}

console.log(`k6 CPU per request over each run's measured window: ${seconds} s per run, ${rounds} interleaved rounds\n`);
console.log(`Open model, both at ${rate} requests/s, ${vusOf('open')} VUs allocated up front (the comparison):\n`);
const ratio = table('open');
console.log(
  `\nratio of medians: ${ratio.toFixed(2)} x a plain GET at the same rate (target <= 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
);
console.log(
  `\nClosed model, ${vus} VUs, each as fast as its server answers (for reference: the trivial endpoint answers faster, and k6 costs more per request at a lower rate):\n`,
);
table('closed');

if (values.redis) {
  log(`redis: docbench k6 ycsb-c --store redis --direct (${vus} threads/VUs, ${seconds} s each)`);
  const results = docbenchK6(['--store', 'redis', '--direct'], join(work, 'redis'));
  const direct = results.find((r) => r.mode !== 'http')!;
  const http = results.find((r) => r.mode === 'http')!;
  console.log('\n| redis, workload C, closed model | ops/s | client CPU us/op | service CPU us/req |');
  console.log('|---|---|---|---|');
  console.log(
    `| direct (driver) | ${Math.round(direct.overall.throughputOpsPerSec)} | ${f1(direct.clientCpu.usPerOp)} | |`,
  );
  console.log(
    `| end to end (k6 -> service) | ${Math.round(http.overall.throughputOpsPerSec)} | ${f1(http.clientCpu.usPerOp)} | ${f1(Number(http.store.extra!['service.cpuUsPerRequest']))} |`,
  );
}
rmSync(work, { recursive: true, force: true });
