import { encodeHistogram, maxOf, minOf, valueAtPercentile, type Histogram } from '../measure/histogram.ts';
import type { Measurements } from '../measure/measurements.ts';
import { STATUSES, type Status } from '../measure/status.ts';
import type { MeasuredPhase as PhaseOutcome } from './phase.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { faultNotes, faultsOf, partialOf } from './faults.ts';
import { describeMachine } from './machine.ts';
import { computeVerdict } from './verdict.ts';
import { RESULT_SCHEMA_VERSION, type OperationResult, type Result, type StoreInfo } from './schema.ts';

export type FlatProperties = Result['workload']['properties'];

/** Percentiles reported when the properties do not name any (YCSB's `hdrhistogram.percentiles`). */
const DEFAULT_PERCENTILES = [50, 95, 99, 99.9];

/** What the caller knows about a phase that the measurements do not. */
export interface ResultContext {
  kind: string;
  mode: 'direct' | 'http';
  workloadName: string;
  workloadFile?: string;
  /** YCSB properties, or a scenario's own settings as a flat record. */
  properties: WorkloadProperties | FlatProperties;
  overrides: readonly string[];
  store: StoreInfo;
}

/** Turn one phase's measurements into a result (the shape every report is rendered from). */
export function buildResult(outcome: PhaseOutcome, context: ResultContext): Result {
  const m = outcome.measurements;
  const p = context.properties;
  const operations = m.measuredOperations;
  const seconds = outcome.runtimeMs / 1000;
  const cpuMs = outcome.cpu.userMs + outcome.cpu.systemMs;
  const faults = faultsOf(outcome);
  const partial = partialOf(outcome, faults);
  const result: Result = {
    schemaVersion: RESULT_SCHEMA_VERSION,
    kind: context.kind,
    mode: context.mode,
    phase: outcome.phase,
    workload: {
      name: context.workloadName,
      ...(context.workloadFile ? { file: context.workloadFile } : {}),
      properties: isYcsb(p) ? flattenProperties(p) : { ...p },
      overrides: [...context.overrides],
    },
    store: context.store,
    machine: describeMachine(),
    startedAt: outcome.startedAt.toISOString(),
    endedAt: outcome.endedAt.toISOString(),
    overall: {
      runtimeMs: Math.round(outcome.runtimeMs),
      throughputOpsPerSec: seconds > 0 ? round3(operations / seconds) : 0,
      operations,
    },
    ...(partial ? { partial } : {}),
    ...(faults ? { faults } : {}),
    warmup: { seconds: typeof p.warmuptime === 'number' ? p.warmuptime : 0, operations: m.warmupOperations },
    clientCpu: {
      userMs: round3(outcome.cpu.userMs),
      systemMs: round3(outcome.cpu.systemMs),
      usPerOp: operations > 0 ? Math.round((cpuMs * 10_000) / operations) / 10 : 0,
      processes: outcome.processes ?? 1,
      ...(outcome.processesReason ? { processesReason: outcome.processesReason } : {}),
      ...(outcome.cpu.eventLoopBusyPercent ? { eventLoopBusyPercent: [...outcome.cpu.eventLoopBusyPercent] } : {}),
    },
    ...(outcome.cpu.machine ? { machineCpu: outcome.cpu.machine } : {}),
    returns: totalReturns(m),
    operations: operationRows(m, percentilesOf(p)),
    timeSeries: outcome.timeSeries.map((point) => ({ ...point, opsPerSec: round3(point.opsPerSec) })),
    ...(outcome.operationSeries ? { operationSeries: outcome.operationSeries } : {}),
    // Why the result is partial comes first; a phase's own verdict (a failed load) next, then the failures.
    notes: [...faultNotes(partial, undefined), ...outcome.notes, ...faultNotes(undefined, faults), ...saturationNotes(outcome)],
  };
  return withVerdict(result);
}

/** The result with its verdict, computed from its counts (after anything that changes them). */
export function withVerdict(result: Result): Result {
  result.verdict = computeVerdict(result);
  return result;
}

/** An event loop this busy ran out of CPU: the figures are the client's limit, not the store's. */
export const SATURATED_PERCENT = 90;

