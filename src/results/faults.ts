/**
 * What a result says about failures: the failed operations (kept out of the throughput), the
 * outage windows read off the time series, and why a run that stopped early is partial. Each also
 * becomes a note, so the YCSB text says it before any figure is read.
 */
import type { TimeSeriesPoint } from '../measure/status-reporter.ts';
import type { MeasuredPhase as PhaseOutcome } from './phase.ts';
import { isOperationRow, type OperationSeries } from '../measure/operation-series.ts';
import { isFailure } from '../measure/status.ts';
import type { Measurements } from '../measure/measurements.ts';
import type { Faults, OperationOutage, Outage, Result } from './schema.ts';

/**
 * Outage windows: a window holds the seconds with calls that failed as out of reach, and the
 * seconds around them in which nothing succeeded (workers waiting on a store that does not
 * answer: a driver may hold calls for its server-selection timeout before failing them). Each
 * point covers the second before its `t`, so a window opens at the end of the last second that
 * still had successes.
 */
export function outagesOf(series: readonly TimeSeriesPoint[], startedAt: Date): Outage[] {
  const outages: Outage[] = [];
  let i = 0;
  while (i < series.length) {
    if ((series[i]!.outageCalls ?? 0) === 0) {
      i++;
      continue;
    }
    let first = i;
    while (first > 0 && succeeded(series[first - 1]!) === 0 && (outages.length === 0 || series[first - 1]!.t > outages.at(-1)!.toSecond)) first--;
    let last = i;
    while (last + 1 < series.length && ((series[last + 1]!.outageCalls ?? 0) > 0 || succeeded(series[last + 1]!) === 0)) last++;
    outages.push(outageOver(series, first, last, startedAt, last + 1 < series.length));
    i = last + 1;
  }
  return outages;
}

/**
 * A store that stopped answering without refusing or timing out before the run ended (a stalled
 * server, operations abandoned after the drain): the seconds at the end in which nothing
 * succeeded are an outage that had not recovered.
 */
function stalledEnd(series: readonly TimeSeriesPoint[], startedAt: Date, outages: readonly Outage[]): Outage | undefined {
  let first = series.length;
  while (first > 0 && succeeded(series[first - 1]!) === 0) first--;
  if (first === series.length) return undefined;
  if (outages.some((o) => o.toSecond >= series.at(-1)!.t)) return undefined;
  return outageOver(series, first, series.length - 1, startedAt, false);
}

const succeeded = (p: TimeSeriesPoint) => p.operations - (p.failed ?? 0);

/** The outage over points first…last: it opens where the second before `first` ended. */
function outageOver(series: readonly TimeSeriesPoint[], first: number, last: number, startedAt: Date, recovered: boolean): Outage {
  const window = series.slice(first, last + 1);
  const fromSecond = first > 0 ? series[first - 1]!.t : 0;
  const toSecond = series[last]!.t;
  return {
    from: at(startedAt, fromSecond),
    to: at(startedAt, toSecond),
    fromSecond,
    toSecond,
    failedOperations: window.reduce((n, p) => n + (p.failed ?? 0), 0),
    outageCalls: window.reduce((n, p) => n + (p.outageCalls ?? 0), 0),
    recovered,
  };
}

function at(startedAt: Date, seconds: number): string {
  return new Date(startedAt.getTime() + Math.round(seconds * 1000)).toISOString();
}

/** The `faults` part of a result: present when a policy was given or anything failed. */
export function faultsOf(outcome: PhaseOutcome): Faults | undefined {
  const m = outcome.measurements;
  const failed = m.failedOperations;
  const outages = outagesOf(outcome.timeSeries, outcome.startedAt);
  const stalled = m.abandonedOperations > 0 ? stalledEnd(outcome.timeSeries, outcome.startedAt, outages) : undefined;
  if (stalled) outages.push(stalled);
  if (outcome.faults === undefined && failed === 0 && outages.length === 0) return undefined;
  const issued = failed + m.measuredOperations;
  const policy = outcome.faults ?? { onError: 'continue' as const };
  const byOperation = outcome.operationSeries ? operationOutages(outcome.operationSeries, m) : [];
  return {
    onError: policy.onError,
    ...(policy.maxErrorRate !== undefined ? { maxErrorRate: policy.maxErrorRate } : {}),
    failedOperations: failed,
    errorRate: issued > 0 ? Math.round((failed / issued) * 1e6) / 1e6 : 0,
    outages,
    ...(byOperation.length > 0 ? { byOperation } : {}),
  };
}

