/**
 * What does `docbench serve` cost per request beside the service a developer would write by hand?
 * In one invocation, per store, in interleaved rounds against docbench's local server:
 *   1. `docbench serve --store S` (started as a user starts it, from bin/docbench.js);
 *   2. a bare Fastify app with one route per operation calling the same driver (bench/bare-service.ts);
 * both driven by the same k6 script (bench/k6-service-ops.ts: YCSB's REST routes over the same
 * loaded records, uniform keys) in the open model at the same rate, so each answers the same
 * requests at the same pace. Each service's CPU (user + system of its process, sampled from /proc)
 * over k6's measured window, divided by the requests in it, for reads alone and for half reads,
 * half updates; the ratio is the median of the rounds' ratios (each round runs both back to back,
 * in alternating order). Target: docbench serve <= 1.3 x the bare app on every store.
 *
 *   npx tsx bench/service-overhead.ts [--stores redis,…] [--rounds 3] [--duration 10] [--rate 1000] [--vus 16]
 *
 * Every store with a bare service (bench/bare-service-drivers.ts) is measured by default.
 *
 * It loads 1,000 records into `usertable` on docbench's local servers (started if needed) and drops them at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { installK6 } from '../src/local/k6.ts';
import { CpuSampler } from '../src/measure/process-cpu.ts';
import { runK6 } from '../src/client/k6-process.ts';
import { runLoadPhase } from '../src/runner/phases.ts';
import { startServiceProcess } from '../src/service/service-process.ts';
import { openStore, requestOf } from '../src/session/store-session.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { STORE_NAMES } from '../src/stores/stores.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { storesWithBareService } from './bare-service-drivers.ts';
import { benchArgs, namesOf, numberOf } from './bench-args.ts';

const MEASURED = storesWithBareService(STORE_NAMES);
const { values } = benchArgs({
  script: import.meta.url,
  summary:
    'What docbench serve costs per request beside a hand-written Fastify app on the same driver, both driven by the same k6 script.',
  options: {
    stores: {
      type: 'string',
      default: MEASURED.join(','),
      value: '<list>',
      description: 'stores to measure, in order',
    },
    rounds: { type: 'string', default: '3', value: '<n>', description: 'rounds counted, after one warm-up round' },
    duration: { type: 'string', default: '10', value: '<s>', description: 'seconds a k6 run' },
    rate: { type: 'string', default: '1000', value: '<n>', description: 'requests per second (open model)' },
    vus: {
      type: 'string',
      default: '16',
      value: '<n>',
      description: "k6's VUs, allocated up front, and each service's pool",
    },
  },
});
const stores = namesOf(import.meta.url, '--stores', values.stores, MEASURED);
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
for (const [flag, value] of [
  ['--duration', values.duration],
  ['--rate', values.rate],
  ['--vus', values.vus],
] as const)
  numberOf(import.meta.url, flag, value);
const RECORDS = 1000;
const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'docbench-service-bench-'));
const log = (line: string) => process.stderr.write(`${line}\n`);
const k6 = await installK6(log);
const MIXES = [
  { name: 'read', updateShare: 0 },
  { name: 'read/update 50/50', updateShare: 0.5 },
];

interface Service {
  baseUrl: string;
  sampler: CpuSampler;
  stop(): Promise<unknown>;
}

async function startDocbenchServe(store: string): Promise<Service> {
  const service = await startServiceProcess([
    '--store',
    store,
    '--port',
    '0',
    '--scenario',
    'ycsb',
    '--pool',
    values.vus,
    '-p',
    `recordcount=${RECORDS}`,
  ]);
  return { baseUrl: service.baseUrl, sampler: new CpuSampler(service.child.pid!), stop: () => service.stop() };
}

async function startBareService(store: string): Promise<Service> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench', 'bare-service.ts'), store, values.vus],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bare-service ${store} exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sampler: new CpuSampler(child.pid!),
    stop: () => (child.kill('SIGTERM'), exited),
  };
}

/** One k6 run against a service: its CPU per request over the measured window. */
async function pass(
  service: Service,
  updateShare: number,
  tag: string,
): Promise<{ usPerRequest: number; perSecond: number; dropped: number }> {
  const resultFile = join(work, `${tag}.json`);
  const env = {
    BASE_URL: service.baseUrl,
    RECORDS: String(RECORDS),
    VUS: values.vus,
    RATE: values.rate,
    DURATION: `${values.duration}s`,
    UPDATE_SHARE: String(updateShare),
    RESULT_FILE: resultFile,
  };
  const run = await runK6(k6, join(root, 'bench', 'k6-service-ops.ts'), env, { quiet: true });
  if (run.code !== 0) throw new Error(`k6 (${tag}) exited with ${run.code}`);
  const r = JSON.parse(readFileSync(resultFile, 'utf8')) as {
    requests: number;
    notOk: number;
    dropped: number;
    startedAt: number;
    endedAt: number;
  };
  if (r.notOk > 0) throw new Error(`${tag}: ${r.notOk} of ${r.requests} requests were not answered as expected`);
  const cpu = service.sampler.between(r.startedAt, r.endedAt);
  if (!cpu) throw new Error('service CPU not measured (needs /proc, i.e. Linux)');
  return {
    usPerRequest: ((cpu.userMs + cpu.systemMs) * 1000) / r.requests,
    perSecond: (r.requests * 1000) / (r.endedAt - r.startedAt),
    dropped: r.dropped,
  };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
const loadBefore = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');

for (const store of stores) {
  const p = loadWorkload(
    ['workloadc'],
    [`recordcount=${RECORDS}`, 'insertorder=ordered', `threadcount=${values.vus}`, 'batchsize=100'],
  ).properties;
  const open = await openStore(store, undefined, requestOf(p));
  const core = new CoreWorkload(p, new Random(1));
  const schema = { table: core.table, fieldNames: core.fieldNames };
  await open.store.drop(schema);
  await open.store.prepare(schema);
  await runLoadPhase({ store: open.store, workload: core, properties: p, status: false, label: 'load' });
  const serve = await startDocbenchServe(store);
  const bare = await startBareService(store);
  try {
    for (const mix of MIXES) {
      const ratios: number[] = [];
      const served: number[] = [];
      const bares: number[] = [];
      let dropped = 0;
      // Round 0 warms both services up (JIT, pools, the server's caches) and is not counted.
      for (let round = 0; round <= rounds; round++) {
        const order = round % 2 === 0 ? [serve, bare] : [bare, serve];
        const [a, b] = [
          await pass(order[0]!, mix.updateShare, `${store}-${round}-a`),
          await pass(order[1]!, mix.updateShare, `${store}-${round}-b`),
        ];
        const [s, x] = order[0] === serve ? [a, b] : [b, a];
        if (round === 0) continue;
        served.push(s.usPerRequest);
        bares.push(x.usPerRequest);
        ratios.push(s.usPerRequest / x.usPerRequest);
        dropped += s.dropped + x.dropped;
        log(
          `${store} ${mix.name} round ${round}: docbench serve ${s.usPerRequest.toFixed(1)} us/req (${Math.round(s.perSecond)}/s), bare Fastify ${x.usPerRequest.toFixed(1)} us/req (${Math.round(x.perSecond)}/s)`,
        );
      }
      rows.push(
        `| ${store} | ${mix.name} | ${median(bares).toFixed(1)} | ${median(served).toFixed(1)} | ${median(ratios).toFixed(2)} | ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} | ${dropped} |`,
      );
    }
  } finally {
    await serve.stop();
    await bare.stop();
    await open.store.drop(schema);
    await open.store.close();
  }
}

console.log(
  `service CPU per request: docbench serve vs a bare Fastify app on the same driver, k6 open model at ${values.rate}/s, ${values.vus} VUs, ${values.duration} s a run, ${values.rounds} interleaved rounds (medians; the ratio is the median of the rounds' ratios, with their range)`,
);
console.log(
  "| store | operations | bare Fastify CPU us/req | docbench serve CPU us/req | ratio (target <= 1.3) | rounds' ratios | dropped iterations |",
);
console.log('|---|---|--:|--:|--:|--:|--:|');
for (const row of rows) console.log(row);
console.log(
  `load average (1, 5, 15 min) before / after: ${loadBefore} / ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
rmSync(work, { recursive: true, force: true });
process.exit(0);
