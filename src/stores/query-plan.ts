/**
 * The evidence a store gives of how it ran one query, in store-neutral terms, so a slow figure
 * can be explained and a query that read everything while an index was meant to serve it stands
 * out. Each store folder turns its own evidence into this shape (MongoDB's explain, CouchDB's
 * `_explain` and execution statistics, Couchbase's EXPLAIN, Cassandra's tracing); where a store
 * has no planner (Redis), the dialect states the structures it reads.
 */

/**
 * How the store found the rows:
 *   index    through an index (or a structure kept as one: a view, a sorted set)
 *   key      by key or partition, no search at all
 *   scan     by reading every document (a collection scan, `_all_docs`, a primary scan, SCAN)
 *   unknown  the store gave no evidence
 */
export type PlanAccess = 'index' | 'key' | 'scan' | 'unknown';

export interface PlanEvidence {
  access: PlanAccess;
  /** The indexes, views, query tables or key structures read; empty when none. */
  used: string[];
  /** Index entries (keys) the store examined, where it reports them. */
  keysExamined?: number;
  /** Documents (rows) the store examined, where it reports them. */
  documentsExamined?: number;
  /** Documents (rows) the query returned. */
  returned?: number;
  /** What the store itself warned about (CouchDB's `warning`, …). */
  warnings: string[];
  /** Where the evidence comes from, e.g. `explain("executionStats")`. */
  source: string;
  /** The store's own plan, as text (JSON or trace lines), shortened. */
  raw: string;
}

/** How much of a store's raw plan a result keeps. */
export const RAW_PLAN_LIMIT = 4000;

/** Text cut to the limit, saying so. */
export function shorten(text: string, limit = RAW_PLAN_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)} … (${text.length - limit} more characters)`;
}

/** Lines with repeats counted (`Executing single-partition query on t ×94`), in first-seen order. */
export function collapseLines(lines: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => (n > 1 ? `${line} ×${n}` : line)).join('\n');
}

const ACCESS_RANK: Record<PlanAccess, number> = { scan: 3, unknown: 2, index: 1, key: 0 };

const sumOf = (values: readonly (number | undefined)[]): number | undefined =>
  values.every((v) => v === undefined) ? undefined : values.reduce<number>((a, b) => a + (b ?? 0), 0);

/**
 * One plan for a query the application runs as several requests (a JOIN done in the client):
 * the worst access of any step (one step reading everything makes the query a scan), every
 * structure used, the figures summed; `returned` is the last step's, the query's answer.
 */
export function combineEvidence(steps: readonly { label: string; plan: PlanEvidence }[]): PlanEvidence {
  const plans = steps.map((s) => s.plan);
  const access = plans.reduce<PlanAccess>(
    (worst, p) => (ACCESS_RANK[p.access] > ACCESS_RANK[worst] ? p.access : worst),
    'key',
  );
  const last = plans.at(-1);
  const keysExamined = sumOf(plans.map((p) => p.keysExamined));
  const documentsExamined = sumOf(plans.map((p) => p.documentsExamined));
  return {
    access,
    used: [...new Set(plans.flatMap((p) => p.used))],
    ...(keysExamined !== undefined ? { keysExamined } : {}),
    ...(documentsExamined !== undefined ? { documentsExamined } : {}),
    ...(last?.returned !== undefined ? { returned: last.returned } : {}),
    warnings: plans.flatMap((p) => p.warnings),
    source: [...new Set(plans.map((p) => p.source))].join('; '),
    raw: shorten(steps.map((s) => `[${s.label}]\n${s.plan.raw}`).join('\n')),
  };
}
