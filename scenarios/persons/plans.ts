/**
 * The persons run's plan step: every query in every variant explained once by the dialect (how
 * the store ran it, whether an index served it), after the timed runs, so taking a plan never
 * touches a measured figure.
 */
import type { QueryPlan } from '../../src/results/schema.ts';
import { takePlan } from '../shared/plans.ts';
import { canExplain, type PersonsDialect } from './dialect.ts';
import { QUERIES } from './queries.ts';

export async function explainQueries(dialect: PersonsDialect): Promise<QueryPlan[]> {
  if (!canExplain(dialect)) return [];
  const plans: QueryPlan[] = [];
  for (const variant of dialect.variants) {
    for (const query of QUERIES)
      plans.push(await takePlan(query.id, variant.name, () => dialect.explain(variant.name, query)));
  }
  return plans;
}
