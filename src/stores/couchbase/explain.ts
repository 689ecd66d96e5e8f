/**
 * Couchbase's own account of how it runs a SQL++ statement, read into the store-neutral plan
 * (query-plan.ts): `EXPLAIN` gives the plan's operators (`PrimaryScan3`: every document of the
 * keyspace read through the primary index; `IndexScan3`: a GSI index, named; `KeyScan`: by key),
 * and the statement run once with `profile: phases` gives its phase counts (index entries
 * scanned, documents fetched) and the query service's warnings.
 */
import { QueryProfileMode, type Cluster } from 'couchbase';
import { shorten, type PlanEvidence } from '../query-plan.ts';

interface Operators {
  primary: Set<string>;
  indexes: Set<string>;
  keys: boolean;
}

function walk(node: unknown, into: Operators): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, into);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const op = node as Record<string, unknown>;
  const name = typeof op['#operator'] === 'string' ? op['#operator'] : '';
  const index = typeof op.index === 'string' ? op.index : undefined;
  if (name.startsWith('PrimaryScan')) into.primary.add(index ?? '#primary');
  else if (name.startsWith('Index') && index !== undefined) into.indexes.add(index);
  else if (name === 'KeyScan') into.keys = true;
  for (const value of Object.values(op)) walk(value, into);
}

/** Sum of the profile's phase counts whose name starts with one of `phases` (`indexScan`, `indexScan.GSI`, …). */
function phaseCount(counts: Record<string, unknown>, ...phases: string[]): number | undefined {
  const matching = Object.entries(counts).filter(
    ([name, n]) => phases.some((p) => name.startsWith(p)) && typeof n === 'number',
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, [, n]) => sum + (n as number), 0);
}

/**
 * The plan from an EXPLAIN answer (`{plan: {...}}`), the profile's phase counts, and what the
 * profiled run returned; the parsing part of `explainSqlpp`, apart so it can be checked without a
 * query service.
 */
export function sqlppPlan(
  explained: unknown,
  phaseCounts: Record<string, unknown>,
  returned: number,
  warnings: readonly string[],
): PlanEvidence {
  const plan = (explained as { plan?: unknown } | undefined)?.plan ?? explained;
  const ops: Operators = { primary: new Set(), indexes: new Set(), keys: false };
  walk(plan, ops);
  const keysExamined = phaseCount(phaseCounts, 'indexScan', 'primaryScan');
  const documentsExamined = phaseCount(phaseCounts, 'fetch');
  return {
    access: ops.primary.size > 0 ? 'scan' : ops.indexes.size > 0 ? 'index' : ops.keys ? 'key' : 'unknown',
    used: [...ops.primary, ...ops.indexes],
    ...(keysExamined !== undefined ? { keysExamined } : {}),
    ...(documentsExamined !== undefined ? { documentsExamined } : {}),
    returned,
    warnings: [...warnings],
    source:
      "Couchbase SQL++ EXPLAIN (the plan's scan operators) and profile=phases (index entries scanned, documents fetched)",
    raw: shorten(JSON.stringify({ plan, phaseCounts })),
  };
}

/** EXPLAIN of `statement`, then the statement itself with phase profiling. */
export async function explainSqlpp(cluster: Cluster, statement: string, parameters: unknown[]): Promise<PlanEvidence> {
  const explained = (await cluster.query(`EXPLAIN ${statement}`, { parameters, readOnly: true })).rows[0];
  const profiled = await cluster.query(statement, { parameters, readOnly: true, profile: QueryProfileMode.Phases });
  const counts = (profiled.meta.profile as { phaseCounts?: Record<string, unknown> } | undefined)?.phaseCounts ?? {};
  return sqlppPlan(
    explained,
    counts,
    profiled.rows.length,
    profiled.meta.warnings.map((w) => w.message),
  );
}
