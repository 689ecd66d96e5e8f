/**
 * Stops a capacity step as soon as it is certain to miss its budget, not on a hunch: a step that
 * is planned to issue N operations can only add N − n more to what it measured so far, and even
 * if all of them took no time at all, the p-th percentile of the step would be at least the value
 * at rank ⌈pN/100⌉ − (N − n) of what was measured. Once that value is over the limit (or more
 * operations failed than the error budget allows of N), no outcome of the rest of the step can
 * make it hold. The bound uses the step's whole planned count for every row (a row gets fewer),
 * which only makes it later to fire, never wrong. Reads each second's rows (every process's).
 */
import { newLatencyHistogram, valueAtPercentile, type Histogram } from '../measure/histogram.ts';
import type { IntervalRows } from '../measure/interval-rows.ts';
import { isFailure, STATUSES } from '../measure/status.ts';
import type { RunControl, RunObserver } from '../runner/schedule.ts';
import type { LatencyClause, Slo } from '../results/slo.ts';

/** Not before this many operations of a row: a percentile of a handful of calls decides nothing. */
const MIN_SAMPLES = 100;

export class EarlyStop implements RunObserver {
  private readonly rows = new Map<string, Histogram>();
  private failed = 0;
  /** Why the step was stopped, once it was. */
  detail: string | undefined;

  constructor(
    private readonly slo: Slo,
    /** Operations the step's measured window is planned to issue (rate × seconds). */
    private readonly planned: number,
  ) {}

  second(rows: IntervalRows, recording: boolean, control: RunControl): void {
    if (!recording || this.detail !== undefined) return;
    for (const [name, histogram] of rows.histograms) {
      if (!name.startsWith('Intended-') || name.endsWith('-FAILED') || histogram.totalCount === 0) continue;
      let mine = this.rows.get(name);
      if (mine === undefined) {
        mine = newLatencyHistogram();
        this.rows.set(name, mine);
      }
      mine.add(histogram);
    }
    for (const counts of rows.counts.values())
      for (const status of STATUSES) if (isFailure(status)) this.failed += counts.get(status) ?? 0;
    this.detail = this.blown();
    if (this.detail !== undefined) control.stop('latency-budget');
  }

  /** Why the budget can no longer be met, or undefined while it can. */
  private blown(): string | undefined {
    const allowed = this.slo.errorBudget * this.planned;
    if (this.failed > allowed)
      return `${this.failed} operations failed, more than the error budget allows of the ${Math.round(this.planned)} planned`;
    for (const clause of this.slo.clauses) {
      for (const [name, histogram] of this.rows) {
        if (clause.operation !== undefined && name !== `Intended-${clause.operation}`) continue;
        const floor = this.floor(histogram, clause);
        if (floor !== undefined && floor > clause.limitUs) {
          return `${name} p${clause.percentile} can no longer be within ${clause.limitUs} µs: ${histogram.totalCount} operations measured, and even if the rest of the ${Math.round(this.planned)} planned took no time, it would be at least ${floor} µs`;
        }
      }
    }
    return undefined;
  }

  /** The least the row's percentile can end at, or undefined while the rest of the step could still bring it anywhere. */
  private floor(histogram: Histogram, clause: LatencyClause): number | undefined {
    const n = histogram.totalCount;
    if (n < MIN_SAMPLES) return undefined;
    const rest = Math.max(0, this.planned - n);
    const rank = Math.ceil((clause.percentile / 100) * (n + rest)) - rest;
    if (rank <= 0) return undefined;
    return valueAtPercentile(histogram, Math.min(100, (100 * rank) / n));
  }
}
