/**
 * The k6 process of an end-to-end run: started with the script and its environment, its CPU
 * sampled from outside while it runs, and its result completed with what only this side knows.
 */
import { spawn } from 'node:child_process';
import { CLIENT_CPU_NOT_MEASURED } from '../../k6/lib/summary.ts';
import { round1 } from '../report/mode-comparison.ts';
import { describeMachine } from '../results/machine.ts';
import type { Result } from '../results/schema.ts';
import { CpuMeter, type MachineCpu } from '../runner/cpu-meter.ts';
import { CpuSampler, cpuBetween, reapedChildrenCpu, type ChildCpu } from '../service/process-cpu.ts';

export interface K6Run {
  code: number | null;
  /** The k6 process's CPU sampled while it ran (null where /proc is not available). */
  sampler: CpuSampler | null;
  /** The whole k6 process, start-up and summary included. */
  total: ChildCpu | null;
  /** The whole machine's CPU over the k6 run (Linux), start-up included. */
  machine?: MachineCpu;
}

export function runK6(binary: string, script: string, env: Record<string, string>, quiet: boolean): Promise<K6Run> {
  const before = reapedChildrenCpu();
  // k6's stdout is its summary, which docbench prints itself once completed; stderr (progress,
  // logs, crossed thresholds) passes through.
  const child = spawn(binary, ['run', ...(quiet ? ['--quiet'] : []), '--no-color', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const sampler = child.pid !== undefined && process.platform === 'linux' ? new CpuSampler(child.pid) : null;
  const machineMeter = new CpuMeter();
  return new Promise((resolveRun, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      sampler?.stop();
      const machine = machineMeter.read().machine;
      resolveRun({ code, sampler, total: cpuBetween(before, reapedChildrenCpu()), ...(machine ? { machine } : {}) });
    });
  });
}

/** k6's result, completed with what only this side knows: the client's CPU and machine. */
export function completeResult(result: Result, run: Pick<K6Run, 'sampler' | 'total' | 'machine'>, workloadFile: string | undefined, overrides: string[]): Result {
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
  const note = cpu
    ? `client CPU (k6 process${window ? ', measured window' : ', whole process incl. start-up'}): ${perRequest} us per request, ${perOp} us per operation` +
      (window && totalMs !== null ? `; the whole k6 process used ${totalMs} ms incl. start-up` : '')
    : 'client CPU: not measured (needs /proc, i.e. Linux)';
  return {
    ...result,
    workload: { ...result.workload, ...(workloadFile ? { file: workloadFile } : {}), overrides },
    store: { ...result.store, extra: { ...result.store.extra, ...(cpu ? { 'client.cpuUsPerRequest': perRequest } : {}) } },
    machine: describeMachine(),
    clientCpu: cpu ? { userMs: round1(cpu.userMs), systemMs: round1(cpu.systemMs), usPerOp: perOp } : result.clientCpu,
    ...(run.machine ? { machineCpu: run.machine } : {}),
    notes: result.notes.map((n) => (n === CLIENT_CPU_NOT_MEASURED ? note : n)),
  };
}

