/**
 * CPU spent while a phase is measured: the client process's own (so a reader can tell when the
 * harness was the limit) and, on Linux, the whole machine's from /proc/stat: how busy all cores
 * were, and how much time the hypervisor gave to someone else (steal). On a shared VM steal can
 * take a third of the CPU and depress every figure of a run; a result that does not say so
 * cannot be compared with another. Two reads per phase, none on the hot path.
 */
import { readFileSync } from 'node:fs';
import type { CpuSpent, MachineCpu } from '../measure/cpu-spent.ts';

export type { CpuSpent, MachineCpu } from '../measure/cpu-spent.ts';

interface ProcStatSample {
  total: number;
  idle: number;
  steal: number;
}

/** The aggregate `cpu` line of /proc/stat, or undefined where there is none (not Linux). */
export function readProcStat(text?: string): ProcStatSample | undefined {
  let content = text;
  if (content === undefined) {
    try {
      content = readFileSync('/proc/stat', 'utf8');
    } catch {
      return undefined;
    }
  }
  const line = content.split('\n', 1)[0] ?? '';
  if (!line.startsWith('cpu ')) return undefined;
  // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is already
  // counted in user and nice, so it is left out of the total.
  const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (v.length < 8 || v.some((x) => !Number.isFinite(x))) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = v as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
}

/** Machine CPU between two samples, or undefined when too little time passed to say. */
export function machineCpuBetween(
  start: ProcStatSample | undefined,
  end: ProcStatSample | undefined,
): MachineCpu | undefined {
  if (start === undefined || end === undefined) return undefined;
  const total = end.total - start.total;
  if (total <= 0) return undefined;
  const steal = end.steal - start.steal;
  const idle = end.idle - start.idle;
  const round1 = (x: number) => Math.round(x * 10) / 10;
  return { busyPercent: round1((100 * (total - idle - steal)) / total), stealPercent: round1((100 * steal) / total) };
}

export class CpuMeter {
  private processStart = process.cpuUsage();
  private machineStart = readProcStat();

  /** Start over (when a warm-up ends). */
  restart(): void {
    this.processStart = process.cpuUsage();
    this.machineStart = readProcStat();
  }

  /** What was spent since the start. */
  read(): CpuSpent {
    const cpu = process.cpuUsage(this.processStart);
    const machine = machineCpuBetween(this.machineStart, readProcStat());
    return { userMs: cpu.user / 1000, systemMs: cpu.system / 1000, ...(machine ? { machine } : {}) };
  }
}

/**
 * CPU time of the calling thread in ms (Linux: /proc/thread-self/schedstat, nanoseconds on CPU;
 * else /proc/thread-self/stat in clock ticks), or undefined where there is neither. Node 20 has
 * no per-thread CPU call, and process.cpuUsage() counts every thread of the process.
 */
export function threadCpuMs(): number | undefined {
  try {
    const onCpuNs = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ', 1)[0]);
    if (Number.isFinite(onCpuNs)) return onCpuNs / 1e6;
  } catch {
    // no schedstat (kernel without CONFIG_SCHED_INFO, or not Linux): try stat
  }
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at state (field 3); utime and
    // stime are fields 14 and 15, in USER_HZ ticks (100 a second on every Linux build).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** How busy the calling thread (an event loop) is between start and read, in % of wall time. */
export class EventLoopMeter {
  private cpuStart = threadCpuMs();
  private wallStart = performance.now();

  restart(): void {
    this.cpuStart = threadCpuMs();
    this.wallStart = performance.now();
  }

  /** Busy % since the start, or undefined where threads' CPU cannot be read. */
  busyPercent(): number | undefined {
    const cpu = threadCpuMs();
    const wall = performance.now() - this.wallStart;
    if (cpu === undefined || this.cpuStart === undefined || wall <= 0) return undefined;
    return Math.round((1000 * (cpu - this.cpuStart)) / wall) / 10;
  }
}
