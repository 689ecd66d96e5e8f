/**
 * What scenario dialects use: node-postgres's pool on the store's database. Every statement goes
 * through `query`/`result` (one pooled connection per statement in flight); a dialect that needs
 * one connection for several statements (a transaction) takes one with `pool.connect()` and
 * releases it (with the error, if the connection itself failed).
 *
 * Why not `pool.query`: it closes the connection after any error, the server's answers included,
 * so a run with duplicate keys or serialization failures would log in again (and prepare every
 * statement again) after each one, and measure that. Here the server's own answer (a
 * DatabaseError that does not end the session) keeps the connection; any other error (the
 * connection lost, a read timeout, the session terminated) closes it.
 */
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';

export class PostgresHandle {
  constructor(
    readonly pool: Pool,
    /** The database the URL names (or node-postgres's default, the user's name). */
    readonly database: string,
  ) {}

  /** One statement, with `$1…` parameters; a `name` makes it a prepared statement on each connection. */
  async query<R extends QueryResultRow = QueryResultRow>(text: string | QueryConfig, values?: unknown[]): Promise<R[]> {
    return (await this.result<R>(text, values)).rows;
  }

  /** The same, with the whole result (`rowCount` of a write). */
  async result<R extends QueryResultRow = QueryResultRow>(
    text: string | QueryConfig,
    values?: unknown[],
  ): Promise<QueryResult<R>> {
    const client = await this.pool.connect();
    let result: QueryResult<R>;
    try {
      result = typeof text === 'string' ? await client.query<R>(text, values) : await client.query<R>(text);
    } catch (error) {
      client.release(isServerAnswer(error) ? undefined : (error as Error));
      throw error;
    }
    client.release();
    return result;
  }
}

/**
 * The server's ErrorResponse (pg-protocol's DatabaseError) after which the session goes on: not
 * a FATAL or PANIC one (an administrator's pg_terminate_backend, a shutdown), which ends it.
 */
function isServerAnswer(error: unknown): boolean {
  const e = error as { constructor?: { name?: string }; severity?: unknown } | null;
  return e?.constructor?.name === 'DatabaseError' && e.severity !== 'FATAL' && e.severity !== 'PANIC';
}

/** A SQL identifier, double-quoted (a YCSB table or a scenario's table name may be any text). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
