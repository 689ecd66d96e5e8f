/**
 * The per-operation series of results that ran at the same time (client machines of one run),
 * merged exactly: each point goes to the status interval of the wall clock it ended in, counted
 * from the earliest start, and the points that share an interval have their HDR histograms added
 * (never their percentiles averaged), so each merged point's p50, p99 and max are those of every
 * call the clients made in it. Clients start a little apart, so a point's calls may belong to the
 * interval before on another client's clock: the boundaries are as exact as the clients' starts
 * are close (the note a merged result carries says so); the counts and the histograms are exact.
 */
import { addEncodedHistogram, encodeHistogram, maxOf, newLatencyHistogram, valueAtPercentile, type Histogram } from '../measure/histogram.ts';
import { isOperationRow, OUTCOME_COLUMNS, type OutcomeColumn, type OutcomeSeconds } from '../measure/operation-series.ts';
import type { OperationSeriesResult, Result } from './schema.ts';

interface Slot {
  t: number;
  warmup: boolean;
  rows: Map<string, { histogram: Histogram; failed: number }>;
}

/** The merged series, or undefined when no result has one or their intervals differ (then none is exact). */
export function mergeOperationSeries(results: readonly Result[]): OperationSeriesResult | undefined {
  const withSeries = results.filter((r) => r.operationSeries !== undefined);
  if (withSeries.length === 0) return undefined;
  const interval = withSeries[0]!.operationSeries!.intervalSeconds;
  if (withSeries.some((r) => r.operationSeries!.intervalSeconds !== interval)) return undefined;
  if (withSeries.length === 1) return withSeries[0]!.operationSeries;
  const origin = Math.min(...withSeries.map((r) => Date.parse(r.startedAt)));
  const slots = new Map<number, Slot>();
  const names: string[] = [];
  for (const result of withSeries) {
    const series = result.operationSeries!;
    const offset = (Date.parse(result.startedAt) - origin) / 1000;
    series.t.forEach((t, i) => {
      const index = Math.max(1, Math.ceil((offset + t) / interval - 1e-9));
      let slot = slots.get(index);
      if (slot === undefined) {
        slot = { t: index * interval, warmup: false, rows: new Map() };
        slots.set(index, slot);
      }
      slot.warmup ||= series.warmup[i] ?? false;
      for (const row of series.rows) {
        if (!names.includes(row.name)) names.push(row.name);
        let merged = slot.rows.get(row.name);
        if (merged === undefined) {
          merged = { histogram: newLatencyHistogram(), failed: 0 };
          slot.rows.set(row.name, merged);
        }
        const encoded = row.histograms[i] ?? '';
        if (encoded !== '') addEncodedHistogram(merged.histogram, encoded);
        merged.failed += row.failed?.[i] ?? 0;
      }
    });
  }
  const ordered = [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([, slot]) => slot);
  const seconds = mergeOutcomeSeconds(withSeries);
  return {
    intervalSeconds: interval,
    t: ordered.map((s) => s.t),
    warmup: ordered.map((s) => s.warmup),
    rows: names.map((name) => {
      const points = ordered.map((s) => s.rows.get(name));
      const figure = (of: (h: Histogram) => number) => points.map((p) => (p && p.histogram.totalCount > 0 ? of(p.histogram) : 0));
      return {
        name,
        count: figure((h) => h.totalCount),
        ...(isOperationRow(name) ? { failed: points.map((p) => p?.failed ?? 0) } : {}),
        p50Us: figure((h) => valueAtPercentile(h, 50)),
        p99Us: figure((h) => valueAtPercentile(h, 99)),
        maxUs: figure(maxOf),
        histograms: points.map((p) => (p && p.histogram.totalCount > 0 ? encodeHistogram(p.histogram) : '')),
      };
    }),
    ...(seconds ? { seconds } : {}),
  };
}

/**
 * The per-second outcomes of results that ran at the same time, added second by second on the
 * wall clock as their time series are (results/merge.ts): each point goes to the second it
 * ended in, counted from the earliest start. Undefined when no result has them.
 */
export function mergeOutcomeSeconds(results: readonly Result[]): OutcomeSeconds | undefined {
  const withSeconds = results.filter((r) => r.operationSeries?.seconds !== undefined);
  if (withSeconds.length === 0) return undefined;
  const origin = Math.min(...withSeconds.map((r) => Date.parse(r.startedAt)));
  const slots = new Set<number>();
  const counts = new Map<string, Map<number, Record<OutcomeColumn, number>>>();
  for (const result of withSeconds) {
    const seconds = result.operationSeries!.seconds!;
    const offset = (Date.parse(result.startedAt) - origin) / 1000;
    const slotOf = seconds.t.map((t) => Math.ceil(offset + t - 1e-9));
    for (const slot of slotOf) slots.add(slot);
    for (const row of seconds.rows) {
      let bySlot = counts.get(row.operation);
      if (bySlot === undefined) {
        bySlot = new Map();
        counts.set(row.operation, bySlot);
      }
      for (const column of OUTCOME_COLUMNS) {
        const values = row[column];
        if (values === undefined) continue;
        values.forEach((n, i) => {
          if (n === 0) return;
          const slot = slotOf[i]!;
          let point = bySlot.get(slot);
          if (point === undefined) {
            point = { ok: 0, error: 0, unavailable: 0, timeout: 0 };
            bySlot.set(slot, point);
          }
          point[column] += n;
        });
      }
    }
  }
  const t = [...slots].sort((a, b) => a - b);
  return {
    t,
    rows: [...counts].map(([operation, bySlot]) => {
      const column = (c: OutcomeColumn) => t.map((slot) => bySlot.get(slot)?.[c] ?? 0);
      const row: OutcomeSeconds['rows'][number] = { operation, ok: column('ok') };
      for (const c of ['error', 'unavailable', 'timeout'] as const) {
        const values = column(c);
        if (values.some((n) => n > 0)) row[c] = values;
      }
      return row;
    }),
  };
}
