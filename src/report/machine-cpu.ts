import type { Result } from '../results/schema.ts';

/** Steal above this share of the machine's CPU is called out: the run's figures are depressed. */
export const STEAL_WARNING_PERCENT = 5;

/**
 * One line on the machine's CPU over a set of runs (Linux only; undefined elsewhere): how busy
 * the cores were and how much a hypervisor stole, with a warning when the steal was high enough
 * to make the figures lower than the same machine gives when its host is quiet.
 */
export function describeMachineCpu(results: readonly Result[]): string | undefined {
  const measured = results.map((r) => r.machineCpu).filter((m) => m !== undefined);
  if (measured.length === 0) return undefined;
  const range = (values: number[]) => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    return lo === hi ? `${lo}%` : `${lo}–${hi}%`;
  };
  const steal = measured.map((m) => m.stealPercent);
  const line = `machine CPU while measuring: busy ${range(measured.map((m) => m.busyPercent))} of all cores, steal ${range(steal)}`;
  const worst = Math.max(...steal);
  return worst > STEAL_WARNING_PERCENT
    ? `${line}. WARNING: the hypervisor gave up to ${worst}% of this machine's CPU to other guests during these runs; their figures are lower than a quiet host gives, so compare them only with runs of similar steal`
    : line;
}
