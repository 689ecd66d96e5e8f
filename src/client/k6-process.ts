/**
 * The k6 process of an end-to-end run: started with the script and its environment, its CPU
 * sampled from outside while it runs, its own text summary kept as k6 prints it, and its result
 * (from k6's summary export, converted by the scripts' own summary code) completed with what only
 * this side knows.
 */
import { spawn } from 'node:child_process';
import { interrupts, type RunSignal } from '../common/interrupts.ts';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadSettings } from '../../k6/lib/settings.ts';
import { CLIENT_CPU_NOT_MEASURED, fromSummaryExport, toResult } from '../../k6/lib/summary.ts';
import { UserError } from '../common/user-error.ts';
import { round1 } from '../report/mode-comparison.ts';
import { describeMachine } from '../results/machine.ts';
import type { Result } from '../results/schema.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { CpuMeter, type MachineCpu } from '../runner/cpu-meter.ts';
import { CpuSampler, cpuBetween, reapedChildrenCpu, type ChildCpu } from '../measure/process-cpu.ts';

export interface K6Run {
  code: number | null;
  /** The k6 process's CPU sampled while it ran (null where /proc is not available). */
  sampler: CpuSampler | null;
  /** The whole k6 process, start-up and summary included. */
  total: ChildCpu | null;
  /** The whole machine's CPU over the k6 run (Linux), start-up included. */
  machine?: MachineCpu;
  /** What k6 printed on stdout: its own end-of-test summary (thresholds, checks, metrics). */
  summary: string;
  /** The signal docbench passed on to k6 (Ctrl-C, SIGTERM), when the run was interrupted. */
  interrupted?: RunSignal;
}

export interface K6RunOptions {
  quiet: boolean;
  /** Where k6 writes its summary export (`--summary-export`), the data docbench's result is made of. */
  summaryExport?: string;
}

export function runK6(
  binary: string,
  script: string,
  env: Record<string, string>,
  options: K6RunOptions,
): Promise<K6Run> {
  const before = reapedChildrenCpu();
  // k6's stdout is its own summary, kept for the caller to show beside docbench's result; stderr
  // (progress, logs, crossed thresholds) passes through.
  // k6's REST API (nothing here uses it) on any free port: its fixed default would collide with
  // any other k6 on the machine.
  const args = [
    'run',
    ...(options.quiet ? ['--quiet'] : []),
    '--no-color',
    '--address',
    '127.0.0.1:0',
    ...(options.summaryExport ? ['--summary-export', options.summaryExport] : []),
    script,
  ];
  // k6 runs in a process group of its own, so a terminal's Ctrl-C reaches docbench only, which
  // passes exactly one signal on: k6 then stops its iterations and writes its summary (a second
  // one would make it abort without one). A forced exit of docbench kills it.
  const child = spawn(binary, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let interrupted: RunSignal | undefined;
  const forgetSignal = interrupts.onSignal((signal) => {
    interrupted = signal;
    child.kill(signal);
  });
  const forgetExit = interrupts.onForcedExit(() => child.kill('SIGKILL'));
  let summary = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (summary += chunk));
  const sampler = child.pid !== undefined && process.platform === 'linux' ? new CpuSampler(child.pid) : null;
  const machineMeter = new CpuMeter();
  return new Promise((resolveRun, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      forgetSignal();
      forgetExit();
      sampler?.stop();
      const machine = machineMeter.read().machine;
      resolveRun({
        code,
        sampler,
        total: cpuBetween(before, reapedChildrenCpu()),
        summary,
        ...(machine ? { machine } : {}),
        ...(interrupted ? { interrupted } : {}),
      });
    });
  });
}

/**
 * docbench's result from k6's summary export, converted by the same code as the scripts'
 * handleSummary (k6/lib/summary.ts) with the settings k6 ran with. A script of one's own must
 * be built on k6/lib (its setup() data and metric names) to give one.
 */
export function readK6Result(
  exportFile: string,
  env: Record<string, string | undefined>,
  script: string,
  code: number | null,
): Result {
  if (!existsSync(exportFile))
    throw new UserError(`k6 exited with code ${code} and wrote no summary; see its messages above`);
  const data = fromSummaryExport(
    JSON.parse(readFileSync(exportFile, 'utf8')) as Parameters<typeof fromSummaryExport>[0],
  );
  const setup = data.setup_data;
  if (setup === undefined)
    throw new UserError(
      `k6 exited with code ${code} before ${basename(script)}'s setup() completed; see its messages above`,
    );
  if (setup.info === undefined || setup.run === undefined || setup.scenario === undefined) {
    throw new UserError(
      `${basename(script)}'s setup() data is not docbench's: a script run by docbench k6 must build on k6/lib (ycsbScript, a scenario's script module such as ecommerceScript, or setup() returning startRun(…))`,
    );
  }
  return toResult(data, setup, loadSettings(env));
}

