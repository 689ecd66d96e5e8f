/**
 * Which of the failure statuses a store call's exception is: a timeout, the store out of reach,
 * or an error the store answered with. The drivers say so in different words (error classes,
 * socket error codes, messages), so this reads all three along the error's `cause` chain; it
 * never depends on which store ran the call.
 */
import type { Status } from './status.ts';

/** Socket and HTTP-client codes of a connection that could not be made, or broke. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTCONN', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Driver error classes (by name, so no driver is imported here). */
const UNAVAILABLE_NAMES = /^(MongoNetworkError|MongoServerSelectionError|MongoPoolClearedError|MongoTopologyClosedError|NoHostAvailableError|ClientClosedError|ClientOfflineError|SocketClosedUnexpectedlyError|ConnectionClosedError|ServiceNotAvailableError|RequestCanceledError|MaxRetriesPerRequestError)$/;
const TIMEOUT_NAMES = /Timeout|TimedOut/;

/** Messages of the drivers that give no class or code (ioredis's closed or offline client, among others). */
const UNAVAILABLE_MESSAGE = /connection is closed|stream isn't writeable|connect ECONNREFUSED|socket (hang up|closed)|client is closed|the client is offline|no host(s)? available|connection (refused|reset)|not connected|pool (was )?cleared|topology (is )?closed|max retries per request/i;
const TIMEOUT_MESSAGE = /timed? ?out|timeout/i;

const MAX_DEPTH = 5;

/** TIMEOUT, SERVICE_UNAVAILABLE, or undefined when the error is the store's answer (ERROR). */
export function outageStatusOf(error: unknown): Status | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current !== null && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; status?: unknown };
    // An HTTP gateway's own word for it (HBase's REST gateway answers 503 when HBase is out of reach).
    if (e.status === 503) return 'SERVICE_UNAVAILABLE';
    if (e.status === 504) return 'TIMEOUT';
    const code = typeof e.code === 'string' ? e.code : '';
    const name = typeof e.name === 'string' ? e.name : '';
    const message = typeof e.message === 'string' ? e.message : '';
    if (UNAVAILABLE_CODES.has(code)) return 'SERVICE_UNAVAILABLE';
    if (TIMEOUT_CODES.has(code) || TIMEOUT_NAMES.test(name)) return 'TIMEOUT';
    if (UNAVAILABLE_NAMES.test(name) || UNAVAILABLE_MESSAGE.test(message)) return 'SERVICE_UNAVAILABLE';
    if (TIMEOUT_MESSAGE.test(message)) return 'TIMEOUT';
    current = e.cause;
  }
  return undefined;
}
