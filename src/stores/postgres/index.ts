/**
 * `postgres`: PostgreSQL's JSONB as a document store, on node-postgres (`pg`), with the layout of
 * YCSB's own JSONB binding (`postgrenosql`): ycsb.ts.
 *
 * URL: `postgres://[user[:password]@]host[:port][/database][?sslmode=…]` (or postgresql://), as
 * libpq and node-postgres take it (url.ts). Settings: `-p postgres.<name>=value` (settings.ts).
 *
 * Connecting proves the run can work: one query on the URL's database needs the login and the
 * database (connection.ts). The parts: url.ts, settings.ts, connection.ts (the pool), ycsb.ts,
 * handle.ts (what scenario dialects use), stats.ts, errors.ts, local-target.ts.
 */
import { MissingDataError, type StoreFactory, type StoreOptions, type StoreStats, type YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { close, connect, createHandle } from './connection.ts';
import { quoteIdent, type PostgresHandle } from './handle.ts';
import { postgresConfig, type PostgresConfig } from './settings.ts';
import { postgresStats } from './stats.ts';
import { YcsbTables } from './ycsb.ts';

export class PostgresStore extends YcsbStore<PostgresHandle> {
  readonly name = 'postgres';
  readonly handle: PostgresHandle;
  private readonly config: PostgresConfig;
  protected readonly ycsb: YcsbTables;

  /** Checks the URL and the settings (user errors, before anything connects). */
  constructor(options: StoreOptions) {
    super();
    this.config = postgresConfig(options);
    this.handle = createHandle(this.config);
    this.ycsb = new YcsbTables(this.handle);
  }

  connect(): Promise<void> {
    return connect(this.handle, this.config);
  }

  async checkTable(schema: YcsbSchema): Promise<void> {
    const [row] = await this.handle.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
      quoteIdent(schema.table),
    ]);
    if (row?.found == null) {
      throw new MissingDataError(
        'postgres',
        this.config.target.displayUrl,
        `the table "${schema.table}" in the database "${this.handle.database}"`,
        'load it first: docbench load --store postgres --url … -P <the same workload>',
      );
    }
  }

  stats(): Promise<StoreStats> {
    return postgresStats(this.handle, this.config, this.ycsb.lastTable);
  }

  close(): Promise<void> {
    return close(this.handle);
  }
}

export const createStore: StoreFactory<PostgresStore> = (options) => new PostgresStore(options);
