/**
 * CPU time of another process, so `docbench k6` can record what the k6 process cost without
 * k6's help (k6 has no API for its own CPU).
 *
 * Two ways, both Linux only (elsewhere: null, "not measured"):
 *   - a sampler reads /proc/<pid>/stat (all threads of the process) a few times a second while
 *     k6 runs, so the CPU of the measured window alone can be taken, without k6's start-up
 *     (compiling the TypeScript script for every VU) and summary;
 *   - after k6 exits, the CPU the kernel adds to the parent's cutime/cstime for each reaped
 *     child (/proc/self/stat): the whole process, start-up included.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ChildCpu {
  userMs: number;
  systemMs: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100; // the Linux default (USER_HZ)
    }
  }
  return ticksPerSecond;
}

/**
 * Fields of a /proc stat line after the command name (which may hold spaces, inside
 * parentheses): the state is field 3, so field n is at offset n - 3.
 */
function statFields(path: string): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function ticks(fields: string[], userField: number, systemField: number): ChildCpu {
  const msPerTick = 1000 / clockTicks();
  return { userMs: Number(fields[userField - 3]) * msPerTick, systemMs: Number(fields[systemField - 3]) * msPerTick };
}

/** CPU of all waited-for children so far (cutime, cstime: fields 16 and 17), or null where /proc is not available. */
export function reapedChildrenCpu(): ChildCpu | null {
  const fields = statFields('/proc/self/stat');
  return fields ? ticks(fields, 16, 17) : null;
}

/** CPU a running process has used so far, all threads (utime, stime: fields 14 and 15); null when unknown or gone. */
export function processCpu(pid: number): ChildCpu | null {
  const fields = statFields(`/proc/${pid}/stat`);
  return fields ? ticks(fields, 14, 15) : null;
}

export function cpuBetween(before: ChildCpu | null, after: ChildCpu | null): ChildCpu | null {
  if (before === null || after === null) return null;
  return { userMs: after.userMs - before.userMs, systemMs: after.systemMs - before.systemMs };
}

/** How far outside the sampled span a window end may lie and still use the nearest sample. */
const CLAMP_MS = 1000;

interface Sample extends ChildCpu {
  /** Wall-clock time of the sample, ms since the epoch (results carry ISO times). */
  at: number;
}

/**
 * Samples a process's CPU every `intervalMs` while it runs. `between(from, to)` is the CPU spent
 * in that wall-clock window, interpolated between the samples around each end (the kernel counts
 * in 10 ms ticks anyway). Reading one small /proc file a few times a second costs nothing
 * measurable.
 */
export class CpuSampler {
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Take a last sample (call it just before the process is reaped) and stop. */
  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }

  private sample(): void {
    const cpu = processCpu(this.pid);
    if (cpu) this.samples.push({ at: Date.now(), ...cpu });
  }

  /** CPU spent between two wall-clock times, or null when the samples do not cover the window. */
  between(from: number, to: number): ChildCpu | null {
    const a = this.at(from);
    const b = this.at(to);
    if (a === null || b === null || to <= from) return null;
    return { userMs: Math.max(0, b.userMs - a.userMs), systemMs: Math.max(0, b.systemMs - a.systemMs) };
  }

  private at(time: number): ChildCpu | null {
    const s = this.samples;
    if (s.length < 2 || time < s[0]!.at - CLAMP_MS || time > s.at(-1)!.at + CLAMP_MS) return null;
    // Just outside the samples (the process exited before the next one): the nearest sample.
    if (time <= s[0]!.at) return s[0]!;
    if (time >= s.at(-1)!.at) return s.at(-1)!;
    let i = 1;
    while (s[i]!.at < time) i++;
    const lo = s[i - 1]!;
    const hi = s[i]!;
    const f = hi.at === lo.at ? 1 : (time - lo.at) / (hi.at - lo.at);
    return { userMs: lo.userMs + f * (hi.userMs - lo.userMs), systemMs: lo.systemMs + f * (hi.systemMs - lo.systemMs) };
  }
}
