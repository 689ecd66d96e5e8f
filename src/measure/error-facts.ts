/**
 * The vocabulary of error shapes: what a store's folder says about its drivers' errors
 * (`src/stores/<store>/errors.ts`), read by the failure classifier (failure-kind.ts) and the
 * service's conflict check (src/service/conflicts.ts). A leaf module: a store's errors.ts imports
 * this and nothing else, and no driver, so knowing a driver's errors never loads the driver.
 */
import type { Status } from './status.ts';

export type Outage = Extract<Status, 'TIMEOUT' | 'SERVICE_UNAVAILABLE'>;
/** What a shape says about one error of the chain: an outage, the store's own answer (ERROR), or nothing. */
export type Verdict = Outage | 'ANSWER' | undefined;

/** The parts of one error of a cause chain that the shapes read. */
export interface ErrorFacts {
  /** `name`, and the constructor's name (node-redis's classes leave `name` as "Error"). */
  readonly names: readonly string[];
  readonly code: unknown;
  readonly message: string;
  readonly raw: Record<string, unknown>;
}

/** The whole classifier, for a shape that must file an error its own error wraps (a cause, inner errors). */
export type Classify = (error: unknown) => Outage | undefined;

/** One driver's error classes, codes and flags: a verdict on one error of the chain, or undefined. */
export type DriverShape = (facts: ErrorFacts, classify: Classify) => Verdict;

/** What a store's folder knows of its drivers' errors (its `errors.ts` exports one as `errors`). */
export interface StoreErrors {
  /**
   * Its drivers' shapes, by driver (the npm package, or docbench's own client), tried in this
   * order. A shape may say "this is the store's answer" (a Redis error reply, an HTTP status),
   * which ends the search as ERROR, so no word in a server's message is misread.
   */
  readonly shapes: Readonly<Record<string, DriverShape>>;
  /** Driver errors that are plain `Error`s, known only by their fixed text: read last, after every shape and code. */
  readonly messages?: readonly (readonly [RegExp, Outage])[];
  /**
   * A write that lost a race or repeated an insert, as the driver reports it (the service answers
   * 409 Conflict). Absent for a store whose inserts and updates overwrite.
   */
  readonly conflict?: (facts: ErrorFacts) => boolean;
}

export const has = (f: ErrorFacts, ...names: string[]): boolean => f.names.some((n) => names.includes(n));

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
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

/** Node's socket codes and undici's (`ECONNRESET`, `UND_ERR_SOCKET`, …), whatever driver carried them. */
export function socketCodeOf(code: unknown): Outage | undefined {
  if (typeof code !== 'string') return undefined;
  if (UNAVAILABLE_CODES.has(code)) return 'SERVICE_UNAVAILABLE';
  if (TIMEOUT_CODES.has(code)) return 'TIMEOUT';
  return undefined;
}

/** An error class named for a timeout (`OperationTimedOutError`, `HeadersTimeoutError`, …). */
export const isTimeoutName = (name: string): boolean => /Timeout|TimedOut/.test(name);

/** The facts of one error. */
export function factsOf(error: Record<string, unknown>): ErrorFacts {
  const names: string[] = [];
  if (typeof error.name === 'string') names.push(error.name);
  const constructorName = (error.constructor as { name?: unknown } | undefined)?.name;
  if (typeof constructorName === 'string' && !names.includes(constructorName)) names.push(constructorName);
  return { names, code: error.code, message: typeof error.message === 'string' ? error.message : '', raw: error };
}
