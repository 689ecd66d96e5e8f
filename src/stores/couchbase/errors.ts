/**
 * What the Couchbase SDK's errors mean (read by src/measure/failure-kind.ts and
 * src/service/conflicts.ts). Its classes are matched by name, so the SDK's native module is not
 * loaded into commands and services of other stores.
 */
import { has, isObject, type Outage, type StoreErrors } from '../../measure/error-facts.ts';

/** The SDK's retry reasons (its error context) that mean no connection could carry the request. */
const COUCHBASE_UNAVAILABLE_REASONS = new Set([
  'socket_not_available',
  'service_not_available',
  'node_not_available',
  'socket_closed_while_in_flight',
  'circuit_breaker_open',
]);

/**
 * The Couchbase SDK retries a request until its timeout whatever went wrong, so a timeout says
 * little by itself; its error context says why: retried because the socket closed or no node was
 * there, or never sent at all (no connection to send it on), is the store out of reach; sent and
 * not answered is a timeout.
 */
function couchbaseTimeout(context: unknown): Outage {
  if (!isObject(context)) return 'TIMEOUT';
  const reasons = Array.isArray(context.retry_reasons) ? (context.retry_reasons as unknown[]) : [];
  if (reasons.some((r) => typeof r === 'string' && COUCHBASE_UNAVAILABLE_REASONS.has(r))) return 'SERVICE_UNAVAILABLE';
  if (context.last_dispatched_to === '' && context.retry_attempts === 0) return 'SERVICE_UNAVAILABLE';
  return 'TIMEOUT';
}

/** An insert of an existing key, and a replace that lost the race (CAS). */
const COUCHBASE_CONFLICTS = new Set(['DocumentExistsError', 'CasMismatchError']);

export const errors: StoreErrors = {
  shapes: {
    couchbase(f) {
      if (has(f, 'RequestCanceledError', 'ServiceNotAvailableError', 'ConnectionClosedError', 'ClusterClosedError'))
        return 'SERVICE_UNAVAILABLE';
      if (
        has(f, 'UnambiguousTimeoutError', 'AmbiguousTimeoutError') ||
        (has(f, 'TimeoutError') && isObject(f.raw.context))
      )
        return couchbaseTimeout(f.raw.context);
      return undefined;
    },
  },
  conflict: (f) => typeof f.raw.name === 'string' && COUCHBASE_CONFLICTS.has(f.raw.name),
};
