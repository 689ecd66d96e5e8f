import type { Result } from '../results/schema.ts';

/**
 * YCSB's text output, rendered from a result: `[OVERALL]` lines, then per operation its count,
 * average/min/max and percentile latencies in µs and its `Return=` counts, so tools that parse
 * YCSB output read docbench's too. A header comment names the store and, when it applies, that
 * the server was a stand-in.
 */
export function renderYcsbText(result: Result): string {
  const lines: string[] = [];
  const s = result.store;
  lines.push(`# docbench ${result.machine.docbench} ${result.phase} ${result.workload.name} on ${s.name}: ${s.server} ${s.serverVersion} via ${s.driver}`);
  if (s.standIn) lines.push(`# STAND-IN: ${s.standIn.name} ${s.standIn.version}, not the real product (${s.standIn.note})`);
  for (const note of result.notes) lines.push(`# ${note}`);
  lines.push(`[OVERALL], RunTime(ms), ${result.overall.runtimeMs}`);
  lines.push(`[OVERALL], Throughput(ops/sec), ${formatNumber(result.overall.throughputOpsPerSec)}`);
  lines.push(`[CLIENT], CpuTimePerOp(us), ${result.clientCpu.usPerOp}`);
  if (result.machineCpu) {
    lines.push(`[MACHINE], CpuBusy(%), ${result.machineCpu.busyPercent}`);
    lines.push(`[MACHINE], CpuSteal(%), ${result.machineCpu.stealPercent}`);
  }
  for (const op of result.operations) {
    const name = `[${op.name}]`;
    const l = op.latency;
    if (l.operations > 0 || !op.returns) {
      lines.push(`${name}, Operations, ${l.operations}`);
      lines.push(`${name}, AverageLatency(us), ${formatNumber(l.averageUs)}`);
      lines.push(`${name}, MinLatency(us), ${l.minUs}`);
      lines.push(`${name}, MaxLatency(us), ${l.maxUs}`);
      for (const [p, value] of Object.entries(l.percentilesUs)) lines.push(`${name}, ${ordinal(p)}PercentileLatency(us), ${value}`);
    }
    for (const [status, count] of Object.entries(op.returns ?? {})) lines.push(`${name}, Return=${status}, ${count}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * YCSB's own ordinal (OneMeasurementHdrHistogram.ordinal): whole percentiles get an English
 * suffix ("50th", "95th", "99th", "1st"), fractional ones are printed bare ("99.9"), so the rows
 * read exactly like YCSB's and existing parsers keep working.
 */
function ordinal(p: string): string {
  const value = Number(p);
  if (!Number.isInteger(value)) return p;
  const mod100 = value % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${value}th`;
  const suffix = ['th', 'st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th'][value % 10]!;
  return `${value}${suffix}`;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/\.?0+$/, '');
}
