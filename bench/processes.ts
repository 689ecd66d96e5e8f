/**
 * Does the client scale with processes, and what does the exact schedule cost? In one invocation:
 *   1. BasicDB (no server: the client's own limit), workload C, 16 workers, with 1 and with 2
 *      processes, in interleaved rounds: rates and the ratio of each round.
 *      Target: 2 processes >= 1.7 x 1 process on a 2-core machine. Passes of about 5 s for one
 *      process: in shorter ones the two threads' first second weighs more (measured: 1.68 with
 *      3 M operations a pass, 1.81 with 9 M, same build and machine).
 *   2. The target-rate schedule, 16 workers at several rates, no store work: how late operations
 *      start after their due time (never early) and the client CPU it takes (% of one core),
 *      next to plain Node timers (which start most operations early).
 * Pools are started once and reused, so no round pays a process's start-up.
 *
 * Redis with 1, 2 and 3 processes, beside redis-benchmark, is bench/redis-benchmark.ts.
 *
 *   npx tsx bench/processes.ts [--basic-ops 9000000] [--rounds 3] [--skip-schedule]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore, type OpenStore, requestOf } from '../src/session/store-session.ts';
import { Measurements } from '../src/measure/measurements.ts';
import { runTransactionPhase, type PhaseOutcome } from '../src/runner/phases.ts';
import { ProcessPool } from '../src/runner/process-pool.ts';
import { runScheduled } from '../src/runner/schedule.ts';
import { settingsOf, storeName } from '../src/stores/stores.ts';
import { CoreWorkload } from '../src/workload/core-workload.ts';
import { Random } from '../src/workload/random.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import { benchArgs, numberOf } from './bench-args.ts';

const { values } = benchArgs({
  script: import.meta.url,
  summary:
    'Whether the client scales with processes (BasicDB, 1 and 2 processes), and how late the target-rate schedule starts operations.',
  options: {
    'basic-ops': { type: 'string', default: '9000000', value: '<n>', description: 'operations a BasicDB pass' },
    rounds: { type: 'string', default: '3', value: '<n>', description: 'interleaved rounds' },
    'skip-schedule': { type: 'boolean', default: false, description: "skip the schedule's part" },
  },
});
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
const basicOps = numberOf(import.meta.url, '--basic-ops', values['basic-ops']);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rateOf = (o: PhaseOutcome) => (o.measurements.measuredOperations * 1000) / o.runtimeMs;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

/** Rounds of workload C with 1 and 2 processes, interleaved; returns each round's rates. */
/** Operations per second of event-loop CPU: what each loop does with the core it gets (equal per loop means the client scales with cores). */
function perLoopSecond(o: PhaseOutcome): number {
  const busy = (o.cpu.eventLoopBusyPercent ?? []).reduce((sum, b) => sum + b, 0) / 100;
  return busy > 0 ? rateOf(o) / busy : Number.NaN;
}

interface Scaling {
  one: number[];
  two: number[];
  /** Operations per event-loop CPU second, 1 and 2 processes. */
  perLoop: [number, number][];
}

async function scaling(store: string, open: OpenStore, overrides: string[]): Promise<Scaling> {
  const { properties: p } = loadWorkload(['workloadc'], [...overrides, 'threadcount=16']);
  const pool = await ProcessPool.start({
    store,
    url: open.url,
    settings: settingsOf(storeName(store), p.passthrough),
    threadcount: 16,
    processes: 2,
  });
  const one: number[] = [];
  const two: number[] = [];
  const perLoop: [number, number][] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const common = {
        store: open.store,
        workload: new CoreWorkload(p, new Random(round)),
        properties: p,
        status: false,
        label: store,
      };
      const single = await runTransactionPhase(common);
      const double = await runTransactionPhase({ ...common, pool });
      for (const o of [single, double]) {
        const ok = o.measurements.statusCounts('READ').get('OK') ?? 0;
        if (ok !== p.operationcount) throw new Error(`${store}: ${ok} of ${p.operationcount} reads OK`);
      }
      one.push(rateOf(single));
      two.push(rateOf(double));
      perLoop.push([perLoopSecond(single), perLoopSecond(double)]);
      const busy = `[${single.cpu.eventLoopBusyPercent?.join(', ')}] / [${double.cpu.eventLoopBusyPercent?.join(', ')}]`;
      const machine = `${single.cpu.machine?.busyPercent}% / ${double.cpu.machine?.busyPercent}%`;
      console.error(
        `${store} round ${round}: 1 process ${fmt(one.at(-1)!)} ops/s, 2 processes ${fmt(two.at(-1)!)} ops/s, ratio ${(two.at(-1)! / one.at(-1)!).toFixed(2)}; event loops busy % ${busy}; machine busy ${machine}`,
      );
    }
  } finally {
    await pool.close();
  }
  return { one, two, perLoop };
}

