/**
 * Query plans in scenario results: each dialect that can (the `explain` ability of each
 * scenario's dialect.ts) says how its store ran a query, once per query and variant, outside the
 * timed window; this module records that in the result schema's `plans` and renders the plan
 * section printed under the scenario tables, which flags a query that read every document while
 * an index was meant to serve it.
 */
import type { QueryPlan, Result } from '../../src/results/schema.ts';
import type { PlanEvidence } from '../../src/stores/query-plan.ts';
import { UnsupportedError } from '../../src/stores/store.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { formatCount } from './format.ts';

/** What a dialect's `explain` returns: the store's evidence, and whether an index was meant to serve the query. */
export type ScenarioPlan = PlanEvidence & { indexExpected: boolean };

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
    const plan = await explain();
    return { ...head, ...plan, flagged: plan.indexExpected && plan.access === 'scan' };
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
  return `${result.store.name}${result.store.standIn ? ' (stand-in)' : ''}`;
}

/**
 * The plan section: one row per recorded plan, the flagged ones named again underneath, and
 * where each store's evidence comes from. Empty when no result holds a plan.
 */
export function renderPlans(results: readonly Result[]): string {
  const withPlans = results.filter((r) => (r.plans?.length ?? 0) > 0);
  if (withPlans.length === 0) return '';
  const rows: string[][] = [];
  const flagged: string[] = [];
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
        ...(plan.flagged ? ['FLAGGED: read everything, an index was meant to serve it'] : []),
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
      if (plan.flagged) flagged.push(`${store} [${plan.variant}] ${plan.query}`);
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
  if (flagged.length > 0)
    lines.push(
      `FLAGGED: ${flagged.join(', ')} read every document although an index was built for ${flagged.length === 1 ? 'it' : 'them'}.`,
    );
  for (const [store, kinds] of sources) lines.push(`- ${store}: ${[...kinds].join('; ')}`);
  lines.push(
    '- access: index (an index, view or structure kept as one), key (by key or partition), scan (every document read), unknown (no evidence); "-": the store does not report that figure. The raw plans are in the result files (`plans[].raw`).',
  );
  return `${lines.join('\n')}\n`;
}