/**
 * How each operation kind saw the outage, from the per-operation series: from the start of its
 * first interval with failures to the end of its last (a kind whose keys a failover did not touch
 * has none), whether it succeeded again after, and its failures by kind. On a cluster the kinds
 * differ: a lost master fails the reads and writes of its slots, an index on its slots every
 * scan, while the rest go on.
 */
export function operationOutages(series: OperationSeries, m: Measurements): OperationOutage[] {
  const outages: OperationOutage[] = [];
  for (const row of series.rows) {
    if (!isOperationRow(row.name) || !row.failed) continue;
    const first = row.failed.findIndex((n) => n > 0);
    if (first < 0) continue;
    let last = first;
    for (let i = first; i < row.failed.length; i++) if (row.failed[i]! > 0) last = i;
    const fromSecond = first > 0 ? series.t[first - 1]! : 0;
    const toSecond = series.t[last]!;
    const failures: Record<string, number> = {};
    for (const [status, count] of m.statusCounts(row.name)) if (status !== 'OK' && isFailure(status) && count > 0) failures[status] = count;
    outages.push({
      operation: row.name,
      fromSecond,
      toSecond,
      seconds: Math.round((toSecond - fromSecond) * 1000) / 1000,
      failed: row.failed.reduce((a, b) => a + b, 0),
      recovered: row.count.some((n, i) => i > last && n - (row.failed![i] ?? 0) > 0),
      failures,
    });
  }
  return outages;
}

/** The `partial` part of a result: why the run stopped early, when it did. */
export function partialOf(outcome: PhaseOutcome, faults: Faults | undefined): Result['partial'] {
  const reason = outcome.stopReason;
  if (reason === undefined || reason === 'complete') return undefined;
  const seconds = (outcome.endedAt.getTime() - outcome.startedAt.getTime()) / 1000;
  const when = `after ${seconds.toFixed(1)} s`;
  const detail = {
    SIGINT: `interrupted by SIGINT (Ctrl-C) ${when}`,
    SIGTERM: `interrupted by SIGTERM ${when}`,
    'on-error': `aborted at the first failed operation (--on-error abort) ${when}`,
    'error-budget': `stopped ${when}: ${percent(faults?.errorRate ?? 0)} of operations failed, over the error budget (maxerrorrate=${faults?.maxErrorRate ?? '?'})`,
    'latency-budget': `stopped early ${when}: ${outcome.stopDetail ?? 'the step was already certain to miss its budget'}`,
  }[reason];
  return { reason, detail };
}

/** Notes that put the failures first in the YCSB text. */
export function faultNotes(partial: Result['partial'], faults: Faults | undefined): string[] {
  const notes: string[] = [];
  if (partial) notes.push(`PARTIAL RESULT: ${partial.detail}; the figures cover the operations done until then`);
  if (faults && faults.failedOperations > 0) {
    notes.push(`${faults.failedOperations} operations failed (${percent(faults.errorRate)} of those issued): they are counted under Return= and the -FAILED rows, not in the throughput`);
  }
  for (const o of faults?.byOperation ?? []) {
    const kinds = Object.entries(o.failures).map(([status, n]) => `${n} ${status}`).join(', ');
    notes.push(`OUTAGE of ${o.operation}: failed from ${o.fromSecond.toFixed(1)} s to ${o.toSecond.toFixed(1)} s (${o.seconds.toFixed(1)} s, ${o.failed} failed${kinds ? `: ${kinds}` : ''}); ${o.recovered ? 'it succeeded again after' : 'it had not succeeded again when the run ended'}`);
  }
  for (const o of faults?.outages ?? []) {
    const back = o.recovered ? `it answered again from ${o.toSecond.toFixed(1)} s` : 'it had not answered again when the run ended';
    const what = o.outageCalls > 0 ? `${o.failedOperations} operations failed, ${o.outageCalls} calls refused or timed out` : 'no operation finished (the store stalled)';
    notes.push(
      `OUTAGE: the store was out of reach from ${o.fromSecond.toFixed(1)} s to ${o.toSecond.toFixed(1)} s into the run (${o.from} – ${o.to}): ` +
        `${what}; ${back}`,
    );
  }
  return notes;
}

function percent(rate: number): string {
  const p = rate * 100;
  return `${p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(2)}%`;
}

/** A note faultNotes wrote (made again when results are merged). */
export function isFaultNote(note: string): boolean {
  return /^(PARTIAL RESULT: |OUTAGE: |OUTAGE of |\d+ operations failed \()/.test(note);
}
