/**
 * The oracle: what each query must answer, computed from the generator alone (no store
 * involved). For every query, how many documents match and an order-independent checksum of
 * their ids; a store's answer is right when both agree.
 *
 * A query whose expected answer is empty proves little (a store that returns nothing for a
 * wrong reason would pass), so `vacuousQueries` names them and the run says so.
 */
import { IdChecksum, type AnswerSummary } from '../shared/checksum.ts';
import { generatePerson } from './generator.ts';
import { personId, type Shape } from './model.ts';
import { matches, QUERIES, type PersonsQuery, type QueryId } from './queries.ts';

export interface DatasetSpec {
  seed: number;
  size: number;
  shape: Shape;
}

export type Expectations = ReadonlyMap<QueryId, AnswerSummary>;

/** Expected count and checksum of every query, in one pass over the dataset. */
export function expectedAnswers(dataset: DatasetSpec, queries: readonly PersonsQuery[] = QUERIES): Expectations {
  const sums = queries.map(() => new IdChecksum());
  for (let i = 0; i < dataset.size; i++) {
    const person = generatePerson(dataset.seed, i, dataset.shape);
    let id: string | undefined;
    for (let q = 0; q < queries.length; q++) {
      if (matches(queries[q]!, person)) sums[q]!.add((id ??= personId(i)));
    }
  }
  return new Map(queries.map((q, i) => [q.id, sums[i]!.summary()]));
}

/** The ids one query must return (used to explain a mismatch). */
export function* expectedIds(dataset: DatasetSpec, query: PersonsQuery): Generator<string> {
  for (let i = 0; i < dataset.size; i++) if (matches(query, generatePerson(dataset.seed, i, dataset.shape))) yield personId(i);
}

/** Queries that match nothing in this dataset: checking them cannot catch a query that matches nothing. */
export function vacuousQueries(expectations: Expectations): QueryId[] {
  return [...expectations].filter(([, e]) => e.count === 0).map(([id]) => id);
}
