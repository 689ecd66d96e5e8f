/**
 * Spending a known amount of CPU in a test. A loop that spins for a wall-clock time gets any
 * share of a core on a loaded machine (from all of it to almost none), so a test that then
 * expects CPU to have been counted fails under load; a loop that spins until the process has
 * used a given CPU time only takes longer.
 */

/** Total CPU (user + system, all threads) this process has used since `start`, in ms. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

let sink = 0;

/** Spin until this process has used at least `ms` of CPU (by getrusage, as process.cpuUsage() reads it). */
export function burnCpu(ms: number): void {
  const start = process.cpuUsage();
  let x = sink;
  while (cpuMsSince(start) < ms) for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + i);
  // Kept so the loop is not optimised away.
  sink = x;
}
