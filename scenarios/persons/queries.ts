/**
 * The thesis's five queries (section 6.3, and mongoBench.py in appendix A.4), defined once as
 * data. Every store dialect translates these conditions into its own query language, and the
 * oracle evaluates them on generated documents with `matches`; nobody writes a query by hand.
 *
 *   Q1  salary between 18500 and 35000
 *   Q2  Q1 and age over 25
 *   Q3  Q2 and has a fax number
 *   Q4  Q2 and owns a penguin
 *   Q5  Q2 and has the Jedi power Force Choke or Force Insanity
 *
 * "Between" and "over" are exclusive, as the thesis's code wrote them (`$gt`/`$lt` in
 * mongoBench.py, `>`/`<` in couchBench.py's map functions).
 *
 * Semantics for the nested shape, where pet / fax / jedi power are arrays: "owns a penguin"
 * means some element is "Penguin", "has a fax" means the field is there. The thesis's own code
 * got this wrong both ways: its CouchDB Q4 looped over `doc.pet` by index, which on a flat
 * document walks the characters of "Penguin" and never matches, and its Q5 queried `jedi_power`,
 * a field no document has. Both return nothing, fast; the oracle check catches exactly that.
 */
import { FIELD, JEDI_POWERS, PETS, type Person } from './model.ts';

/** A numeric field strictly between bounds (either may be absent). */
export interface RangeCondition {
  kind: 'range';
  field: typeof FIELD.salary | typeof FIELD.age;
  /** Exclusive lower bound. */
  above?: number;
  /** Exclusive upper bound. */
  below?: number;
}

/** The field is present (with any value; in the nested shape, an array of 1–5 values). */
export interface ExistsCondition {
  kind: 'exists';
  field: typeof FIELD.fax;
}

/** The field's value (flat) or one of its elements (nested) is one of `values`. */
export interface AnyOfCondition {
  kind: 'anyOf';
  field: typeof FIELD.pet | typeof FIELD.jediPower;
  values: readonly string[];
}

export type Condition = RangeCondition | ExistsCondition | AnyOfCondition;

export type QueryId = 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'Q5';

export interface PersonsQuery {
  id: QueryId;
  /** The thesis's wording. */
  description: string;
  /** All must hold. */
  where: readonly Condition[];
}

const salary: RangeCondition = { kind: 'range', field: FIELD.salary, above: 18500, below: 35000 };
const age: RangeCondition = { kind: 'range', field: FIELD.age, above: 25 };
const pet = (p: (typeof PETS)[number]): AnyOfCondition => ({ kind: 'anyOf', field: FIELD.pet, values: [p] });
const powers = (...p: (typeof JEDI_POWERS)[number][]): AnyOfCondition => ({
  kind: 'anyOf',
  field: FIELD.jediPower,
  values: p,
});

export const QUERIES: readonly PersonsQuery[] = [
  { id: 'Q1', description: 'salary between 18500 and 35000', where: [salary] },
  { id: 'Q2', description: 'Q1 and age over 25', where: [salary, age] },
  { id: 'Q3', description: 'Q2 and has a fax number', where: [salary, age, { kind: 'exists', field: FIELD.fax }] },
  { id: 'Q4', description: 'Q2 and owns a penguin', where: [salary, age, pet('Penguin')] },
  {
    id: 'Q5',
    description: 'Q2 and has the Jedi power Force Choke or Force Insanity',
    where: [salary, age, powers('Force Choke', 'Force Insanity')],
  },
];

export const QUERY_IDS: readonly QueryId[] = QUERIES.map((q) => q.id);

export function queryById(id: QueryId): PersonsQuery {
  return QUERIES.find((q) => q.id === id)!;
}

/** Every field some query filters on, each once, in first-use order: what "with indexes" indexes. */
export function queriedFields(queries: readonly PersonsQuery[] = QUERIES): Condition[] {
  const seen = new Map<string, Condition>();
  for (const q of queries) for (const c of q.where) if (!seen.has(c.field)) seen.set(c.field, c);
  return [...seen.values()];
}

/**
 * A query's conditions grouped as a compound index lists them (MongoDB's ESR rule, and how GSI
 * and Mango key ranges work): value conditions first, which pin the leading key; then ranges, in
 * the query's order; existence last, which each store serves its own way (a partial index, or an
 * index that only holds documents having the field).
 */
export function indexGroups(query: PersonsQuery): {
  anyOf: AnyOfCondition[];
  ranges: RangeCondition[];
  exists: ExistsCondition[];
} {
  return {
    anyOf: query.where.filter((c): c is AnyOfCondition => c.kind === 'anyOf'),
    ranges: query.where.filter((c): c is RangeCondition => c.kind === 'range'),
    exists: query.where.filter((c): c is ExistsCondition => c.kind === 'exists'),
  };
}

/** Does one condition hold for a document? */
export function holds(condition: Condition, person: Person): boolean {
  const value = (person as unknown as Record<string, unknown>)[condition.field];
  switch (condition.kind) {
    case 'range':
      return (
        typeof value === 'number' &&
        (condition.above === undefined || value > condition.above) &&
        (condition.below === undefined || value < condition.below)
      );
    case 'exists':
      return value !== undefined;
    case 'anyOf':
      if (Array.isArray(value)) return value.some((v) => condition.values.includes(v as string));
      return typeof value === 'string' && condition.values.includes(value);
  }
}

/** Does a document match a query? The one definition the oracle (and client-side filters) use. */
export function matches(query: PersonsQuery, person: Person): boolean {
  return query.where.every((c) => holds(c, person));
}
