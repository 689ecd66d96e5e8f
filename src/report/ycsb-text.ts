import type { Result } from '../results/schema.ts';
import { verdictLine, verdictOf } from '../results/verdict.ts';
import { compatibleProduct } from '../results/product.ts';
import { deploymentLine } from './deployment.ts';

/** One of YCSB's output rows: `[metric], measurement, value` in its text, an object in its JSON. */
export interface YcsbMeasurement {
  metric: string;
  measurement: string;
  value: number;
}

/**
 * YCSB's text output, rendered from a result: `[OVERALL]` lines, then per operation its count,
 * average/min/max and percentile latencies in µs and its `Return=` counts, so tools that parse
 * YCSB output read docbench's too. A header comment names the store and, when it applies, that
 * the server was a stand-in. (This is YCSB's TextMeasurementsExporter; the JSON exporters are in
 * ycsb-export.ts. This module stays free of Node APIs: the k6 scripts bundle it.)
 */
export function renderYcsbText(result: Result): string {
  const lines = ycsbHeader(result).map((line) => `# ${line}`);
  for (const m of ycsbMeasurements(result)) lines.push(`[${m.metric}], ${m.measurement}, ${formatNumber(m.value)}`);
  return `${lines.join('\n')}\n`;
}

/** What a reader must know before the figures: docbench, the store and its version, the verdict, a stand-in, the notes. */
export function ycsbHeader(result: Result): string[] {
  const s = result.store;
  const lines = [
    `docbench ${result.machine.docbench} ${result.phase} ${result.workload.name} on ${s.name}: ${s.server} ${s.serverVersion} via ${s.driver}`,
  ];
  lines.push(`VERDICT: ${verdictLine(verdictOf(result))}`);
  if (s.standIn)
    lines.push(`STAND-IN: ${s.standIn.name} ${s.standIn.version}, not the real product (${s.standIn.note})`);
  if (s.compatible) lines.push(`SERVER: ${compatibleProduct(s.compatible)}, ${s.compatible.note}`);
  const deployment = deploymentLine(s);
  if (deployment) lines.push(`DEPLOYMENT: ${deployment}`);
  lines.push(...(s.notes ?? []), ...result.notes);
  return lines;
}

/** Every row YCSB's exporters write, in YCSB's order, plus docbench's `[CLIENT]` and `[MACHINE]` rows. */
export function ycsbMeasurements(result: Result): YcsbMeasurement[] {
  const rows: YcsbMeasurement[] = [];
  const add = (metric: string, measurement: string, value: number) => rows.push({ metric, measurement, value });
  add('OVERALL', 'RunTime(ms)', result.overall.runtimeMs);
  add('OVERALL', 'Throughput(ops/sec)', result.overall.throughputOpsPerSec);
  add('CLIENT', 'CpuTimePerOp(us)', result.clientCpu.usPerOp);
  if (result.machineCpu) {
    add('MACHINE', 'CpuBusy(%)', result.machineCpu.busyPercent);
    add('MACHINE', 'CpuSteal(%)', result.machineCpu.stealPercent);
  }
  for (const op of result.operations) {
    const l = op.latency;
    if (l.operations > 0 || !op.returns) {
      add(op.name, 'Operations', l.operations);
      add(op.name, 'AverageLatency(us)', l.averageUs);
      add(op.name, 'MinLatency(us)', l.minUs);
      add(op.name, 'MaxLatency(us)', l.maxUs);
      for (const [p, value] of Object.entries(l.percentilesUs))
        add(op.name, `${ordinal(p)}PercentileLatency(us)`, value);
    }
    for (const [status, count] of Object.entries(op.returns ?? {})) add(op.name, `Return=${status}`, count);
  }
  return rows;
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
