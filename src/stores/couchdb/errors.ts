/**
 * What nano's errors mean (read by src/measure/failure-kind.ts and src/service/conflicts.ts; no
 * driver is imported here). Under nano, undici (Node's fetch) carries the requests: its own classes
 * and codes are known to the classifier for every store.
 */
import { isTimeoutName, socketCodeOf, type StoreErrors, type Verdict } from '../../measure/error-facts.ts';

/** What nano makes of a request that got no HTTP answer: `Error("error happened in your connection. Reason: " + cause)`. */
const NANO_CONNECTION_ERROR = /^error happened in your connection\. Reason: (?:(\w+): )?(.*)$/s;

/**
 * nano gives fetch's cause only as text, e.g. "SocketError: other side closed", "Error: read
 * ECONNRESET", "HeadersTimeoutError: Headers Timeout Error". That text names undici's class and
 * the socket code, which are read as such; whatever it says, the request got no answer.
 */
function nanoConnectionError(message: string): Verdict {
  const match = NANO_CONNECTION_ERROR.exec(message);
  if (!match) return undefined;
  const [, name = '', text = ''] = match;
  const code = /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(text)?.[1];
  // fetch's own deadline (AbortSignal.timeout) reaches nano as "The operation was aborted due to timeout".
  if (isTimeoutName(name) || socketCodeOf(code) === 'TIMEOUT' || /timeout/i.test(text)) return 'TIMEOUT';
  return 'SERVICE_UNAVAILABLE';
}

/** CouchDB's HTTP status of a document update conflict, or of an insert of an existing id. */
const COUCHDB_CONFLICT = 409;

export const errors: StoreErrors = {
  shapes: {
    nano(f) {
      // An HTTP answer of CouchDB (a 404, a 409 conflict, a 500): nano sets its status.
      if (typeof f.raw.statusCode === 'number' && f.raw.scope === 'couch') return 'ANSWER';
      // No HTTP answer: nano drops fetch's error and keeps only its text (see nanoConnectionError).
      return nanoConnectionError(f.message);
    },
  },
  // Also as the `cause` of the adapter's own message (the service walks the chain).
  conflict: (f) => f.raw.statusCode === COUCHDB_CONFLICT,
};
