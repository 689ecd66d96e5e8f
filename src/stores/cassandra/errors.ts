/**
 * What cassandra-driver's errors mean (read by src/measure/failure-kind.ts; no driver is imported
 * here, classes are matched by name). Cassandra overwrites on insert and update, so no error of it
 * is a write conflict.
 */
import {
  has,
  isObject,
  type Classify,
  type Outage,
  type StoreErrors,
  type Verdict,
} from '../../measure/error-facts.ts';

/** NoHostAvailableError: a timeout when every host timed out, else the hosts were out of reach. */
function noHostAvailable(raw: Record<string, unknown>, classify: Classify): Outage {
  const inner = isObject(raw.innerErrors) ? Object.values(raw.innerErrors) : [];
  return inner.length > 0 && inner.every((e) => classify(e) === 'TIMEOUT') ? 'TIMEOUT' : 'SERVICE_UNAVAILABLE';
}

/** Cassandra's error codes (the native protocol's, as the driver's `types.responseErrorCodes`). */
const CASSANDRA_UNAVAILABLE = 0x1000;
const CASSANDRA_OVERLOADED = 0x1001;
const CASSANDRA_BOOTSTRAPPING = 0x1002;
const CASSANDRA_WRITE_TIMEOUT = 0x1100;
const CASSANDRA_READ_TIMEOUT = 0x1200;

/** The coordinator's own timeouts are timeouts; too few live replicas, overload or a starting node are the store out of reach. */
function cassandraResponse(code: unknown): Verdict {
  if (code === CASSANDRA_WRITE_TIMEOUT || code === CASSANDRA_READ_TIMEOUT) return 'TIMEOUT';
  if (code === CASSANDRA_UNAVAILABLE || code === CASSANDRA_OVERLOADED || code === CASSANDRA_BOOTSTRAPPING)
    return 'SERVICE_UNAVAILABLE';
  return 'ANSWER';
}

export const errors: StoreErrors = {
  shapes: {
    'cassandra-driver'(f, classify) {
      if (has(f, 'NoHostAvailableError')) return noHostAvailable(f.raw, classify);
      if (has(f, 'OperationTimedOutError')) return 'TIMEOUT';
      if (has(f, 'BusyConnectionError')) return 'SERVICE_UNAVAILABLE';
      // A connection that closed under its requests: DriverError('Socket was closed') with the driver's flag.
      if (f.raw.isSocketError === true) return 'SERVICE_UNAVAILABLE';
      if (has(f, 'ResponseError')) return cassandraResponse(f.code);
      return undefined;
    },
  },
};
