/**
 * `couchdb`: Apache CouchDB 3.x over its HTTP API, on the official `nano` driver.
 *
 * A YCSB record is one document: `_id` is the YCSB key, each field a top-level string property.
 * A YCSB table is one CouchDB database (CouchDB's unit of a "collection"): the database named by
 * the URL path or `couchdb.database` when one is given, otherwise the table's own name, so
 * several tables never share documents.
 *
 * URL (url.ts): `http(s)://USER:PASSWORD@host:5984[/database]`. CouchDB 3 refuses to run without
 * an admin and makes new databases admin-only, so the URL normally carries an admin's credentials;
 * nano sends them as HTTP Basic auth on every request.
 *
 * Settings (settings.ts; `-p couchdb.<name>=value`, an unknown name is an error):
 *   couchdb.database        database to use for every table (default: the table's name)
 *   couchdb.maxsockets      HTTP keep-alive connections to the server (default: the operations the
 *                           caller keeps in flight, since each worker has at most one request out)
 *   couchdb.connecttimeout  ms to open a TCP connection and to answer connect()'s login check (default 5000)
 *   couchdb.requesttimeout  ms a request may wait for its answer to start, and between its parts, before
 *                           it fails as TIMEOUT: a stalled server (default 300000, undici's own)
 *
 * Connecting proves the run can work (connection.ts): `GET /_session` shows the URL's login is
 * accepted (CouchDB answers `GET /` without one), a request without a login is refused unless
 * the server takes anonymous requests as an admin ("admin party"), and the URL's database, when
 * it names one, may be read by that user. A refused login or a missing right is an
 * AccessDeniedError; a run checks its database exists first (checkTable).
 *
 * Operations (ycsb.ts), as CouchDB's document API offers them (every write needs the current
 * revision), and where they differ from YCSB's key-value model:
 *   read    GET /{db}/{id}; 404 "missing" or "deleted" -> null (a 404 "Database does not exist."
 *           is an error, never a missing record); the wanted fields are picked client-side
 *   insert  PUT /{db}/{id}; a 409 (the id exists) is an error
 *   update  GET (for `_rev` and the other fields), then PUT of the merged document with that
 *           `_rev`; a 409 means another writer got in between: an ERROR, never retried (a CouchDB
 *           application sees that conflict too; retrying it into a success would hide it)
 *   delete  GET (for `_rev`), then DELETE ?rev=; a missing or deleted document -> false
 *   scan    GET /{db}/_all_docs?startkey=…&limit=…&include_docs=true. `_all_docs` is ordered by
 *           "raw" collation of the ids (Erlang binary order = UTF-8 byte order), unlike views,
 *           which collate with ICU. For YCSB's ASCII keys that is the same order as JS string
 *           comparison. Design documents (`_design/…`) sort among the ids; docbench creates none.
 *   insertMany  POST /{db}/_bulk_docs; CouchDB answers 201 even when single documents fail, so
 *           every per-document result is checked.
 *
 * The other parts: connection.ts (nano on an undici keep-alive pool, reachability), handle.ts
 * (what the scenario dialects use), stats.ts, local-target.ts (the local pouchdb-server stand-in).
 */
import { MissingDataError, type StoreFactory, type StoreStats, type YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { CouchdbConnection } from './connection.ts';
import { CouchdbHandle } from './handle.ts';
import { couchdbConfig, type CouchdbConfig } from './settings.ts';
import { couchdbStats } from './stats.ts';
import { CouchdbYcsb } from './ycsb.ts';

export class CouchdbStore extends YcsbStore<CouchdbHandle> {
  readonly name = 'couchdb';
  readonly handle: CouchdbHandle;
  private readonly connection: CouchdbConnection;
  protected readonly ycsb: CouchdbYcsb;
  private readonly maxSockets: number;

  constructor(private readonly config: CouchdbConfig) {
    super();
    this.maxSockets = config.maxSockets;
    this.connection = new CouchdbConnection(config);
    this.handle = new CouchdbHandle(this.connection.server, config);
    this.ycsb = new CouchdbYcsb(this.handle);
  }

  connect(): Promise<void> {
    return this.connection.open();
  }

  /** GET /{db}: CouchDB answers 404 "Database does not exist." for a missing one (reads would then all be 404s). */
  async checkTable(schema: YcsbSchema): Promise<void> {
    const name = this.handle.databaseName(schema.table);
    if (!(await this.handle.databaseExists(name))) {
      throw new MissingDataError(
        'couchdb',
        this.config.displayUrl,
        `the database "${name}"`,
        'load it first: docbench load --store couchdb --url … -P <the same workload>',
      );
    }
  }

  stats(): Promise<StoreStats> {
    return couchdbStats(this.handle, this.maxSockets);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** The URL and every setting are checked here, before anything connects. */
export const createStore: StoreFactory<CouchdbStore> = (options) => new CouchdbStore(couchdbConfig(options));
