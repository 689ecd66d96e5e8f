/**
 * Query plans in scenario results: each dialect that can (the `explain` ability of each
 * scenario's dialect.ts) says how its store ran a query, once per query and variant, outside the
 * timed window; this module records that in the result schema's `plans` and renders the plan
 * section printed under the scenario tables, which flags a query that read every document while
 * an index was meant to serve it, or walked an index far past the rows it returned (an index on
 * the sort keys alone, read end to end for a few rows that match).
 */
import { storeShort } from '../../src/results/product.ts';
import type { QueryPlan, Result } from '../../src/results/schema.ts';
import type { PlanEvidence } from '../../src/stores/query-plan.ts';
import { UnsupportedError } from '../../src/stores/store.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { formatCount } from './format.ts';

/**
 * What a dialect's `explain` returns: the store's evidence, whether an index was meant to serve
 * the query, and, where the caller knows it, how many index entries its answer needed at least
 * (a find's rows returned and skipped; absent for counts and groups, whose every entry in range
 * counts), against which the entries examined are judged.
 */
export type ScenarioPlan = PlanEvidence & { indexExpected: boolean; rowsNeeded?: number };

/**
 * A plan examining more than this many times the entries its answer needed, and at least
 * WALK_FLOOR, walked its index rather than used it: flagged like a scan. The floor keeps small
 * collections, where any walk is cheap, and a filter on an unindexed field over a short range,
 * from being flagged.
 */
export const WALK_FACTOR = 10;
export const WALK_FLOOR = 1000;

/** Whether a plan examined far more index entries (or documents, where the store reports no keys) than its answer needed. */
export function walked(plan: ScenarioPlan): boolean {
  if (plan.rowsNeeded === undefined) return false;
  const examined = plan.keysExamined ?? plan.documentsExamined;
  return examined !== undefined && examined >= WALK_FLOOR && examined > WALK_FACTOR * Math.max(plan.rowsNeeded, 1);
}

/**
 * Take one plan. A store that cannot explain the query (UNSUPPORTED, the local Couchbase mock
 * without a query service) or fails to is recorded as such: a plan is evidence, never a reason
 * for the benchmark to fail.
 */
export async function takePlan(
  query: string,
  variant: string,
  explain: () => Promise<ScenarioPlan>,
  parameters?: unknown,
): Promise<QueryPlan> {
  const head = { query, variant, ...(parameters !== undefined ? { parameters: JSON.stringify(parameters) } : {}) };
  try {
    const explained = await explain();
    // The figure the walk is judged against stays out of the result: the plan's own figures say it.
    const { rowsNeeded: _, ...plan } = explained;
    return { ...head, ...plan, flagged: plan.indexExpected && (plan.access === 'scan' || walked(explained)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unsupported = error instanceof UnsupportedError;
    return {
      ...head,
      access: 'unknown',
      used: [],
      warnings: [unsupported ? `no plan: ${message}` : `explain failed: ${message}`],
      indexExpected: false,
      flagged: false,
      source: unsupported ? 'UNSUPPORTED' : 'error',
      raw: '',
    };
  }
}

const figure = (n: number | undefined) => (n === undefined ? '-' : formatCount(n));

function storeLabel(result: Result): string {
  return storeShort(result.store);
}

/**
 * The plan section: one row per recorded plan, the flagged ones named again underneath, and
 * where each store's evidence comes from. Empty when no result holds a plan.
 */
export function renderPlans(results: readonly Result[]): string {
  const withPlans = results.filter((r) => (r.plans?.length ?? 0) > 0);
  if (withPlans.length === 0) return '';
  const rows: string[][] = [];
  const scans: string[] = [];
  const walks: string[] = [];
  const sources = new Map<string, Set<string>>();
  const seen = new Set<string>();
  for (const result of withPlans) {
    const store = storeLabel(result);
    for (const plan of result.plans!) {
      // A plan is per query and variant: a workload run once per variant combination repeats the others.
      const key = `${store}|${result.workload.name}|${plan.variant}|${plan.query}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const notes = [
        ...(plan.flagged
          ? [
              plan.access === 'scan'
                ? 'FLAGGED: read everything, an index was meant to serve it'
                : `FLAGGED: examined ${formatCount(plan.keysExamined ?? plan.documentsExamined ?? 0)} entries for ${formatCount(plan.returned ?? 0)} rows: the index was walked, not used`,
            ]
          : []),
        ...plan.warnings,
      ];
      rows.push([
        store,
        plan.variant,
        plan.query,
        plan.access,
        plan.used.join(', ') || 'none',
        figure(plan.keysExamined),
        figure(plan.documentsExamined),
        figure(plan.returned),
        notes.join('; '),
      ]);
      if (plan.flagged) (plan.access === 'scan' ? scans : walks).push(`${store} [${plan.variant}] ${plan.query}`);
      if (plan.source !== 'UNSUPPORTED' && plan.source !== 'error') {
        // A plan of several steps joins its steps' sources with '; '.
        const kinds = sources.get(store) ?? new Set<string>();
        for (const source of plan.source.split('; ')) kinds.add(source);
        sources.set(store, kinds);
      }
    }
  }
  const header = [
    'store',
    'variant',
    'query',
    'access',
    'index / structure used',
    'keys examined',
    'docs examined',
    'returned',
    'warnings',
  ];
  const lines = [
    `#### Query plans (taken once per query and variant, outside the timed runs)`,
    '',
    markdownTable(header, rows, ['left', 'left', 'left', 'left', 'left', 'right', 'right', 'right', 'left']),
  ];
  if (scans.length > 0)
    lines.push(
      `FLAGGED: ${scans.join(', ')} read every document although an index was built for ${scans.length === 1 ? 'it' : 'them'}.`,
    );
  if (walks.length > 0)
    lines.push(
      `FLAGGED: ${walks.join(', ')} examined over ${WALK_FACTOR} times the entries ${walks.length === 1 ? 'its answer' : 'their answers'} needed (and ${formatCount(WALK_FLOOR)} or more): an index that does not lead with the filter's fields was read in order instead.`,
    );
  for (const [store, kinds] of sources) lines.push(`- ${store}: ${[...kinds].join('; ')}`);
  lines.push(
    '- access: index (an index, view or structure kept as one), key (by key or partition), scan (every document read), unknown (no evidence); "-": the store does not report that figure. The raw plans are in the result files (`plans[].raw`).',
  );
  return `${lines.join('\n')}\n`;
}
