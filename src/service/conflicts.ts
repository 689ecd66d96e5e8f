/**
 * Store errors that mean "the data is not in the state this write assumed": another writer
 * changed the record first, or the key being inserted exists already. A web service answers
 * them with 409 Conflict, not 500: the store worked, the request lost a race (or repeated an
 * insert), and the client decides what to do. Direct mode counts the same outcome as ERROR, and
 * so do the k6 scripts (a 409 is an ERROR row, not a failed request; see k6/lib/metric-names.ts).
 *
 * Recognized from each official driver's documented error (no store code is changed for it):
 *   CouchDB (nano)      an error with `statusCode` 409 (document update conflict, or an insert of
 *                       an existing id), also as the `cause` of the adapter's own message
 *   MongoDB             a server error with `code` 11000 (E11000 duplicate key)
 *   Couchbase           DocumentExistsError (insert of an existing key), CasMismatchError (a
 *                       replace that lost the race); by class name, so the SDK's native module is
 *                       not loaded into services of other stores
 * Redis and Cassandra overwrite on insert and update, so they have no such answer.
 */

/** A write lost a race or repeated an insert; the HTTP layer answers 409. */
export class ConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConflictError';
  }
}

/** MongoDB's duplicate key error code (E11000). */
const MONGODB_DUPLICATE_KEY = 11000;
const COUCHBASE_CONFLICTS = new Set(['DocumentExistsError', 'CasMismatchError']);

/** True when `error`, or an error it wraps (`cause`), is one of the conflicts above. */
export function isConflict(error: unknown): boolean {
  // A short walk: adapters wrap a driver error at most once or twice.
  for (
    let e = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { statusCode, code, name } = e as { statusCode?: unknown; code?: unknown; name?: unknown };
    if (statusCode === 409) return true;
    if (code === MONGODB_DUPLICATE_KEY && typeof name === 'string' && name.startsWith('Mongo')) return true;
    if (typeof name === 'string' && COUCHBASE_CONFLICTS.has(name)) return true;
  }
  return false;
}
