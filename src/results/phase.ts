/**
 * What one phase measured, before it is turned into a result: the shape the runner fills and
 * results/build.ts reads (and merge.ts rebuilds from saved results), declared here, below the
 * runner, so results never import the runner.
 */
import type { FaultPolicy } from '../common/fault-policy.ts';
import type { CpuSpent } from '../measure/cpu-spent.ts';
import type { Measurements } from '../measure/measurements.ts';
import type { OperationSeries } from '../measure/operation-series.ts';
import type { TimeSeriesPoint } from '../measure/status-reporter.ts';

/**
 * Why a run stopped before its end: its own end (operationcount, maxexecutiontime) is `complete`;
 * the others make its result partial: `on-error` (--on-error abort, at the first failed
 * operation), `error-budget` (the failed share passed maxerrorrate), `latency-budget` (a capacity
 * step already certain to miss its budget), or the signal that interrupted it.
 */
export const STOP_REASONS = ['complete', 'on-error', 'error-budget', 'SIGINT', 'SIGTERM', 'latency-budget'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** What one phase measured, before it is turned into a result. */
export interface MeasuredPhase {
  phase: 'load' | 'run';
  measurements: Measurements;
  startedAt: Date;
  endedAt: Date;
  /** Measured window (after warm-up) in ms. */
  runtimeMs: number;
  timeSeries: TimeSeriesPoint[];
  /** Each latency row every status interval. */
  operationSeries?: OperationSeries;
  cpu: CpuSpent;
  /** Records written by the load phase (OVERALL counts records, not batches). */
  recordsLoaded: number;
  notes: string[];
  /** Client processes (worker threads) the workers ran in; 1 when absent. */
  processes?: number;
  /** Why that many (session/process-count.ts), for the result. */
  processesReason?: string;
  /** Why the phase stopped; absent or `complete` when it ran to its end. */
  stopReason?: StopReason;
  /** What stopped it, in words, when its observer did (a capacity step's blown budget). */
  stopDetail?: string;
  /** The fault policy the phase ran under (recorded in the result). */
  faults?: FaultPolicy;
}

