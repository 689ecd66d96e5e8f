/**
 * Which of the failure statuses a store call's exception is: a timeout (no answer in time), the
 * store out of reach (refused, reset, closed), or an error the store answered with. It never
 * depends on which store ran the call: each store's folder says what its official drivers' errors
 * look like (`src/stores/<store>/errors.ts`, loaded once by src/stores/store-errors.ts), and every
 * error of the cause chain is read in this order:
 *   1. the drivers' shapes: their error classes (by name, or by constructor name where the driver
 *      sets no `name`), codes and flags. A shape may also say "this is the store's answer" (a
 *      Redis error reply, a CouchDB HTTP status, a Cassandra or MongoDB server error), which ends
 *      the search as ERROR, so no word in a server's message is misread;
 *   2. the HTTP client's classes and the socket codes every driver may carry (undici, Node's
 *      fetch, under nano and the HBase client; Node's `ECONNRESET`, undici's `UND_ERR_SOCKET`, …);
 *   3. only then message text, for the few driver errors that carry nothing else.
 * No driver is imported here or in the shapes (so classifying never loads one): classes are
 * matched by name.
 */
import { STORE_ERRORS } from '../stores/store-errors.ts';
import {
  factsOf,
  has,
  isObject,
  isTimeoutName,
  socketCodeOf,
  type DriverShape,
  type ErrorFacts,
  type Outage,
  type Verdict,
} from './error-facts.ts';

/** undici (Node's fetch), under nano and docbench's HBase client: its classes; its codes are socketCodeOf's. */
const undici: DriverShape = (f) => {
  if (has(f, 'SocketError', 'ClientDestroyedError', 'ClientClosedError')) return 'SERVICE_UNAVAILABLE';
  if (has(f, 'ConnectTimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError')) return 'TIMEOUT';
  return undefined;
};

/** Every driver's shapes (the stores' in the STORES table's order, then the HTTP client's), flattened once. */
const SHAPES: readonly DriverShape[] = [...STORE_ERRORS.flatMap((e) => Object.values(e.shapes)), undici];

/** Driver errors that are plain `Error`s, known only by their fixed text (the stores' lists). */
const DRIVER_MESSAGES: readonly (readonly [RegExp, Outage])[] = STORE_ERRORS.flatMap((e) => e.messages ?? []);

/** Messages of errors that carry no class or code (beyond the drivers' fixed texts). */
const UNAVAILABLE_MESSAGE = /connect ECONNREFUSED|socket hang up|connection (refused|reset)/i;

/** One error of the chain, by its shapes and codes (steps 1 and 2). */
function outageOf(f: ErrorFacts): Verdict {
  for (const shape of SHAPES) {
    const verdict = shape(f, outageStatusOf);
    if (verdict !== undefined) return verdict;
  }
  return socketCodeOf(f.code) ?? (f.names.some(isTimeoutName) ? 'TIMEOUT' : undefined);
}

function messageOf(message: string): Outage | undefined {
  for (const [pattern, status] of DRIVER_MESSAGES) if (pattern.test(message)) return status;
  if (UNAVAILABLE_MESSAGE.test(message)) return 'SERVICE_UNAVAILABLE';
  return undefined;
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
export function outageStatusOf(error: unknown): Outage | undefined {
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

/** The drivers whose shapes are known (each store's, then the HTTP client), for the documentation and tests. */
export const KNOWN_DRIVERS = [...STORE_ERRORS.flatMap((e) => Object.keys(e.shapes)), 'undici'];
