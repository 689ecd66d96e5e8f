/**
 * The e-commerce run's plan step: each query kind of a variant combination explained once by
 * the dialect, with parameters drawn from the run's seed as the workload draws them, after the
 * combination's timed run, so taking a plan never touches a measured figure.
 */
import type { QueryPlan } from '../../src/results/schema.ts';
import { Random } from '../../src/workload/random.ts';
import { takePlan } from '../shared/plans.ts';
import { canExplain, type EcommerceDialect, type ExplainRequest } from './dialect.ts';
import type { Dataset } from './model.ts';
import { ParameterChooser, type ChooserSettings, type QueryKind } from './queries.ts';

export async function explainCombination(
  dialect: EcommerceDialect,
  combination: Readonly<Partial<Record<QueryKind, string>>>,
  dataset: Dataset,
  settings: ChooserSettings & { seed: number },
): Promise<QueryPlan[]> {
  if (!canExplain(dialect)) return [];
  const chooser = new ParameterChooser(dataset, new Random(settings.seed), settings);
  const plans: QueryPlan[] = [];
  for (const [kind, variant] of Object.entries(combination) as [QueryKind, string][]) {
    const request = { kind, params: chooser.draw(kind) } as ExplainRequest;
    plans.push(await takePlan(kind, variant, () => dialect.explain(variant, request), request.params));
  }
  return plans;
}
