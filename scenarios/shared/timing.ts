/**
 * Timing scenario calls the way the YCSB runner times store calls: each call measured in one
 * place with `performance.now()`, recorded in microseconds in an HDR histogram per operation
 * name (`Measurements`), its outcome counted as `OK`, `UNSUPPORTED` or `ERROR`. Scenario code
 * and store dialects never touch the clock themselves.
 *
 * A `ScenarioTimer` covers one phase (a load, a set of queries); `outcome()` closes it and
 * `scenarioResult()` turns it into a `Result` in the common schema, so tables and JSON files
 * are rendered from the same value as every YCSB result.
 */
import { Measurements } from '../../src/measure/measurements.ts';
import { buildResult, type FlatProperties } from '../../src/results/build.ts';
import type { Result, StoreInfo } from '../../src/results/schema.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import { CpuMeter } from '../../src/runner/cpu-meter.ts';
import { timed } from '../../src/measure/timed.ts';

export interface Timed<T> {
  value: T;
  ms: number;
}

export class ScenarioTimer {
  readonly measurements = new Measurements(true, false);
  private readonly startedAt = new Date();
  private readonly startMs = performance.now();
  private readonly cpuMeter = new CpuMeter();
  private readonly notes: string[] = [];

  /**
   * Time one call under `operation`. `operations` is how many client-level operations the call
   * stands for (the documents of a bulk write), counted in the result's OVERALL figures. An
   * `UnsupportedError` is counted as UNSUPPORTED, anything else thrown as ERROR; both are
   * rethrown so the caller decides whether the phase goes on.
   */
  async time<T>(operation: string, call: () => Promise<T>, operations = 1): Promise<Timed<T>> {
    const t = await timed(call);
    this.measurements.measure(operation, t.status, t.startMs, t.startMs, t.endMs, t.error);
    if (t.status !== 'OK') throw t.error;
    const ms = t.endMs - t.startMs;
    for (let i = 0; i < operations; i++) this.measurements.completeOperation(ms);
    return { value: t.value as T, ms };
  }

  /**
   * Record the check of an answer under `operation` (e.g. `Q1-VERIFY`, as YCSB's VERIFY row):
   * OK, or UNEXPECTED_STATE with the problem kept among the row's error samples.
   */
  check(operation: string, ok: boolean, latencyMs: number, problem?: string): void {
    this.measurements.countStatus(operation, ok ? 'OK' : 'UNEXPECTED_STATE', problem);
    this.measurements.record(operation, latencyMs);
  }

  /** A line for the result's notes (how a figure was obtained, what a stand-in could not do). */
  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** Close the phase: wall time since the timer was made, client CPU, notes. */
  outcome(phase: 'load' | 'run'): PhaseOutcome {
    const runtimeMs = performance.now() - this.startMs;
    return {
      phase,
      measurements: this.measurements,
      startedAt: this.startedAt,
      endedAt: new Date(),
      runtimeMs,
      timeSeries: [],
      cpu: this.cpuMeter.read(),
      recordsLoaded: phase === 'load' ? this.measurements.measuredOperations : 0,
      notes: [...this.notes],
    };
  }
}

export interface ScenarioResultContext {
  /** The scenario's name (`persons`), recorded as the result's kind. */
  scenario: string;
  /** A name for this run, e.g. `persons-flat-50000`. */
  workloadName: string;
  /** The scenario's settings, flat: size, seed, shape, what the oracle expects, … */
  properties: FlatProperties;
  store: StoreInfo;
}

/** A phase's outcome as a result in the common schema. */
export function scenarioResult(outcome: PhaseOutcome, context: ScenarioResultContext): Result {
  return buildResult(outcome, {
    kind: context.scenario,
    mode: 'direct',
    workloadName: context.workloadName,
    properties: context.properties,
    overrides: [],
    store: context.store,
  });
}

/** Mean latency of one operation row of a result, in ms (undefined when it never succeeded). */
export function meanMs(result: Result, operation: string): number | undefined {
  const row = result.operations.find((o) => o.name === operation);
  return row && row.latency.operations > 0 ? row.latency.averageUs / 1000 : undefined;
}
