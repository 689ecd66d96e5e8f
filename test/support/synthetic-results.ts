/**
 * Results made in memory for report tests: real Measurements (so real HDR histograms), built with
 * buildResult as a run builds them, with the store, settings and stand-in a test chooses.
 */
import { Measurements } from '../../src/measure/measurements.ts';
import { REPETITION_PROPERTY } from '../../src/report/groups.ts';
import { buildResult } from '../../src/results/build.ts';
import { resultSchema, type Result, type StoreInfo } from '../../src/results/schema.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';

export interface SyntheticRun {
  store: string;
  standIn?: string;
  workload?: string;
  records?: number;
  threads?: number;
  repetition?: number;
  operations?: number;
  /** Median latency in ms the samples spread around (over three orders of magnitude). */
  latencyMs?: number;
  seed?: number;
  endedAt?: Date;
  runtimeMs?: number;
}

export function storeInfoOf(store: string, standIn?: string): StoreInfo {
  return {
    name: store,
    url: `${store}://127.0.0.1`,
    server: standIn ?? store,
    serverVersion: '1.0',
    driver: `${store}-driver 1.0`,
    localTarget: true,
    ...(standIn ? { standIn: { name: standIn, version: '0.1', note: `${standIn} is not ${store}` } } : {}),
  };
}

/** One call: its operation and latency. */
export interface Sample {
  operation: 'READ' | 'UPDATE';
  latencyMs: number;
}

/** `count` calls: latencies log-uniform around `medianMs` over three orders of magnitude, READ and UPDATE half each. */
export function samples(count: number, medianMs: number, seed: number): Sample[] {
  const random = new Random(seed);
  return Array.from({ length: count }, () => {
    const latencyMs = medianMs * 10 ** (random.nextDouble() * 3 - 1.5);
    return { operation: random.nextInt(2) === 0 ? 'READ' : 'UPDATE', latencyMs };
  });
}

export function recordCalls(m: Measurements, calls: readonly Sample[]): Measurements {
  for (const call of calls) {
    m.measure(call.operation, 'OK', 1000, 1000, 1000 + call.latencyMs);
    m.completeOperation(call.latencyMs);
  }
  return m;
}

export function recordSamples(m: Measurements, count: number, medianMs: number, seed: number): Measurements {
  return recordCalls(m, samples(count, medianMs, seed));
}

export function outcomeOf(m: Measurements, endedAt: Date, runtimeMs: number, ops: number): PhaseOutcome {
  const seconds = Math.max(1, Math.round(runtimeMs / 1000));
  const timeSeries = Array.from({ length: seconds }, (_, i) => ({
    t: i + 1,
    operations: Math.round(ops / seconds),
    opsPerSec: ops / seconds,
    p99Us: 1000,
    warmup: false,
  }));
  return {
    phase: 'run',
    measurements: m,
    startedAt: new Date(endedAt.getTime() - runtimeMs),
    endedAt,
    runtimeMs,
    timeSeries,
    cpu: { userMs: 100, systemMs: 10, machine: { busyPercent: 50, stealPercent: 1 } },
    recordsLoaded: 0,
    notes: [],
  };
}

export function syntheticResult(run: SyntheticRun): Result {
  const operations = run.operations ?? 2000;
  const m = new Measurements(true, true);
  m.measuredOperations = operations;
  recordSamples(m, operations, run.latencyMs ?? 2, run.seed ?? 1);
  const properties = workloadFromText(
    `recordcount=${run.records ?? 1000}\nthreadcount=${run.threads ?? 1}`,
    run.workload ?? 'workloada',
  );
  const runtimeMs = run.runtimeMs ?? 3000;
  const result = resultSchema.parse(
    buildResult(outcomeOf(m, run.endedAt ?? new Date('2026-01-01T00:00:10Z'), runtimeMs, operations), {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: run.workload ?? 'workloada',
      properties,
      overrides: [],
      store: storeInfoOf(run.store, run.standIn),
    }),
  );
  if (run.repetition !== undefined) result.workload.properties[REPETITION_PROPERTY] = run.repetition;
  return result;
}
