/**
 * The oracle: what each query must answer, computed from the generator alone (no store
 * involved). For every query, how many documents match, an order-independent checksum of
 * their ids, and one of their bodies (each document's id with its fields in a canonical JSON
 * form); a store's answer is right when all three agree, so a store that finds the right
 * documents but returns them altered (a field lost, a number turned into a string, an array
 * cut short) fails too.
 *
 * A query whose expected answer is empty proves little (a store that returns nothing for a
 * wrong reason would pass), so `vacuousQueries` names them and the run says so.
 */
import { IdChecksum, type AnswerSummary } from '../shared/checksum.ts';
import { generatePerson } from './generator.ts';
import { personId, personIndex, type Person, type PersonRecord, type Shape } from './model.ts';
import { matches, QUERIES, type PersonsQuery, type QueryId } from './queries.ts';

export interface DatasetSpec {
  seed: number;
  size: number;
  shape: Shape;
}

/** A query's expected answer: count and id checksum, and the checksum of the bodies. */
export interface Expectation extends AnswerSummary {
  bodies: string;
}

export type Expectations = ReadonlyMap<QueryId, Expectation>;

/** A document as the body checksum sees it: its id, then its fields by name with their values as JSON. */
export function canonicalBody(id: string, person: Person): string {
  const fields = Object.entries(person).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${id}\u0000${JSON.stringify(Object.fromEntries(fields))}`;
}

/** The checksum of an answer's bodies (order-independent, like the ids'). */
export function bodyChecksum(records: readonly PersonRecord[]): string {
  const sum = new IdChecksum();
  for (const r of records) sum.add(canonicalBody(r.id, r.person));
  return sum.summary().checksum;
}

/** Expected count, id checksum and body checksum of every query, in one pass over the dataset. */
export function expectedAnswers(dataset: DatasetSpec, queries: readonly PersonsQuery[] = QUERIES): Expectations {
  const ids = queries.map(() => new IdChecksum());
  const bodies = queries.map(() => new IdChecksum());
  for (let i = 0; i < dataset.size; i++) {
    const person = generatePerson(dataset.seed, i, dataset.shape);
    let id: string | undefined;
    let body: string | undefined;
    for (let q = 0; q < queries.length; q++) {
      if (!matches(queries[q]!, person)) continue;
      ids[q]!.add((id ??= personId(i)));
      bodies[q]!.add((body ??= canonicalBody(id, person)));
    }
  }
  return new Map(queries.map((q, i) => [q.id, { ...ids[i]!.summary(), bodies: bodies[i]!.summary().checksum }]));
}

/**
 * Check the bodies of an answer whose ids are right; returns what is wrong, or undefined. On a
 * mismatch the documents are compared with the generator's one by one to name the first that differs.
 */
export function checkBodies(
  dataset: DatasetSpec,
  expected: Expectation,
  records: readonly PersonRecord[],
): string | undefined {
  if (bodyChecksum(records) === expected.bodies) return undefined;
  for (const r of records) {
    const index = personIndex(r.id);
    if (index === undefined) return `${r.id} is not a person id`;
    const want = canonicalBody(r.id, generatePerson(dataset.seed, index, dataset.shape));
    const got = canonicalBody(r.id, r.person);
    if (got !== want)
      return `document ${r.id} differs: expected ${want.slice(r.id.length + 1)}, got ${got.slice(r.id.length + 1)}`;
  }
  return `body checksum ${bodyChecksum(records)}, expected ${expected.bodies}, yet every document equals the generator's`;
}

/** The ids one query must return (used to explain a mismatch). */
export function* expectedIds(dataset: DatasetSpec, query: PersonsQuery): Generator<string> {
  for (let i = 0; i < dataset.size; i++)
    if (matches(query, generatePerson(dataset.seed, i, dataset.shape))) yield personId(i);
}

/** Queries that match nothing in this dataset: checking them cannot catch a query that matches nothing. */
export function vacuousQueries(expectations: Expectations): QueryId[] {
  return [...expectations].filter(([, e]) => e.count === 0).map(([id]) => id);
}