/** k6's result, completed with what only this side knows: the client's CPU and machine, an interruption. */
export function completeResult(
  result: Result,
  run: Pick<K6Run, 'sampler' | 'total' | 'machine' | 'interrupted'>,
  workloadFile: string | undefined,
  overrides: string[],
): Result {
  const ops = result.overall.operations;
  const requests = Number(result.store.extra?.['service.requests'] ?? 0);
  // The measured window: from the end of setup() to handleSummary, without k6's start-up
  // (compiling the script for every VU) which a short run would otherwise be dominated by.
  const window = run.sampler?.between(Date.parse(result.startedAt), Date.parse(result.endedAt)) ?? null;
  const cpu = window ?? run.total;
  const cpuUs = cpu ? (cpu.userMs + cpu.systemMs) * 1000 : 0;
  const perRequest = requests > 0 ? round1(cpuUs / requests) : 0;
  const perOp = ops > 0 ? round1(cpuUs / ops) : 0;
  const totalMs = run.total ? round1(run.total.userMs + run.total.systemMs) : null;
  const partial: Result['partial'] = run.interrupted
    ? {
        reason: run.interrupted,
        detail: `interrupted by ${run.interrupted}: k6 stopped its iterations and wrote its summary`,
      }
    : undefined;
  const note = cpu
    ? `client CPU (k6 process${window ? ', measured window' : ', whole process incl. start-up'}): ${perRequest} us per request, ${perOp} us per operation` +
      (window && totalMs !== null ? `; the whole k6 process used ${totalMs} ms incl. start-up` : '')
    : 'client CPU: not measured (needs /proc, i.e. Linux)';
  return {
    ...result,
    workload: { ...result.workload, ...(workloadFile ? { file: workloadFile } : {}), overrides },
    store: {
      ...result.store,
      extra: { ...result.store.extra, ...(cpu ? { 'client.cpuUsPerRequest': perRequest } : {}) },
    },
    machine: describeMachine(),
    clientCpu: cpu ? { userMs: round1(cpu.userMs), systemMs: round1(cpu.systemMs), usPerOp: perOp } : result.clientCpu,
    ...(run.machine ? { machineCpu: run.machine } : {}),
    ...(partial ? { partial } : {}),
    notes: [
      ...(partial ? [`PARTIAL RESULT: ${partial.detail}; the figures cover the iterations done until then`] : []),
      ...result.notes.map((n) => (n === CLIENT_CPU_NOT_MEASURED ? note : n)),
    ],
  };
}

/** The k6 settings (k6/lib/settings.ts) for a YCSB workload's load shape, in YCSB's terms. */
export function k6Environment(
  p: Pick<
    WorkloadProperties,
    'threadcount' | 'target' | 'operationcount' | 'maxexecutiontime' | 'hdrhistogram.percentiles'
  >,
): Record<string, string> {
  const env: Record<string, string> = { VUS: String(p.threadcount) };
  if (p.target > 0) {
    env.MODEL = 'open';
    env.RATE = String(p.target);
    const seconds = p.maxexecutiontime > 0 ? p.maxexecutiontime : Math.ceil(p.operationcount / p.target);
    env.DURATION = `${seconds}s`;
    // Enough VUs to keep the rate through latency spikes; k6 adds them only when needed.
    env.MAX_VUS = String(p.threadcount * 4);
  } else {
    env.MODEL = 'closed';
    if (p.operationcount > 0) env.ITERATIONS = String(p.operationcount);
    if (p.maxexecutiontime > 0) env.DURATION = `${p.maxexecutiontime}s`;
    // Both given: the run ends at whichever comes first, as YCSB's does.
    if (p.operationcount === 0 && p.maxexecutiontime === 0)
      throw new UserError('the run needs operationcount > 0 or maxexecutiontime > 0');
  }
  if (p['hdrhistogram.percentiles'].length > 0) env.PERCENTILES = p['hdrhistogram.percentiles'].join(',');
  return env;
}
