/**
 * `couchdb`: Apache CouchDB 3.x over its HTTP API, on the official `nano` driver.
 *
 * A YCSB record is one document: `_id` is the YCSB key, each field a top-level string property.
 * A YCSB table is one CouchDB database (CouchDB's unit of a "collection"): the database named by
 * the URL path or `couchdb.database` when one is given, otherwise the table's own name, so
 * several tables never share documents.
 *
 * URL: `http://USER:PASSWORD@host:5984[/database]` (https too). CouchDB 3 refuses to run without
 * an admin and makes new databases admin-only, so the URL normally carries an admin's credentials;
 * nano sends them as HTTP Basic auth on every request.
 *
 * Settings (`-p couchdb.<name>=value`):
 *   couchdb.database        database to use for every table (default: the table's name)
 *   couchdb.maxsockets      HTTP keep-alive connections to the server (default: the runner's
 *                           threadcount, since each worker has at most one request in flight)
 *   couchdb.connecttimeout  ms to open a TCP connection and to answer connect()'s GET / (default 5000)
 *
 * Operations, as CouchDB's document API offers them (every write needs the current revision):
 *   read    GET /{db}/{id}; 404 -> null; the wanted fields are picked client-side
 *   insert  PUT /{db}/{id}; a 409 (the id exists) is an error
 *   update  GET (for `_rev` and the other fields), then PUT of the merged document with that
 *           `_rev`; a 409 means another writer got in between: an ERROR, never retried
 *   delete  GET (for `_rev`), then DELETE ?rev=; 404 -> false
 *   scan    GET /{db}/_all_docs?startkey=…&limit=…&include_docs=true. `_all_docs` is ordered by
 *           "raw" collation of the ids (Erlang binary order = UTF-8 byte order), unlike views,
 *           which collate with ICU. For YCSB's ASCII keys that is the same order as JS string
 *           comparison. Design documents (`_design/…`) sort among the ids; docbench creates none.
 *   insertMany  POST /{db}/_bulk_docs; CouchDB answers 201 even when single documents fail, so
 *           every per-document result is checked.
 */
import nano from 'nano';
import { Agent } from 'undici';
import { packageVersion } from '../version.ts';
import {
  UnreachableError,
  type BatchInserter,
  type FieldMap,
  type KeyedRecord,
  type Store,
  type StoreFactory,
  type StoreStats,
  type YcsbSchema,
} from './store.ts';

const DEFAULT_DATABASE = 'ycsb';
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_SOCKETS = 16;
/** CouchDB's rule for database names (docs: PUT /{db}). */
const DATABASE_NAME = /^[a-z][a-z0-9_$()+/-]*$/;

/** A CouchDB document as the adapter sees it: `_id`, `_rev` and string fields. */
type CouchDoc = Record<string, string> & { _id?: string; _rev?: string };

interface CouchTarget {
  /** Server URL (credentials kept, path removed) handed to nano. */
  serverUrl: string;
  /** Database named by the URL path, if any. */
  pathDatabase: string | undefined;
  /** The URL with its password masked, for messages. */
  displayUrl: string;
}

function parseCouchUrl(url: string): CouchTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`couchdb: "${url}" is not a URL; expected http://USER:PASSWORD@host:5984[/database]`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`couchdb: the URL must be http:// or https:// (CouchDB speaks HTTP), not ${parsed.protocol}//`);
  }
  const path = parsed.pathname.replace(/^\/+|\/+$/g, '');
  const pathDatabase = path ? decodeURIComponent(path) : undefined;
  parsed.pathname = '/';
  parsed.search = '';
  parsed.hash = '';
  const serverUrl = parsed.toString();
  if (parsed.password) parsed.password = '***';
  return { serverUrl, pathDatabase, displayUrl: parsed.toString() };
}

function chooseDatabase(pathDatabase: string | undefined, setting: string | undefined): string | undefined {
  if (pathDatabase !== undefined && setting !== undefined && pathDatabase !== setting) {
    throw new Error(`couchdb: the URL names database "${pathDatabase}" but couchdb.database is "${setting}"; give one of them`);
  }
  const name = pathDatabase ?? setting;
  return name === undefined ? undefined : validDatabaseName(name);
}

function validDatabaseName(name: string): string {
  if (!DATABASE_NAME.test(name)) {
    throw new Error(`couchdb: "${name}" is not a valid CouchDB database name (lower-case letter first, then a-z 0-9 _ $ ( ) + - /)`);
  }
  return name;
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`couchdb: ${name} must be a positive integer, got "${value}"`);
  return n;
}

/** HTTP status of a nano error (undefined for network errors, which carry none). */
export function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as { statusCode?: number }).statusCode : undefined;
}

/** All fields of a document: every property except CouchDB's own (`_id`, `_rev`, …). */
function allFields(doc: CouchDoc): FieldMap {
  const out: FieldMap = {};
  for (const name in doc) if (name.charCodeAt(0) !== 95 /* '_' */) out[name] = doc[name]!;
  return out;
}

