/**
 * Store errors that mean "the data is not in the state this write assumed": another writer
 * changed the record first, or the key being inserted exists already. A web service answers
 * them with 409 Conflict, not 500: the store worked, the request lost a race (or repeated an
 * insert), and the client decides what to do. Direct mode counts the same outcome as ERROR, and
 * so do the k6 scripts (a 409 is an ERROR row, not a failed request; see k6/lib/metric-names.ts).
 *
 * Each store's folder says which of its driver's documented errors are conflicts (`conflict` in
 * `src/stores/<store>/errors.ts`: CouchDB's 409, MongoDB's E11000 duplicate key, Couchbase's
 * DocumentExistsError and CasMismatchError), by class name and code, so no driver is loaded into
 * services of other stores. Stores that overwrite on insert and update have no such answer.
 */
import { factsOf, isObject, type ErrorFacts } from '../measure/error-facts.ts';
import { STORE_ERRORS } from '../stores/store-errors.ts';

/** A write lost a race or repeated an insert; the HTTP layer answers 409. */
export class ConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConflictError';
  }
}

const CONFLICTS: readonly ((facts: ErrorFacts) => boolean)[] = STORE_ERRORS.flatMap((e) =>
  e.conflict ? [e.conflict] : [],
);

/** True when `error`, or an error it wraps (`cause`), is a store's write conflict. */
export function isConflict(error: unknown): boolean {
  // A short walk: adapters wrap a driver error at most once or twice.
  for (let e = error, depth = 0; isObject(e) && depth < 4; e = e.cause, depth++) {
    const facts = factsOf(e);
    if (CONFLICTS.some((conflict) => conflict(facts))) return true;
  }
  return false;
}
