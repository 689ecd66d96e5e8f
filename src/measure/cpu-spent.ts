/** What a phase's CPU accounting reports (the runner's cpu-meter.ts measures it; results record it). */

/** The machine's CPU over a phase, as shares of all cores' time. */
export interface MachineCpu {
  /** Time any process (client, servers, anything else) ran, of the time the cores had. */
  busyPercent: number;
  /** Time the hypervisor ran another guest on these cores (Linux `steal`). */
  stealPercent: number;
}

export interface CpuSpent {
  userMs: number;
  systemMs: number;
  machine?: MachineCpu;
  /**
   * How busy each event loop that ran workers was over the window (its thread's CPU time over
   * wall time, %), where the OS tells (Linux). One loop is one core at most: near 100% the client
   * was the limit.
   */
  eventLoopBusyPercent?: number[];
}
