/**
 * The runners of one k6-operator TestRun, merged. Each runner's result (docbench's, from k6's
 * end-of-test summary) holds counts, sums and per-operation percentiles, but no histogram: k6's
 * summary has none. So what sums is exact (operations, each status's count, answers checked,
 * the service's requests and CPU, and the mean, weighted by count), min and max are exact, and a
 * percentile is not: only a bound is known. For each runner, at least p% of its samples lie at or
 * below its own pXX, so at least p% of all samples lie at or below the largest runner's pXX, and
 * likewise at or above the smallest: the merged pXX lies between the runners' smallest and
 * largest pXX (up to k6's interpolation between neighbouring samples). That interval is what is
 * reported, labelled as such; neither end is the merged percentile.
 */
import type { Result } from '../results/schema.ts';

export interface MergedRow {
  name: string;
  /** Exact: sums over the runners. */
  operations: number;
  returns: Record<string, number>;
  /** Exact: the runners' means weighted by their counts. */
  averageUs: number;
  minUs: number;
  maxUs: number;
  /** Not mergeable: per percentile, the interval the merged value lies in. */
  percentileBoundsUs: Record<string, { atLeast: number; atMost: number }>;
}

export interface K6Merge {
  kind: 'docbench k6-operator merge';
  runners: number;
  workload: string;
  store: string;
  /** Exact sums. */
  operations: number;
  returns: Record<string, number>;
  /** The sum of each runner's own rate (each over its own window). */
  throughputOpsPerSec: number;
  /** The runners' windows, ms: how far apart they were. */
  runtimeMs: { min: number; max: number };
  service: { requests: number; cpuUs: number };
  rows: MergedRow[];
  notes: string[];
}

export const PERCENTILES_NOT_MERGEABLE =
  "percentiles are not mergeable from k6's summaries (they hold no histogram): each pXX is given as the interval [smallest, largest] of the runners' pXX, which holds the merged pXX; neither end is it";

function sumInto(target: Record<string, number>, source: Record<string, number | undefined> | undefined): void {
  for (const [k, v] of Object.entries(source ?? {})) target[k] = (target[k] ?? 0) + (v ?? 0);
}

export function mergeK6Runners(results: readonly Result[]): K6Merge {
  const first = results[0]!;
  const rows = new Map<string, MergedRow & { weighted: number }>();
  for (const r of results) {
    for (const op of r.operations) {
      const l = op.latency;
      let row = rows.get(op.name);
      if (row === undefined) {
        row = {
          name: op.name,
          operations: 0,
          returns: {},
          averageUs: 0,
          weighted: 0,
          minUs: Number.POSITIVE_INFINITY,
          maxUs: 0,
          percentileBoundsUs: {},
        };
        rows.set(op.name, row);
      }
      row.operations += l.operations;
      sumInto(row.returns, op.returns as Record<string, number>);
      row.weighted += l.averageUs * l.operations;
      // A runner that recorded no call of this operation says nothing about its latency.
      if (l.operations === 0) continue;
      row.minUs = Math.min(row.minUs, l.minUs);
      row.maxUs = Math.max(row.maxUs, l.maxUs);
      for (const [p, us] of Object.entries(l.percentilesUs)) {
        const b = row.percentileBoundsUs[p];
        row.percentileBoundsUs[p] =
          b === undefined
            ? { atLeast: us, atMost: us }
            : { atLeast: Math.min(b.atLeast, us), atMost: Math.max(b.atMost, us) };
      }
    }
  }
  const returns: Record<string, number> = {};
  for (const r of results) sumInto(returns, r.returns as Record<string, number>);
  const extra = (r: Result, key: string) => Number(r.store.extra?.[key] ?? 0);
  const runtimes = results.map((r) => r.overall.runtimeMs);
  return {
    kind: 'docbench k6-operator merge',
    runners: results.length,
    workload: first.workload.name,
    store: first.store.name,
    operations: results.reduce((n, r) => n + r.overall.operations, 0),
    returns,
    throughputOpsPerSec: Math.round(results.reduce((n, r) => n + r.overall.throughputOpsPerSec, 0) * 1000) / 1000,
    runtimeMs: { min: Math.min(...runtimes), max: Math.max(...runtimes) },
    // The service's counters are recorded by teardown(), which k6-operator runs once, on one
    // runner: they are in that runner's summary alone, and summing adds nothing twice.
    service: {
      requests: results.reduce((n, r) => n + extra(r, 'service.requests'), 0),
      cpuUs: results.reduce((n, r) => n + extra(r, 'service.cpuUs'), 0),
    },
    rows: [...rows.values()].map(({ weighted, ...row }) => ({
      ...row,
      averageUs: row.operations > 0 ? Math.round((weighted / row.operations) * 1000) / 1000 : 0,
      minUs: Number.isFinite(row.minUs) ? row.minUs : 0,
    })),
    notes: [
      'exact: operations, each status count, answers checked, the service requests and CPU (sums), mean latency (weighted by count), min and max',
      "throughput: the sum of each runner's own rate; k6-operator starts the runners together, and runtimeMs gives how far their windows differ",
      PERCENTILES_NOT_MERGEABLE,
    ],
  };
}

/** The merge as text: exact figures, and each percentile as the interval it lies in, saying so. */
export function renderK6Merge(m: K6Merge): string {
  const ms = (us: number) => (us / 1000).toFixed(2);
  const lines = [
    `${m.store} ${m.workload}: ${m.runners} k6 runners merged`,
    `operations ${m.operations} (exact), throughput ${m.throughputOpsPerSec} ops/s (sum of the runners' rates; windows ${m.runtimeMs.min}–${m.runtimeMs.max} ms)`,
  ];
  for (const row of m.rows) {
    const bounds = Object.entries(row.percentileBoundsUs)
      .map(([p, b]) => `p${p} in [${ms(b.atLeast)}, ${ms(b.atMost)}]`)
      .join(', ');
    lines.push(
      `  ${row.name}: ${row.operations} ops, mean ${ms(row.averageUs)} ms, min ${ms(row.minUs)}, max ${ms(row.maxUs)} (exact)${bounds === '' ? '' : `; ${bounds} ms (bounds, not mergeable)`}`,
    );
  }
  lines.push(`note: ${PERCENTILES_NOT_MERGEABLE}`);
  return `${lines.join('\n')}\n`;
}