function saturationNotes(outcome: PhaseOutcome): string[] {
  const busy = outcome.cpu.eventLoopBusyPercent ?? [];
  const top = Math.max(0, ...busy);
  if (top < SATURATED_PERCENT || outcome.runtimeMs < 1000) return [];
  const processes = outcome.processes ?? 1;
  return [
    `the client's busiest event loop was ${top}% busy: it, not the store, may have set the pace; ` +
      `spread the workers over more processes (--processes ${processes * 2}) if the machine has the cores`,
  ];
}

function isYcsb(p: WorkloadProperties | FlatProperties): p is WorkloadProperties {
  return typeof (p as Partial<WorkloadProperties>).passthrough === 'object';
}

function percentilesOf(p: WorkloadProperties | FlatProperties): number[] {
  const listed = p['hdrhistogram.percentiles'];
  return Array.isArray(listed) && listed.length > 0 ? listed : DEFAULT_PERCENTILES;
}

/** Resolved properties plus the store settings, as one flat record. */
function flattenProperties(p: WorkloadProperties): FlatProperties {
  const { passthrough, ...typed } = p;
  const flat: FlatProperties = {};
  for (const [key, value] of Object.entries(typed)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') flat[key] = value;
    else if (Array.isArray(value)) flat[key] = value.map(Number);
  }
  return { ...flat, ...passthrough };
}

/** Rows in a stable order: known operations as YCSB lists them, then the rest by name. */
const OPERATION_ORDER = ['INSERT', 'INSERT-BATCH', 'READ', 'UPDATE', 'SCAN', 'READ-MODIFY-WRITE', 'DELETE', 'VERIFY'];

function baseOperation(row: string): string {
  return row.replace(/^Intended-/, '').replace(/-FAILED$/, '');
}

function rowRank(row: string): number {
  return (row.startsWith('Intended-') ? 2 : 0) + (row.endsWith('-FAILED') ? 1 : 0);
}

function compareRows(a: string, b: string): number {
  const baseA = baseOperation(a);
  const baseB = baseOperation(b);
  if (baseA !== baseB) {
    const ia = OPERATION_ORDER.indexOf(baseA);
    const ib = OPERATION_ORDER.indexOf(baseB);
    if (ia !== ib) return (ia < 0 ? OPERATION_ORDER.length : ia) - (ib < 0 ? OPERATION_ORDER.length : ib);
    return baseA < baseB ? -1 : 1;
  }
  return rowRank(a) - rowRank(b);
}

/** Every row of the measurements, with its histogram (also what a worker process hands its coordinator). */
export function operationRows(m: Measurements, percentiles: readonly number[]): OperationResult[] {
  const names = new Set<string>([...m.series.keys(), ...m.statuses.keys()]);
  return [...names].sort(compareRows).map((name) => {
    const histogram = m.series.get(name)?.histogram;
    const returns = m.statuses.has(name) ? returnsOf(m.statusCounts(name)) : undefined;
    const samples = m.errorSamples(name);
    return {
      name,
      latency: summarize(histogram, percentiles),
      ...(returns ? { returns } : {}),
      ...(samples.length > 0 ? { errorSamples: [...samples] } : {}),
      ...(histogram && histogram.totalCount > 0 ? { histogram: encodeHistogram(histogram) } : {}),
    };
  });
}

function summarize(histogram: Histogram | undefined, percentiles: readonly number[]): OperationResult['latency'] {
  const operations = histogram ? histogram.totalCount : 0;
  const percentilesUs: Record<string, number> = {};
  for (const p of percentiles) percentilesUs[String(p)] = histogram ? valueAtPercentile(histogram, p) : 0;
  if (!histogram || operations === 0) return { operations: 0, averageUs: 0, minUs: 0, maxUs: 0, percentilesUs };
  return {
    operations,
    averageUs: round3(histogram.mean),
    minUs: minOf(histogram),
    maxUs: maxOf(histogram),
    percentilesUs,
  };
}

function returnsOf(counts: ReadonlyMap<Status, number>): Result['returns'] {
  const out: Result['returns'] = {};
  for (const status of STATUSES) {
    const n = counts.get(status);
    if (n) out[status] = n;
  }
  return out;
}

function totalReturns(m: Measurements): Result['returns'] {
  const out: Result['returns'] = {};
  for (const status of STATUSES) {
    const n = m.totalOf(status);
    if (n > 0) out[status] = n;
  }
  return out;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
