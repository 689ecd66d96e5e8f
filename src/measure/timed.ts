/**
 * The one way a call is timed (go-ycsb's dbwrapper: `defer measure(start, "READ", err)`): the
 * clock is read around the call and nowhere else, and the outcome becomes a YCSB status. Store
 * adapters and scenario dialects never touch the clock; the runner's store wrapper and the
 * scenario timer call this and file the result under the operation's name.
 */
import { UnsupportedError } from '../stores/store.ts';
import { outageStatusOf } from './failure-kind.ts';
import type { Status } from './status.ts';

export interface Timed<T> {
  status: Status;
  /** The call's value; undefined when it threw. */
  value: T | undefined;
  /** What the call threw (status ERROR or UNSUPPORTED), else undefined. */
  error: unknown;
  startMs: number;
  endMs: number;
}

/**
 * An adapter's exception as a YCSB status: UnsupportedError is UNSUPPORTED; a store out of reach
 * is SERVICE_UNAVAILABLE or TIMEOUT (failure-kind.ts); anything else ERROR.
 */
export function statusOfError(error: unknown): Status {
  if (error instanceof UnsupportedError) return 'UNSUPPORTED';
  return outageStatusOf(error) ?? 'ERROR';
}

const alwaysOk = (): Status => 'OK';

/**
 * Run `call` between two clock readings. A value maps to a status through `statusOf` (e.g. a read
 * that answered null is NOT_FOUND); a throw maps through `statusOfError`. Never throws itself.
 */
export async function timed<T>(call: () => Promise<T>, statusOf: (value: T) => Status = alwaysOk): Promise<Timed<T>> {
  const startMs = performance.now();
  try {
    const value = await call();
    const endMs = performance.now();
    return { status: statusOf(value), value, error: undefined, startMs, endMs };
  } catch (error) {
    return { status: statusOfError(error), value: undefined, error, startMs, endMs: performance.now() };
  }
}
