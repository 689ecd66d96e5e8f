/**
 * What a result says about failures: the failed operations (kept out of the throughput), the
 * outage windows read off the time series, and why a run that stopped early is partial. Each also
 * becomes a note, so the YCSB text says it before any figure is read.
 */
import type { TimeSeriesPoint } from '../measure/status-reporter.ts';
import type { PhaseOutcome } from '../runner/phases.ts';
import type { Faults, Outage, Result } from './schema.ts';

/**
 * Outage windows: a window opens at a second with calls that failed as out of reach, and goes on
 * through the seconds that have such calls or in which nothing succeeded (workers waiting for a
 * store that does not answer). Each point covers the second before its `t`.
 */
export function outagesOf(series: readonly TimeSeriesPoint[], startedAt: Date): Outage[] {
  const outages: Outage[] = [];
  let open: { from: number; to: number; failed: number; calls: number } | undefined;
  let previousT = 0;
  const close = (recovered: boolean) => {
    if (open === undefined) return;
    outages.push({
      from: at(startedAt, open.from),
      to: at(startedAt, open.to),
      fromSecond: open.from,
      toSecond: open.to,
      failedOperations: open.failed,
      outageCalls: open.calls,
      recovered,
    });
    open = undefined;
  };
  for (const point of series) {
    const calls = point.outageCalls ?? 0;
    const failed = point.failed ?? 0;
    const succeeded = point.operations - failed;
    if (calls > 0 || (open !== undefined && succeeded === 0)) {
      open ??= { from: previousT, to: point.t, failed: 0, calls: 0 };
      open.to = point.t;
      open.failed += failed;
      open.calls += calls;
    } else if (open !== undefined) close(true);
    previousT = point.t;
  }
  close(false);
  return outages;
}

function at(startedAt: Date, seconds: number): string {
  return new Date(startedAt.getTime() + Math.round(seconds * 1000)).toISOString();
}

/** The `faults` part of a result: present when a policy was given or anything failed. */
export function faultsOf(outcome: PhaseOutcome): Faults | undefined {
  const m = outcome.measurements;
  const failed = m.failedOperations;
  const outages = outagesOf(outcome.timeSeries, outcome.startedAt);
  if (outcome.faults === undefined && failed === 0 && outages.length === 0) return undefined;
  const issued = failed + m.measuredOperations;
  const policy = outcome.faults ?? { onError: 'continue' as const };
  return {
    onError: policy.onError,
    ...(policy.maxErrorRate !== undefined ? { maxErrorRate: policy.maxErrorRate } : {}),
    failedOperations: failed,
    errorRate: issued > 0 ? Math.round((failed / issued) * 1e6) / 1e6 : 0,
    outages,
  };
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
  for (const o of faults?.outages ?? []) {
    const back = o.recovered ? `it answered again from ${o.toSecond.toFixed(1)} s` : 'it had not answered again when the run ended';
    notes.push(
      `OUTAGE: the store was out of reach from ${o.fromSecond.toFixed(1)} s to ${o.toSecond.toFixed(1)} s into the run (${o.from} – ${o.to}): ` +
        `${o.failedOperations} operations failed, ${o.outageCalls} calls refused or timed out; ${back}`,
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
  return /^(PARTIAL RESULT: |OUTAGE: |\d+ operations failed \()/.test(note);
}
