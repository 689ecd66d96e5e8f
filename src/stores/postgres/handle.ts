/**
 * What scenario dialects use: node-postgres's pool on the store's database. Every query goes
 * through the pool (one connection per query in flight); a dialect that needs one connection for
 * several statements (a transaction) takes one with `pool.connect()` and releases it.
 */
import type { Pool, QueryConfig, QueryResultRow } from 'pg';

export class PostgresHandle {
  constructor(
    readonly pool: Pool,
    /** The database the URL names (or node-postgres's default, the user's name). */
    readonly database: string,
  ) {}

  /** One statement, with `$1…` parameters; a `name` makes it a prepared statement on each connection. */
  async query<R extends QueryResultRow = QueryResultRow>(text: string | QueryConfig, values?: unknown[]): Promise<R[]> {
    const result = typeof text === 'string' ? await this.pool.query<R>(text, values) : await this.pool.query<R>(text);
    return result.rows;
  }
}

/** A SQL identifier, double-quoted (a YCSB table or a scenario's table name may be any text). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
