/**
 * How a capacity search's steps are judged, and the curve they draw: each step is an ordinary run
 * result at a target rate (the open model), whose properties say which search, step and budget it
 * belongs to. A step held when its run is valid, it ran to its end, every judged `Intended-`
 * percentile (coordinated-omission corrected: measured from when each operation was due) is within
 * the latency budget, its failed share is within the error budget, and the client issued the rate
 * it was asked for. Judged from the results alone, with the one percentile function
 * (report/percentiles.ts), so the command, the summary file and a report made later agree.
 */
import type { Result } from '../results/schema.ts';
import { parseLatencyBudget, type LatencyClause } from '../results/slo.ts';
import { isValid, verdictOf } from '../results/verdict.ts';
import { latencyPercentile, rowHistogram } from './percentiles.ts';

/** The properties a capacity step's result carries. */
export const CAPACITY = {
  search: 'capacity.search',
  step: 'capacity.step',
  slo: 'capacity.slo',
  errorBudget: 'capacity.errorbudget',
  loadAverage: 'capacity.loadaverage',
  /** End to end: iterations k6 dropped (no free VU), counted as failed operations. */
  dropped: 'capacity.dropped',
} as const;

/** A step issued at least this share of its target rate, or the client, not the store, fell short. */
export const ISSUED_SHARE = 0.9;

/** Samples beyond the judged percentile a step is planned to hold (see capacity/plan.ts). */
export const TAIL_SAMPLES = 100;

export interface JudgedFigure {
  /** The `Intended-` row judged. */
  row: string;
  percentile: number;
  limitUs: number;
  valueUs: number;
  /** Calls in the row: a percentile of fewer than TAIL_SAMPLES / (1 - p) rests on few samples. */
  samples: number;
  ok: boolean;
}

export interface StepJudgment {
  result: Result;
  step: number;
  targetOpsPerSec: number;
  /** Operations that did their work per second (the throughput). */
  achievedOpsPerSec: number;
  /** Operations issued (done and failed) per second of the measured window. */
  issuedOpsPerSec: number;
  errorRate: number;
  judged: JudgedFigure[];
  /** The worst `Intended-` percentile over the operation kinds, per reported percentile: the curve's points. */
  worstUs: Record<'50' | '99' | '99.9', number>;
  valid: boolean;
  stoppedEarly: boolean;
  held: boolean;
  /** Why it did not hold (empty when it held). */
  why: string[];
  /** The try at this rate within its search: 1, or 2 and on for a retry after a step that did not hold. */
  attempt: number;
}

export interface CapacityCurve {
  search: string;
  /** The round of `capacity --repetitions N` this search ran in (undefined: a single search). */
  round?: number;
  store: string;
  workload: string;
  slo: string;
  errorBudget: number;
  steps: StepJudgment[];
  /** The highest target that held below every rate that failed; undefined when none held. */
  highestHeld?: number;
  /** The lowest target above it that failed; undefined when none failed (the capacity is at least highestHeld). */
  lowestFailed?: number;
}

export function isCapacityStep(r: Result): boolean {
  return typeof r.workload.properties[CAPACITY.slo] === 'string' && r.phase === 'run';
}

function numberOf(r: Result, key: string): number {
  const v = r.workload.properties[key];
  return typeof v === 'number' ? v : Number(v ?? NaN);
}

/**
 * The operation kinds a step judges: every `Intended-` row but the failed calls and the checks;
 * end to end (k6 keeps no `Intended-` row) every operation row.
 */
function judgedOperations(r: Result): string[] {
  const names = r.operations
    .filter((o) => o.latency.operations > 0)
    .map((o) => o.name)
    .filter((n) => !n.endsWith('-FAILED') && !n.endsWith('VERIFY'));
  if (r.mode === 'http') return names.filter((n) => !n.startsWith('Intended-') && n !== 'READ-MODIFY-WRITE');
  return names.filter((n) => n.startsWith('Intended-')).map((n) => n.slice('Intended-'.length));
}

/** The row judged for an operation: its `Intended-` row, or end to end k6's own. */
function judgedRow(r: Result, operation: string): string {
  return r.mode === 'http' ? operation : `Intended-${operation}`;
}

function figure(r: Result, operation: string, clause: LatencyClause): JudgedFigure {
  const row = judgedRow(r, operation);
  const valueUs = latencyPercentile([r], row, clause.percentile) ?? 0;
  const samples = rowHistogram([r], row)?.totalCount ?? 0;
  return {
    row,
    percentile: clause.percentile,
    limitUs: clause.limitUs,
    valueUs,
    samples,
    ok: valueUs <= clause.limitUs,
  };
}

function us(value: number): string {
  return value >= 1000 ? `${(value / 1000).toLocaleString('en-US', { maximumFractionDigits: 2 })} ms` : `${value} µs`;
}

