/**
 * The return statuses docbench counts, YCSB's names. UNEXPECTED_STATE is YCSB's status for a
 * failed dataintegrity check (the VERIFY row). A call that failed because the store could not
 * be reached is told apart from one the store answered with an error: SERVICE_UNAVAILABLE (YCSB's
 * name: connection refused, reset or closed) and TIMEOUT (no answer in time, a stalled
 * connection). ERROR is everything else (a conflict, a command the store refused).
 */
export const STATUSES = [
  'OK',
  'NOT_FOUND',
  'ERROR',
  'UNSUPPORTED',
  'UNEXPECTED_STATE',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
] as const;
export type Status = (typeof STATUSES)[number];

/** The statuses of a failed call: it did not do its work, so it is not counted as throughput. */
export function isFailure(status: Status): boolean {
  return status === 'ERROR' || status === 'TIMEOUT' || status === 'SERVICE_UNAVAILABLE';
}

/** A failure because the store was out of reach (down, refusing, stalled), not an answer of the store. */
export function isOutage(status: Status): boolean {
  return status === 'TIMEOUT' || status === 'SERVICE_UNAVAILABLE';
}
