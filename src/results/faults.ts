/**
 * What a result says about failures: the failed operations (kept out of the throughput), the
 * outage windows read off the time series, and why a run that stopped early is partial. Each also
 * becomes a note, so the YCSB text says it before any figure is read.
 *
 * An outage is a stretch in which the store could not serve: its calls failed because it was out
 * of reach (SERVICE_UNAVAILABLE, TIMEOUT), or nothing finished at all for far longer than the
 * run's own pace allows (a stalled server, whose calls wait without failing). An answer the store
 * gave is never one, however it failed (a conflict, a refused command: ERROR). Both are read at a
 * second's resolution: the run's from its time series, each operation kind's from its outcomes
 * second by second (`operationSeries.seconds`).
 */
import type { TimeSeriesPoint } from '../measure/status-reporter.ts';
import type { MeasuredPhase as PhaseOutcome } from './phase.ts';
import type { OutcomeSeconds } from '../measure/operation-series.ts';
import type { Faults, OperationOutage, Outage, Result } from './schema.ts';

/** A stretch in which no operation finished is a stall when it lasted at least this many seconds… */
export const STALL_MIN_SECONDS = 2;
/** …and the run's usual pace would have finished at least this many operations in it. */
export const STALL_MIN_OPERATIONS = 20;

/** Points first…last of a series (indexes, both included). */
type Window = [first: number, last: number];

/**
 * Outage windows: the seconds with calls that failed as out of reach, with the seconds around
 * them in which nothing succeeded (workers waiting on a store that does not answer: a driver may
 * hold calls for its server-selection timeout before failing them), and the stalls: seconds in
 * which no operation finished at all, long enough that the run's pace rules out chance. Each
 * point covers the second before its `t`, so a window opens at the end of the last second that
 * still had successes (or finished operations).
 */
export function outagesOf(series: readonly TimeSeriesPoint[], startedAt: Date): Outage[] {
  return unite([...unreachable(series), ...stalls(series)]).map(([first, last]) =>
    outageOver(series, first, last, startedAt, last + 1 < series.length),
  );
}

/** The seconds with calls refused or timed out, widened over the seconds around them in which nothing succeeded. */
function unreachable(series: readonly TimeSeriesPoint[]): Window[] {
  const windows: Window[] = [];
  let i = 0;
  while (i < series.length) {
    if ((series[i]!.outageCalls ?? 0) === 0) {
      i++;
      continue;
    }
    const floor = windows.length > 0 ? windows.at(-1)![1] + 1 : 0;
    let first = i;
    while (first > floor && succeeded(series[first - 1]!) === 0) first--;
    let last = i;
    while (last + 1 < series.length && ((series[last + 1]!.outageCalls ?? 0) > 0 || succeeded(series[last + 1]!) === 0))
      last++;
    windows.push([first, last]);
    i = last + 1;
  }
  return windows;
}

/**
 * The stretches in which no operation finished, failed or not: a paused or wedged server holds
 * every call without refusing it, and a driver whose timeout is longer than the pause never
 * fails one. A stretch counts when it lasted STALL_MIN_SECONDS and the run's usual second
 * finishes enough operations that STALL_MIN_OPERATIONS would have finished in it: a slow store
 * or a low target rate leaves seconds empty by chance, a stalled one for longer.
 */
function stalls(series: readonly TimeSeriesPoint[]): Window[] {
  const pace = usualPace(series);
  if (pace === 0) return [];
  const windows: Window[] = [];
  let i = 0;
  while (i < series.length) {
    if (series[i]!.operations > 0) {
      i++;
      continue;
    }
    let last = i;
    while (last + 1 < series.length && series[last + 1]!.operations === 0) last++;
    const seconds = series[last]!.t - startOf(series, i);
    if (seconds >= STALL_MIN_SECONDS && seconds * pace >= STALL_MIN_OPERATIONS) windows.push([i, last]);
    i = last + 1;
  }
  return windows;
}