function someFields(doc: CouchDoc, fields: readonly string[]): FieldMap {
  const out: FieldMap = {};
  for (const name of fields) {
    const value = doc[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export class CouchdbStore implements Store, BatchInserter {
  readonly name = 'couchdb';
  /** Transitional: scenario code uses the store itself until the handle moves to handle.ts. */
  get handle(): this {
    return this;
  }
  private readonly target: CouchTarget;
  /** The one database every table uses, when the URL or a setting names it. */
  private readonly fixedDatabase: string | undefined;
  /** The table last prepared or used, whose database stats() describes. */
  private lastTable = DEFAULT_DATABASE;
  private readonly databases = new Map<string, nano.DocumentScope<CouchDoc>>();
  private readonly maxSockets: number;
  private readonly connectTimeoutMs: number;
  private readonly agent: Agent;
  private readonly server: nano.ServerScope;
  private closing: Promise<void> | null = null;

  constructor(options: { url: string; settings: Record<string, string> }) {
    const s = options.settings;
    this.target = parseCouchUrl(options.url);
    this.fixedDatabase = chooseDatabase(this.target.pathDatabase, s['couchdb.database']);
    this.maxSockets = positiveInt(s['couchdb.maxsockets'], 'couchdb.maxsockets', positiveInt(s['docbench.threadcount'], 'threadcount', DEFAULT_MAX_SOCKETS));
    this.connectTimeoutMs = positiveInt(s['couchdb.connecttimeout'], 'couchdb.connecttimeout', DEFAULT_CONNECT_TIMEOUT_MS);
    // nano 11 sends requests with Node's fetch; a dedicated undici Agent gives a keep-alive pool
    // of a known size (and a connect timeout) instead of the process-wide default dispatcher.
    this.agent = new Agent({ connections: this.maxSockets, connect: { timeout: this.connectTimeoutMs } });
    this.server = nano({
      url: this.target.serverUrl,
      agentOptions: this.agent as unknown as nano.Configuration['agentOptions'],
    });
  }

  private databaseName(table: string): string {
    return this.fixedDatabase ?? validDatabaseName(table);
  }

  private db(table: string): nano.DocumentScope<CouchDoc> {
    let db = this.databases.get(table);
    if (db === undefined) {
      db = this.server.use<CouchDoc>(this.databaseName(table));
      this.databases.set(table, db);
    }
    this.lastTable = table;
    return db;
  }

  /** The nano server handle on the store's keep-alive pool, for scenario code (Mango, views). */
  serverScope(): nano.ServerScope {
    return this.server;
  }

  /** The database name a table maps to (the URL's database when one was given). */
  databaseNameFor(table: string): string {
    return this.databaseName(table);
  }

  async connect(): Promise<void> {
    try {
      // GET / answers without a login; with wrong credentials in the URL it is already a 401.
      await this.server.relax({ path: '', signal: AbortSignal.timeout(this.connectTimeoutMs) } as nano.RequestOptions);
    } catch (error) {
      throw new UnreachableError('couchdb', this.target.displayUrl, this.describeConnectError(error));
    }
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    this.lastTable = schema.table;
    await this.createDatabase(this.databaseName(schema.table));
  }

  async drop(schema: YcsbSchema): Promise<void> {
    await this.destroyDatabase(this.databaseName(schema.table));
  }

  /** Create a database (the scenarios' too); one that exists already is fine. */
  async createDatabase(name: string): Promise<void> {
    try {
      await this.server.db.create(name);
    } catch (error) {
      if (statusOf(error) !== 412) throw error; // 412 file_exists: already there, fine
    }
  }

  /** Delete a database (the scenarios' too); one that does not exist is fine. */
  async destroyDatabase(name: string): Promise<void> {
    try {
      await this.server.db.destroy(name);
    } catch (error) {
      if (statusOf(error) !== 404) throw error; // nothing to drop
    }
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const doc = await this.getOrNull(table, key);
    if (doc === null) return null;
    return fields ? someFields(doc, fields) : allFields(doc);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (count <= 0) return [];
    const result = await this.db(table).list({ startkey: startKey, limit: count, include_docs: true });
    const records: KeyedRecord[] = [];
    for (const row of result.rows) {
      if (!row.doc) continue;
      records.push({ key: row.id, fields: fields ? someFields(row.doc, fields) : allFields(row.doc) });
    }
    return records;
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const doc = await this.getOrNull(table, key);
    if (doc === null) return false;
    Object.assign(doc, values); // keeps _id and the _rev just read
    try {
      await this.db(table).insert(doc, key);
    } catch (error) {
      if (statusOf(error) === 409) {
        throw new Error(`update of "${key}" conflicted with a concurrent write (409: the revision read is no longer current)`, { cause: error });
      }
      throw error;
    }
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.db(table).insert(values as CouchDoc, key);
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    const docs = records.map((r) => ({ ...r.fields, _id: r.key }));
    const results = await this.db(table).bulk({ docs });
    let failed = 0;
    let first: (typeof results)[number] | undefined;
    for (const r of results) {
      if (r.error) {
        failed++;
        first ??= r;
      }
    }
    if (first) {
      throw new Error(`_bulk_docs stored ${records.length - failed} of ${records.length} documents; first failure "${first.id}": ${first.error} (${first.reason ?? 'no reason given'})`);
    }
  }

  async delete(table: string, key: string): Promise<boolean> {
    const doc = await this.getOrNull(table, key);
    if (doc === null) return false;
    try {
      await this.db(table).destroy(key, doc._rev!);
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
    return true;
  }

  async stats(): Promise<StoreStats> {
    const root = (await this.server.relax({ path: '' })) as {
      couchdb?: string;
      'express-pouchdb'?: string;
      version?: string;
      git_sha?: string;
      features?: string[];
      vendor?: { name?: string; version?: string };
    };
    const version = root.version ?? 'unknown';
    const vendor = root.vendor?.name;
    const isPouchdbServer = root['express-pouchdb'] !== undefined && root.couchdb === undefined;
    let server: string;
    if (isPouchdbServer) server = 'PouchDB Server (express-pouchdb)';
    else if (root.couchdb !== undefined) server = !vendor || vendor === 'The Apache Software Foundation' ? 'Apache CouchDB' : `CouchDB (${vendor})`;
    else server = vendor ?? 'unknown CouchDB-compatible server';

    const stats: StoreStats = {
      server,
      serverVersion: version,
      driver: `nano ${packageVersion('nano')}`,
      extra: {
        'couchdb.database': this.databaseName(this.lastTable),
        'couchdb.maxsockets': this.maxSockets,
        ...(vendor ? { vendor } : {}),
        ...(root.git_sha ? { gitSha: root.git_sha } : {}),
        ...(root.features ? { features: root.features.join(',') } : {}),
      },
    };
    if (isPouchdbServer) {
      stats.standIn = { name: 'pouchdb-server', version, note: 'the CouchDB HTTP API on PouchDB/LevelDB, not Apache CouchDB' };
    }

    const info = await this.databaseInfo();
    if (info) {
      if (typeof info.doc_count === 'number') stats.recordCount = info.doc_count;
      // CouchDB 3 reports sizes.file (bytes on disk) and sizes.active; before 3.0 it was disk_size.
      if (typeof info.sizes?.file === 'number') {
        stats.diskBytes = info.sizes.file;
        stats.extra!.diskBytesFrom = 'sizes.file';
      } else if (typeof info.disk_size === 'number') {
        stats.diskBytes = info.disk_size;
        stats.extra!.diskBytesFrom = 'disk_size';
      }
      if (typeof info.sizes?.active === 'number') stats.extra!['sizes.active'] = info.sizes.active;
      if (typeof info.sizes?.external === 'number') stats.extra!['sizes.external'] = info.sizes.external;
    }
    const memory = await this.nodeMemory();
    if (memory !== undefined) stats.memoryBytes = memory;
    return stats;
  }

  async close(): Promise<void> {
    this.closing ??= this.agent.close();
    await this.closing;
  }

  /** GET a document; null when CouchDB says 404 (never existed or deleted). */
  private async getOrNull(table: string, key: string): Promise<CouchDoc | null> {
    try {
      return await this.db(table).get(key);
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  private async databaseInfo(): Promise<{ doc_count?: number; disk_size?: number; sizes?: { file?: number; active?: number; external?: number } } | null> {
    try {
      return (await this.db(this.lastTable).info()) as Awaited<ReturnType<CouchdbStore['databaseInfo']>>;
    } catch (error) {
      if (statusOf(error) === 404) return null; // not prepared yet
      throw error;
    }
  }

  /**
   * Memory of the Erlang VM from /_node/_local/_system (server admins only): erlang:memory's
   * total, which CouchDB reports split into processes + atom + binary + code + ets + other.
   */
  private async nodeMemory(): Promise<number | undefined> {
    try {
      const system = (await this.server.relax({ path: '_node/_local/_system' })) as { memory?: Record<string, number> };
      const m = system.memory;
      if (!m) return undefined;
      const parts = [m.processes, m.atom, m.binary, m.code, m.ets, m.other];
      return parts.every((v) => typeof v === 'number') ? parts.reduce((a, b) => a! + b!, 0) : undefined;
    } catch {
      return undefined; // not an admin, or a server without the node API
    }
  }

  private describeConnectError(error: unknown): string {
    const status = statusOf(error);
    const reason = error instanceof Error ? error.message : String(error);
    if (status === 401) {
      return `the server rejected the credentials in the URL (401: ${reason}); give a CouchDB admin as http://USER:PASSWORD@host:5984`;
    }
    if (status !== undefined) return `GET / answered HTTP ${status}: ${reason}`;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${reason}${cause}`;
  }
}

export const createCouchdbStore: StoreFactory<Store> = (options) => new CouchdbStore(options);