function report(title: string, r: Scaling): void {
  const ratios = r.one.map((x, i) => r.two[i]! / x);
  console.log(title);
  console.log(`  1 process    ${r.one.map(fmt).join(', ')} ops/s (median ${fmt(median(r.one))})`);
  console.log(`  2 processes  ${r.two.map(fmt).join(', ')} ops/s (median ${fmt(median(r.two))})`);
  console.log(`  ratio by round ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}`);
  console.log(
    `  operations per event-loop CPU second, 1 / 2 processes: ${r.perLoop.map(([a, b]) => `${fmt(a)} / ${fmt(b)}`).join(', ')} (equal: each loop does as much with its core)`,
  );
}

// 1. BasicDB: the harness alone.
const basic = await openStore('basic', 'basic://', requestOf(loadWorkload(['workloadc'], []).properties));
const basicRates = await scaling('basic', basic, [`operationcount=${basicOps}`, 'recordcount=10000']);
report(`BasicDB, workload C, 16 workers, ${basicOps} operations, ${rounds} interleaved rounds`, basicRates);

// 2. The exact schedule: start lag and CPU at several target rates (one process, no store work),
// next to what a plain timer did before (sleep until the due time, as Node's timers allow).
async function plainTimers(threadcount: number, target: number, operations: number, lag: number[]): Promise<void> {
  const tickMs = (threadcount * 1000) / target;
  const start = performance.now();
  let issued = 0;
  await Promise.all(
    Array.from({ length: threadcount }, async (_, w) => {
      for (let k = 0; issued < operations; k++) {
        issued++;
        const due = start + (w / threadcount + k) * tickMs;
        const wait = due - performance.now();
        if (wait >= 1) await sleep(wait);
        lag.push((performance.now() - due) * 1000);
      }
    }),
  );
}

async function exactSchedule(threadcount: number, target: number, operations: number, lag: number[]): Promise<void> {
  await runScheduled({
    measurements: new Measurements(true, true),
    settings: {
      threadcount,
      target,
      operationcount: operations,
      maxexecutiontime: 0,
      warmuptime: 0,
      statusIntervalSeconds: 10,
    },
    status: false,
    label: 'schedule',
    worker: () => async (dueMs) => void lag.push((performance.now() - dueMs!) * 1000),
  });
}

if (!values['skip-schedule'])
  console.log(
    'target-rate schedule, 16 workers, one process, no store work: how late operations start after their due time (negative: early)',
  );
for (const target of values['skip-schedule'] ? [] : [500, 2000, 10_000]) {
  const operations = target * 5;
  for (const [name, schedule] of [
    ['plain timers  ', plainTimers],
    ['exact schedule', exactSchedule],
  ] as const) {
    const lag: number[] = [];
    const cpu = process.cpuUsage();
    const start = performance.now();
    await schedule(16, target, operations, lag);
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    lag.sort((a, b) => a - b);
    const q = (p: number) => lag[Math.floor(p * (lag.length - 1))]!.toFixed(0);
    const early = lag.filter((x) => x < 0);
    console.log(
      `  ${String(target).padStart(6)} ops/s, ${name}: lag p1 ${q(0.01)} us, p50 ${q(0.5)} us, p99 ${q(0.99)} us; ` +
        `${((100 * early.length) / lag.length).toFixed(0)}% started early (by up to ${early.length > 0 ? Math.round(-early[0]!) : 0} us); ` +
        `client CPU ${((100 * (used.user + used.system)) / 1000 / wall).toFixed(1)}% of a core`,
    );
  }
}
process.exit(0);