/** Operations finished in the run's usual second: the median over the seconds in which any finished (slivers left out). */
function usualPace(series: readonly TimeSeriesPoint[]): number {
  const rates: number[] = [];
  for (let i = 0; i < series.length; i++) {
    const seconds = series[i]!.t - startOf(series, i);
    if (series[i]!.operations > 0 && seconds >= 0.5) rates.push(series[i]!.operations / seconds);
  }
  if (rates.length === 0) return 0;
  rates.sort((a, b) => a - b);
  const middle = rates.length >> 1;
  return rates.length % 2 === 1 ? rates[middle]! : (rates[middle - 1]! + rates[middle]!) / 2;
}

/** Where point i's second began: the end of the point before it. */
const startOf = (series: readonly { t: number }[], i: number) => (i > 0 ? series[i - 1]!.t : 0);

/** Windows in order, those that overlap or touch made one. */
function unite(windows: Window[]): Window[] {
  const united: Window[] = [];
  for (const [first, last] of windows.sort((a, b) => a[0] - b[0])) {
    const previous = united.at(-1);
    if (previous !== undefined && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else united.push([first, last]);
  }
  return united;
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
  const fromSecond = startOf(series, first);
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
  const byOperation = operationOutages(outcome.operationSeries?.seconds);
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
 * How each operation kind saw the outages, from its outcomes second by second: each stretch of
 * seconds in which its calls failed as out of reach (SERVICE_UNAVAILABLE, TIMEOUT), from the
 * start of its first such second to the end of its last, the seconds between two of them in which
 * the store answered none of its calls bridged (nothing says the store was back); whether the
 * store answered it again after; its failures by kind in the window. A kind whose keys a failover
 * did not touch has none; errors the store answered (conflicts) are none. On a cluster the kinds
 * differ: a lost master fails the reads and writes of its slots, an index on its slots every
 * scan, while the rest go on.
 */
export function operationOutages(seconds: OutcomeSeconds | undefined): OperationOutage[] {
  if (seconds === undefined) return [];
  const { t } = seconds;
  const outages: OperationOutage[] = [];
  for (const row of seconds.rows) {
    const { unavailable, timeout } = row;
    if (unavailable === undefined && timeout === undefined) continue;
    const down = (i: number) => (unavailable?.[i] ?? 0) + (timeout?.[i] ?? 0);
    const answered = (i: number) => (row.ok[i] ?? 0) + (row.error?.[i] ?? 0);
    let i = 0;
    while (i < t.length) {
      if (down(i) === 0) {
        i++;
        continue;
      }
      const first = i;
      let last = i;
      let next = i + 1;
      for (; next < t.length && (down(next) > 0 || answered(next) === 0); next++) if (down(next) > 0) last = next;
      const fromSecond = first > 0 ? t[first - 1]! : 0;
      const toSecond = t[last]!;
      const failures: Record<string, number> = {};
      let failed = 0;
      for (const [status, column] of [
        ['SERVICE_UNAVAILABLE', unavailable],
        ['TIMEOUT', timeout],
      ] as const) {
        const n = column === undefined ? 0 : sumOf(column, first, last);
        if (n > 0) failures[status] = n;
        failed += n;
      }
      outages.push({
        operation: row.operation,
        fromSecond,
        toSecond,
        seconds: Math.round((toSecond - fromSecond) * 1000) / 1000,
        failed,
        recovered: next < t.length,
        failures,
      });
      i = next;
    }
  }
  return outages.sort((a, b) => a.fromSecond - b.fromSecond || (a.operation < b.operation ? -1 : 1));
}

function sumOf(values: readonly number[], first: number, last: number): number {
  let n = 0;
  for (let i = first; i <= last; i++) n += values[i] ?? 0;
  return n;
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
    notes.push(`OUTAGE of ${o.operation}: out of reach from ${o.fromSecond.toFixed(1)} s to ${o.toSecond.toFixed(1)} s (${o.seconds.toFixed(1)} s, ${o.failed} calls failed${kinds ? `: ${kinds}` : ''}); ${o.recovered ? 'the store answered it again after' : 'the store had not answered it again when the run ended'}`);
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
