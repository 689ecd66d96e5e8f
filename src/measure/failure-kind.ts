/**
 * Which of the failure statuses a store call's exception is: a timeout (no answer in time), the
 * store out of reach (refused, reset, closed), or an error the store answered with. It never
 * depends on which store ran the call: each official driver's own error shapes are known here,
 * read along the error's cause chain in this order:
 *   1. the driver's shapes: its error classes (by name, or by constructor name where the driver
 *      sets no `name`), codes and flags (DRIVER_SHAPES below). A shape may also say "this is the
 *      store's answer" (a Redis error reply, a CouchDB HTTP status, a Cassandra or MongoDB server
 *      error), which ends the search as ERROR, so no word in a server's message is misread;
 *   2. socket and HTTP-client codes (Node's `ECONNRESET`, undici's `UND_ERR_SOCKET`, …);
 *   3. only then message text, for the few driver errors that carry nothing else.
 * No driver is imported here (so classifying never loads one): classes are matched by name.
 */
import type { Status } from './status.ts';

type Outage = Extract<Status, 'TIMEOUT' | 'SERVICE_UNAVAILABLE'>;
/** What a shape says about one error of the chain: an outage, the store's own answer (ERROR), or nothing. */
type Verdict = Outage | 'ANSWER' | undefined;

/** The parts of an error the shapes read. */
interface ErrorFacts {
  /** `name`, and the constructor's name (node-redis's classes leave `name` as "Error"). */
  names: readonly string[];
  code: unknown;
  message: string;
  raw: Record<string, unknown>;
}

/** Socket and HTTP-client codes of a connection that could not be made, or broke. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTCONN',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

const has = (f: ErrorFacts, ...names: string[]) => f.names.some((n) => names.includes(n));

/** The error classes and codes of every official driver docbench runs on, by driver. */
const DRIVER_SHAPES: Readonly<Record<string, (f: ErrorFacts) => Verdict>> = {
  ioredis(f) {
    if (has(f, 'ReplyError')) return redisReply(f.message);
    if (has(f, 'MaxRetriesPerRequestError', 'ClusterAllFailedError')) return 'SERVICE_UNAVAILABLE';
    // The rest are plain Errors: see IOREDIS_MESSAGES.
    return undefined;
  },
  'node-redis'(f) {
    if (has(f, 'ErrorReply', 'SimpleError', 'BlobError', 'MultiErrorReply')) return redisReply(f.message);
    if (
      has(
        f,
        'ClientClosedError',
        'ClientOfflineError',
        'SocketClosedUnexpectedlyError',
        'DisconnectsClientError',
        'RootNodesUnavailableError',
        'ReconnectStrategyError',
      )
    )
      return 'SERVICE_UNAVAILABLE';
    // Its command timeout is a TimeoutError with no message (a Couchbase TimeoutError, which has a context, is read below).
    if (
      has(
        f,
        'ConnectionTimeoutError',
        'SocketTimeoutError',
        'CommandTimeoutDuringMaintenanceError',
        'SocketTimeoutDuringMaintenanceError',
      )
    )
      return 'TIMEOUT';
    if (has(f, 'TimeoutError') && !isObject(f.raw.context)) return 'TIMEOUT';
    return undefined;
  },
  'cassandra-driver'(f) {
    if (has(f, 'NoHostAvailableError')) return noHostAvailable(f.raw);
    if (has(f, 'OperationTimedOutError')) return 'TIMEOUT';
    if (has(f, 'BusyConnectionError')) return 'SERVICE_UNAVAILABLE';
    // A connection that closed under its requests: DriverError('Socket was closed') with the driver's flag.
    if (f.raw.isSocketError === true) return 'SERVICE_UNAVAILABLE';
    if (has(f, 'ResponseError')) return cassandraResponse(f.code);
    return undefined;
  },
  mongodb(f) {
    if (has(f, 'MongoNetworkTimeoutError', 'MongoOperationTimeoutError', 'MongoWaitQueueTimeoutError'))
      return 'TIMEOUT';
    // No server could be selected: a timeout when the server did not answer in time, else out of reach.
    if (has(f, 'MongoServerSelectionError'))
      return outageStatusOf(f.raw.cause) === 'TIMEOUT' ? 'TIMEOUT' : 'SERVICE_UNAVAILABLE';
    if (
      has(
        f,
        'MongoNetworkError',
        'MongoPoolClearedError',
        'MongoTopologyClosedError',
        'MongoServerClosedError',
        'MongoNotConnectedError',
      )
    )
      return 'SERVICE_UNAVAILABLE';
    if (has(f, 'MongoServerError', 'MongoBulkWriteError', 'MongoWriteConcernError')) return mongoServerCode(f.code);
    return undefined;
  },
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
  // undici, under nano (and under Node's fetch): its classes; its codes are in the code sets above.
  undici(f) {
    if (has(f, 'SocketError', 'ClientDestroyedError', 'ClientClosedError')) return 'SERVICE_UNAVAILABLE';
    if (has(f, 'ConnectTimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError')) return 'TIMEOUT';
    return undefined;
  },
  // docbench's own client of the HBase REST gateway (HBase has no official Node.js driver): its
  // HbaseRestError carries the gateway's HTTP status; 503 is the gateway's word for HBase out of
  // its reach, 504 for no answer in time. Its request timeout is a TimeoutError (read below).
  hbase(f) {
    if (f.raw.status === 503) return 'SERVICE_UNAVAILABLE';
    if (f.raw.status === 504) return 'TIMEOUT';
    if (has(f, 'HbaseRestError')) return 'ANSWER';
    return undefined;
  },
  nano(f) {
    // An HTTP answer of CouchDB (a 404, a 409 conflict, a 500): nano sets its status.
    if (typeof f.raw.statusCode === 'number' && f.raw.scope === 'couch') return 'ANSWER';
    // No HTTP answer: nano drops fetch's error and keeps only its text (see nanoConnectionError).
    return nanoConnectionError(f.message);
  },
};

