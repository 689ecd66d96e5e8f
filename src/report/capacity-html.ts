/**
 * A capacity search in the HTML report: with repeated searches each store's median [min–max] and
 * whether its searches agree, then what held per search, then every step with its figures, its
 * try at the rate, and why it did or did not hold (the same rows as capacity.md and capacity.json).
 */
import type { CapacityCurve } from './capacity-curves.ts';
import {
  capacityVerdict,
  heldText,
  repeated,
  searchName,
  SPREAD_HEADER,
  spreadRows,
  stepSize,
  wasRetried,
} from './capacity-table.ts';
import { escapeHtml, htmlTable } from './html-tables.ts';

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (us: number) => (us / 1000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The section's tables, or undefined when no capacity step is among the results. */
export function capacitySection(curves: readonly CapacityCurve[]): string | undefined {
  if (curves.length === 0) return undefined;
  const several = repeated(curves);
  const spread = several ? htmlTable(SPREAD_HEADER, spreadRows(curves), 2) : '';
  const summary = htmlTable(
    [
      several ? 'search' : 'store',
      'workload',
      'latency budget',
      'error budget',
      'highest rate that held (ops/s)',
      'failed at (ops/s)',
      'step size',
      'steps',
    ],
    curves.map((c) => [
      searchName(c),
      c.workload,
      c.slo,
      `${(c.errorBudget * 100).toLocaleString('en-US')}%`,
      capacityVerdict(c),
      c.lowestFailed !== undefined ? n(c.lowestFailed) : '',
      stepSize(c),
      String(c.steps.length),
    ]),
    4,
  );
  const steps = htmlTable(
    [
      several ? 'search' : 'store',
      'step',
      'try',
      'offered ops/s',
      'done ops/s',
      'Intended p50 ms',
      'Intended p99 ms',
      'Intended p99.9 ms',
      'errors',
      'load average before / after',
      'held',
    ],
    curves.flatMap((c) =>
      c.steps.map((s) => [
        searchName(c),
        String(s.step),
        String(s.attempt),
        n(s.targetOpsPerSec),
        n(s.achievedOpsPerSec),
        ms(s.worstUs['50']),
        ms(s.worstUs['99']),
        ms(s.worstUs['99.9']),
        `${(s.errorRate * 100).toFixed(2)}%`,
        String(s.result.workload.properties['capacity.loadaverage'] ?? ''),
        heldText(s, wasRetried(c, s)),
      ]),
    ),
    2,
  );
  return `<p class="note">${escapeHtml("Each step is a run of the open model at the rate offered: its own warm-up, then long enough for the judged percentile; it holds when every operation kind's Intended- percentile (measured from when each operation was due, so queueing counts) is within the budget, its failures are within the error budget, and its run is valid. Latencies here are the worst operation kind's. A step that did not hold is tried again at its rate before the search brackets below it: a rate fails only when every try failed.")}</p>${
    several
      ? `<p class="note">${escapeHtml("Each store was searched once per round, the stores in a fresh random order each round. Its capacity is the median of its searches' highest rates that held, with [the lowest–the highest]; UNSTABLE when one search held at a rate another failed at (every try), so their figures differ by more than the search's step.")}</p>${spread}`
      : ''
  }${summary}${steps}`;
}
