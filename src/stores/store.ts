/**
 * The store contract: what every database adapter implements for YCSB-style work.
 *
 * Modelled on go-ycsb's `DB` interface: one documented line per method, and optional
 * abilities (bulk loading) as separate small interfaces that the runner detects, so no
 * adapter ever has a method that only throws "not implemented".
 *
 * Adapters never touch the clock: timing and status accounting live in the runner's
 * store wrapper. An adapter reports outcomes through return values and exceptions:
 *   - `read` returning `null`, `update`/`delete` returning `false`  -> NOT_FOUND
 *   - throwing `UnsupportedError`                                   -> UNSUPPORTED
 *   - throwing anything else                                        -> ERROR
 */
import { UserError } from '../common/user-error.ts';

/** One YCSB record: field name -> value. Values are strings (YCSB's fields are printable bytes). */
export type FieldMap = Record<string, string>;

/** A record returned by a scan: its key travels with it so order and integrity can be checked. */
export interface KeyedRecord {
  key: string;
  fields: FieldMap;
}

/** The YCSB table layout a store prepares before loading. */
export interface YcsbSchema {
  /** YCSB `table` (default `usertable`). */
  table: string;
  /** Field names in order: `field0` … `field{fieldcount-1}`. */
  fieldNames: readonly string[];
}

/** What a store says about itself and its server; recorded in every result. */
export interface StoreStats {
  /** Server product name as reported, e.g. "Redis", "Apache Cassandra". */
  server: string;
  /** Server version as reported by the server itself. */
  serverVersion: string;
  /** Official driver package name and version, e.g. "ioredis 5.11.1". */
  driver: string;
  /** Bytes on disk where the store reports it. */
  diskBytes?: number;
  /** Memory used by the server where the store reports it. */
  memoryBytes?: number;
  /** Number of records/keys where the store reports it cheaply. */
  recordCount?: number;
  /** When the server is a local stand-in for the real product, its name and version. */
  standIn?: { name: string; version: string; note: string };
  /**
   * When the server is another product that speaks this store's protocol (FerretDB, Amazon
   * DocumentDB, Azure Cosmos DB for MongoDB, IBM Cloudant, …), told from its own answers: the
   * product, its own version, and what that means. Not a stand-in (it is a real product); its
   * figures are that product's, never the named store's.
   */
  compatible?: CompatibleProduct;
  /** Anything else worth keeping (settings, engine names), flat key -> value. */
  extra?: Record<string, string | number | boolean>;
  /** The deployment the run talked to, as the server describes it (nodes, masters, replicas, replication). */
  topology?: StoreTopology;
  /** The consistency the run's reads and writes asked for (levels, write concern, WAIT), defaults named as such. */
  consistency?: { reads: string; writes: string };
  /** Whether the connections were encrypted (TLS). */
  encrypted?: boolean;
  /** How the store ran the work where a reader must know it (a cluster's non-atomic insert), one line each. */
  notes?: string[];
}

/** A product that speaks another store's protocol (see StoreStats.compatible). */
export interface CompatibleProduct {
  /** The product, e.g. "FerretDB", "Amazon DocumentDB". */
  product: string;
  /** Its own version where it tells it ("unknown" where it does not). */
  version: string;
  /** One line: whose protocol it speaks and what that means, e.g. "MongoDB-compatible, not MongoDB: …". */
  note: string;
}

/** A store's deployment: one server, a Redis Cluster, a Cassandra ring, a MongoDB replica set. */
export interface StoreTopology {
  /** `single`, `redis-cluster`, `cassandra-ring`, `replica-set`. */
  kind: string;
  /** Nodes the deployment has (up or not). */
  nodes: number;
  /** Redis Cluster: masters serving slots, their replicas in all, and each master's slots. */
  masters?: number;
  replicas?: number;
  slotsPerMaster?: number[];
  /** Cassandra: the keyspace's replication (its factor in the local data center). */
  replicationFactor?: number;
  /** Nodes the answering node saw down when asked (after the run). */
  down?: number;
}

/** Thrown by an adapter for an operation its store (or its local stand-in) cannot do. */
export class UnsupportedError extends Error {
  constructor(operation: string, why: string) {
    super(`${operation} is not supported: ${why}`);
    this.name = 'UnsupportedError';
  }
}

/** Thrown when the store cannot be reached at all; the CLI turns it into a one-line user error. */
export class UnreachableError extends UserError {
  constructor(store: string, url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`cannot reach ${store} at ${url}: ${reason}`);
  }
}

/**
 * The server answered but refused docbench's login, or the user lacks the rights the run needs
 * on the database: a run would measure nothing but refusals. The message names the credentials
 * to fix (never the password).
 */