function percentText(share: number): string {
  return `${(share * 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
}

/** Judge one step's result against the budget it records. */
export function judgeStep(r: Result): StepJudgment {
  const clauses = parseLatencyBudget(String(r.workload.properties[CAPACITY.slo]), 'capacity.slo');
  const errorBudget = numberOf(r, CAPACITY.errorBudget);
  const target = numberOf(r, 'target');
  const seconds = r.overall.runtimeMs / 1000;
  const failed = r.faults?.failedOperations ?? 0;
  const issued = seconds > 0 ? (r.overall.operations + failed) / seconds : 0;
  // End to end, an iteration k6 dropped for want of a free VU is an operation the service did not do.
  const dropped = r.mode === 'http' ? numberOf(r, CAPACITY.dropped) || 0 : 0;
  const all = r.overall.operations + failed + dropped;
  const errorRate = dropped > 0 ? (all > 0 ? (failed + dropped) / all : 0) : (r.faults?.errorRate ?? 0);
  const operations = judgedOperations(r);
  const judged = clauses.flatMap((clause) =>
    operations
      .filter((op) => clause.operation === undefined || clause.operation === op)
      .map((op) => figure(r, op, clause)),
  );
  const worst = (p: number) => Math.max(0, ...operations.map((op) => latencyPercentile([r], judgedRow(r, op), p) ?? 0));
  const valid = isValid(r);
  const stoppedEarly = r.partial?.reason === 'latency-budget';
  const why: string[] = [];
  if (!valid)
    why.push(
      `invalid run: ${verdictOf(r)
        .reasons.map((reason) => reason.detail)
        .join('; ')}`,
    );
  if (stoppedEarly) why.push(r.partial!.detail);
  else if (r.partial) why.push(`the step did not run to its end: ${r.partial.detail}`);
  for (const j of judged.filter((f) => !f.ok))
    why.push(`${j.row} p${j.percentile} ${us(j.valueUs)} > ${us(j.limitUs)}`);
  if (judged.length === 0 && valid)
    why.push('no operation was measured from its intended start (measurement.interval=op?)');
  if (errorRate > errorBudget)
    why.push(
      `${percentText(errorRate)} of operations failed${dropped > 0 ? ` (${dropped} iterations k6 dropped among them)` : ''}, over the error budget of ${percentText(errorBudget)}`,
    );
  if (!stoppedEarly && r.mode !== 'http' && target > 0 && issued < ISSUED_SHARE * target)
    why.push(
      `the client issued ${Math.round(issued)} ops/s of the ${target} asked for (too few workers, or the client's CPU was the limit)`,
    );
  return {
    result: r,
    step: numberOf(r, CAPACITY.step),
    targetOpsPerSec: target,
    achievedOpsPerSec: r.overall.throughputOpsPerSec,
    issuedOpsPerSec: Math.round(issued * 10) / 10,
    errorRate,
    judged,
    worstUs: { '50': worst(50), '99': worst(99), '99.9': worst(99.9) },
    valid,
    stoppedEarly,
    held: why.length === 0,
    why,
    attempt: 1,
  };
}

/**
 * The highest held target below every failed one, and the lowest failed target above it. A rate
 * tried more than once (a retry after a step that did not hold) held when any of its tries held,
 * and failed only when every try failed.
 */
export function bracketOf(steps: readonly Pick<StepJudgment, 'targetOpsPerSec' | 'held'>[]): {
  highestHeld?: number;
  lowestFailed?: number;
} {
  const heldAt = new Map<number, boolean>();
  for (const s of steps) heldAt.set(s.targetOpsPerSec, (heldAt.get(s.targetOpsPerSec) ?? false) || s.held);
  const rates = [...heldAt];
  const failedRates = rates.filter(([, held]) => !held).map(([rate]) => rate);
  const lowestFailedAll = failedRates.length > 0 ? Math.min(...failedRates) : Infinity;
  const held = rates.filter(([rate, ok]) => ok && rate < lowestFailedAll).map(([rate]) => rate);
  const highestHeld = held.length > 0 ? Math.max(...held) : undefined;
  const above = failedRates.filter((rate) => highestHeld === undefined || rate > highestHeld);
  const lowestFailed = above.length > 0 ? Math.min(...above) : undefined;
  return {
    ...(highestHeld !== undefined ? { highestHeld } : {}),
    ...(lowestFailed !== undefined ? { lowestFailed } : {}),
  };
}

/**
 * Every capacity search among the results (one per store, workload and round): its steps judged,
 * in step order, each step's try at its rate, and what held.
 */
export function capacityCurves(results: readonly Result[], label: (r: Result) => string): CapacityCurve[] {
  const curves = new Map<string, CapacityCurve>();
  for (const r of results.filter(isCapacityStep)) {
    const search = String(r.workload.properties[CAPACITY.search] ?? '');
    const round = r.repetition?.round;
    const key = JSON.stringify([search, round ?? null, label(r), r.workload.name]);
    let curve = curves.get(key);
    if (curve === undefined) {
      curve = {
        search,
        ...(round !== undefined ? { round } : {}),
        store: label(r),
        workload: r.workload.name,
        slo: String(r.workload.properties[CAPACITY.slo]),
        errorBudget: numberOf(r, CAPACITY.errorBudget),
        steps: [],
      };
      curves.set(key, curve);
    }
    curve.steps.push(judgeStep(r));
  }
  for (const curve of curves.values()) {
    curve.steps.sort((a, b) => a.step - b.step);
    curve.steps.forEach((s, i) => {
      s.attempt = 1 + curve.steps.slice(0, i).filter((t) => t.targetOpsPerSec === s.targetOpsPerSec).length;
    });
    Object.assign(curve, bracketOf(curve.steps));
  }
  // Round by round, in the order the stores ran (a report of several folders: by search first).
  return [...curves.values()].sort(
    (a, b) =>
      (a.search < b.search ? -1 : a.search > b.search ? 1 : 0) ||
      (a.round ?? 0) - (b.round ?? 0) ||
      (a.steps[0]?.result.repetition?.position ?? 0) - (b.steps[0]?.result.repetition?.position ?? 0),
  );
}
