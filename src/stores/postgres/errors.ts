/**
 * What node-postgres's errors mean (read by src/measure/failure-kind.ts and
 * src/service/conflicts.ts; no driver is imported here). The server's SQLSTATE decides first,
 * by class (PostgreSQL's Appendix A), and the driver's fixed texts only for errors that carry
 * none (a connection the client itself lost or timed out).
 */
import { has, type StoreErrors, type Verdict } from '../../measure/error-facts.ts';

/** SQLSTATEs of a server that cannot serve now (beyond class 08, connection exceptions). */
const UNAVAILABLE_STATES = new Set([
  '57P01' /* admin_shutdown */,
  '57P02' /* crash_shutdown */,
  '57P03' /* cannot_connect_now: starting up or shutting down */,
  '53300' /* too_many_connections */,
  '58030' /* io_error */,
]);
/** SQLSTATEs of a statement stopped for taking too long. */
const TIMEOUT_STATES = new Set(['57014' /* query_canceled: statement_timeout */, '55P03' /* lock_not_available */]);

function sqlStateVerdict(code: unknown): Verdict {
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  if (code.startsWith('08') || UNAVAILABLE_STATES.has(code)) return 'SERVICE_UNAVAILABLE';
  if (TIMEOUT_STATES.has(code)) return 'TIMEOUT';
  return 'ANSWER';
}

/** unique_violation (an insert of an existing key), serialization_failure and deadlock_detected: a lost race. */
const CONFLICT_STATES = new Set(['23505', '40001', '40P01']);

export const errors: StoreErrors = {
  shapes: {
    pg(f) {
      // The server's own error (pg's DatabaseError carries its SQLSTATE as `code`).
      if (has(f, 'DatabaseError')) return sqlStateVerdict(f.code);
      return undefined;
    },
  },
  // node-postgres's and pg-pool's fixed texts (lib/client.js, pg-pool/index.js), whole, since
  // every store's messages are read for every error. "Connection terminated" alone is a client
  // docbench itself ended, not an outage.
  messages: [
    [
      /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout|Query read timeout)$/,
      'TIMEOUT',
    ],
    [
      /^(Connection terminated unexpectedly|Client has encountered a connection error and is not queryable)$/,
      'SERVICE_UNAVAILABLE',
    ],
  ],
  conflict: (f) => typeof f.code === 'string' && CONFLICT_STATES.has(f.code) && has(f, 'DatabaseError'),
};