/** Driver errors that are plain `Error`s, known only by their fixed text. */
const IOREDIS_MESSAGES: readonly [RegExp, Outage][] = [
  [/^Connection is closed\.$/, 'SERVICE_UNAVAILABLE'],
  [/^Stream isn't writeable and enableOfflineQueue options is false$/, 'SERVICE_UNAVAILABLE'],
  [/^Command timed out$/, 'TIMEOUT'],
  // Its Cluster: a command still failing after its retries (a master lost, a failover not yet
  // done), a cluster not ready, or no node answering the slot map's reload.
  [/^Too many Cluster redirections\. Last error: /, 'SERVICE_UNAVAILABLE'],
  [/^Cluster isn't ready and enableOfflineQueue options is false$/, 'SERVICE_UNAVAILABLE'],
  [/^Failed to refresh slots cache\.?$/, 'SERVICE_UNAVAILABLE'],
  [/^None of startup nodes is available$/, 'SERVICE_UNAVAILABLE'],
];

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
  const inner = outageOf({ names: [name], code, message: text, raw: {} }) ?? codeOf(code);
  // fetch's own deadline (AbortSignal.timeout) reaches nano as "The operation was aborted due to timeout".
  if (inner === 'TIMEOUT' || /timeout/i.test(text)) return 'TIMEOUT';
  return 'SERVICE_UNAVAILABLE';
}

/**
 * A Redis error reply starts with its error code. Most are the store's answer (WRONGTYPE, NOAUTH,
 * OOM, …); these say the server cannot serve now: loading its data after a restart, a replica
 * without its primary, a cluster that is down or moving slots. A cluster client follows MOVED and
 * ASK itself; one that reaches docbench is a redirection the client could not follow (a pipeline
 * with a write in it is not resent, as part of it may have run): a failover moved the slot.
 */
const REDIS_UNAVAILABLE_REPLIES = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|MOVED|ASK)\b/;

function redisReply(message: string): Verdict {
  return REDIS_UNAVAILABLE_REPLIES.test(message) ? 'SERVICE_UNAVAILABLE' : 'ANSWER';
}