export class AccessDeniedError extends UserError {
  constructor(store: string, url: string, detail: string) {
    super(`${store} at ${url} refused access: ${detail}`);
  }
}

/**
 * What a run reads is not there: the table, database, keyspace, bucket or collection does not
 * exist. `fix` says how to make it (usually the `docbench load` command).
 */
export class MissingDataError extends UserError {
  constructor(
    readonly store: string,
    readonly url: string,
    readonly what: string,
    fix: string,
  ) {
    super(`${store} at ${url}: ${what} does not exist; ${fix}`);
  }

  /** The same error with a fix that names the caller's own command (its workload and properties). */
  withFix(fix: string): MissingDataError {
    return new MissingDataError(this.store, this.url, this.what, fix);
  }
}

/**
 * `H` is the store's scenario-facing handle: what scenario dialects use to run their queries in
 * the store's idiom (driver objects, helpers to create collections or indexes). Each store folder
 * defines its own (`<store>/handle.ts`); a dialect factory is typed for its store's handle.
 */
export interface Store<H = unknown> {
  /** Short store name as used on the command line: `redis`, `cassandra`, `basic`, … */
  readonly name: string;
  /** The scenario-facing handle (usable once connected). */
  readonly handle: H;
  /**
   * Open connections and prove the run can do its work: the server answers, the login is
   * accepted and the user has rights on the database (a call that needs them, not just a ping).
   * Throws UnreachableError (no answer, wrong port, TLS mismatch) or AccessDeniedError.
   */
  connect(): Promise<void>;
  /**
   * Before a run phase (not a load, which creates it): throw MissingDataError when the table the
   * run reads (database, keyspace, bucket, collection) does not exist. A store with no such
   * container (Redis keys) resolves.
   */
  checkTable(schema: YcsbSchema): Promise<void>;
  /** Create what the YCSB table needs (keyspace/table/indexes); idempotent. */
  prepare(schema: YcsbSchema): Promise<void>;
  /** Remove everything `prepare` created and all data in it, so a load starts clean. */
  drop(schema: YcsbSchema): Promise<void>;
  /** Read one record; `fields` null means all fields. Returns null when the key does not exist. */
  read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null>;
  /** Read up to `count` records with key >= `startKey`, in ascending key order. */
  scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]>;
  /** Overwrite the given fields of one record. Returns false when the store can tell the key was missing. */
  update(table: string, key: string, values: FieldMap): Promise<boolean>;
  /** Insert one record. */
  insert(table: string, key: string, values: FieldMap): Promise<void>;
  /** Delete one record. Returns false when the store can tell the key was missing. */
  delete(table: string, key: string): Promise<boolean>;
  /** Server, version, driver, size on disk and memory where the store reports them. */
  stats(): Promise<StoreStats>;
  /** Close connections; safe to call twice. */
  close(): Promise<void>;
}

/** Optional ability: insert many records in one round trip (used by the load phase). */
export interface BatchInserter {
  insertMany(table: string, records: readonly KeyedRecord[]): Promise<void>;
}

export function canInsertMany(store: Store): store is Store & BatchInserter {
  return typeof (store as Partial<BatchInserter>).insertMany === 'function';
}

/**
 * Optional ability: the read the failover check trusts after a run (Cassandra: consistency ALL,
 * so every replica's copy is merged), where the store's ordinary read may answer from one copy.
 */
export interface AuthoritativeReader {
  /** How it reads, for the result (e.g. "consistency ALL"). */
  readonly authoritativeRead: string;
  readAuthoritatively(table: string, key: string): Promise<FieldMap | null>;
}

export function canReadAuthoritatively(store: Store): store is Store & AuthoritativeReader {
  return typeof (store as Partial<AuthoritativeReader>).readAuthoritatively === 'function';
}

/** How a store is reached: a URL plus its `<store>.*` settings. */
export interface StoreOptions {
  /** Connection URL, e.g. `redis://127.0.0.1:6390`, `cassandra://127.0.0.1:9042/docbench`. */
  url: string;
  /**
   * Store-specific settings (`cassandra.replication`, `mongodb.writeConcern`, …) as strings, from
   * `-p`, the URL or a config file. Each store checks its own with `common/settings.ts`.
   */
  settings: Record<string, string>;
  /** Operations the caller keeps in flight at once, so the store can size its connection pool. */
  concurrency: number;
}

/** Each store folder's `index.ts` exports one factory of this shape as `createStore`. */
export type StoreFactory<S extends Store = Store> = (options: StoreOptions) => S;