/** NoHostAvailableError: a timeout when every host timed out, else the hosts were out of reach. */
function noHostAvailable(raw: Record<string, unknown>): Outage {
  const inner = isObject(raw.innerErrors) ? Object.values(raw.innerErrors) : [];
  return inner.length > 0 && inner.every((e) => outageStatusOf(e) === 'TIMEOUT') ? 'TIMEOUT' : 'SERVICE_UNAVAILABLE';
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

/** MongoDB server error codes (MongoDB's error_codes.yml) of a server that cannot serve now. */
const MONGO_TIMEOUT_CODES = new Set([50 /* MaxTimeMSExpired */, 89 /* NetworkTimeout */, 262 /* ExceededTimeLimit */]);
const MONGO_UNAVAILABLE_CODES = new Set([
  6 /* HostUnreachable */, 7 /* HostNotFound */, 91 /* ShutdownInProgress */, 189 /* PrimarySteppedDown */,
  10107 /* NotWritablePrimary */, 11600 /* InterruptedAtShutdown */, 11602 /* InterruptedDueToReplStateChange */,
  13435 /* NotPrimaryNoSecondaryOk */, 13436 /* NotPrimaryOrSecondary */,
]);

function mongoServerCode(code: unknown): Verdict {
  if (typeof code !== 'number') return 'ANSWER';
  if (MONGO_TIMEOUT_CODES.has(code)) return 'TIMEOUT';
  if (MONGO_UNAVAILABLE_CODES.has(code)) return 'SERVICE_UNAVAILABLE';
  return 'ANSWER';
}

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

function codeOf(code: unknown): Outage | undefined {
  if (typeof code !== 'string') return undefined;
  if (UNAVAILABLE_CODES.has(code)) return 'SERVICE_UNAVAILABLE';
  if (TIMEOUT_CODES.has(code)) return 'TIMEOUT';
  return undefined;
}

/** Messages of errors that carry no class or code (beyond the drivers' fixed texts above). */
const UNAVAILABLE_MESSAGE = /connect ECONNREFUSED|socket hang up|connection (refused|reset)/i;
const TIMEOUT_NAME = /Timeout|TimedOut/;

/** One error of the chain, by its shapes and codes (steps 1 and 2). */
function outageOf(f: ErrorFacts): Verdict {
  for (const shape of Object.values(DRIVER_SHAPES)) {
    const verdict = shape(f);
    if (verdict !== undefined) return verdict;
  }
  return codeOf(f.code) ?? (f.names.some((n) => TIMEOUT_NAME.test(n)) ? 'TIMEOUT' : undefined);
}

function messageOf(message: string): Outage | undefined {
  for (const [pattern, status] of IOREDIS_MESSAGES) if (pattern.test(message)) return status;
  if (UNAVAILABLE_MESSAGE.test(message)) return 'SERVICE_UNAVAILABLE';
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function factsOf(error: Record<string, unknown>): ErrorFacts {
  const names: string[] = [];
  if (typeof error.name === 'string') names.push(error.name);
  const constructorName = (error.constructor as { name?: unknown } | undefined)?.name;
  if (typeof constructorName === 'string' && !names.includes(constructorName)) names.push(constructorName);
  return { names, code: error.code, message: typeof error.message === 'string' ? error.message : '', raw: error };
}

/** The errors of the chain: each error's `cause`, or cassandra-driver's `innerError`. */
const MAX_DEPTH = 5;
function chainOf(error: unknown): ErrorFacts[] {
  const chain: ErrorFacts[] = [];
  for (let current = error; chain.length < MAX_DEPTH && isObject(current);) {
    chain.push(factsOf(current));
    current = current.cause ?? current.innerError;
  }
  return chain;
}

/** TIMEOUT, SERVICE_UNAVAILABLE, or undefined when the error is the store's answer (ERROR). */
export function outageStatusOf(error: unknown): Status | undefined {
  const chain = chainOf(error);
  for (const facts of chain) {
    const verdict = outageOf(facts);
    if (verdict === 'ANSWER') return undefined;
    if (verdict !== undefined) return verdict;
  }
  for (const facts of chain) {
    const verdict = messageOf(facts.message);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/** The drivers whose shapes are known here, for the documentation and tests. */
export const KNOWN_DRIVERS = Object.keys(DRIVER_SHAPES);
