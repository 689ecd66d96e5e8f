/**
 * `couchbase`: Couchbase Server 7.x / Capella on the official `couchbase` Node.js SDK 4 (a native
 * C++ core), with the operations of YCSB's couchbase2 binding.
 *
 * URL: `couchbase://USER:PASSWORD@host[:port][,host2…]/BUCKET[?option=value&…]`, or
 * `couchbases://…` for TLS (Capella). The user is an RBAC user with access to the bucket; a port
 * in the URL is the KV (memcached) port, as in the SDK's connection strings. Query parameters
 * named `couchbase.*` are docbench settings (see below; `-p` settings override them); every other
 * parameter goes to the SDK's connection string unchanged (e.g. `?network=external`).
 *
 * Data layout. A YCSB record is one JSON document whose key is the YCSB key itself and whose
 * fields are top-level string properties. Every YCSB table lives in the one collection
 * `couchbase.scope`.`couchbase.collection` (default `_default`.`_default`) of the bucket:
 *   - not a per-table key prefix (YCSB's couchbase2 writes `table:key`): with a prefix, the scan
 *     below (`meta().id >= $1 ORDER BY meta().id LIMIT $2`) runs past the table's last key into
 *     the next table's keys. Without it, the keyspace holds exactly one table's keys;
 *   - not a collection per table: creating collections needs DDL rights a benchmark user (or a
 *     Capella database credential) usually lacks. To keep runs apart, give each its own
 *     collection: `-p couchbase.collection=…` (create it first).
 * So `drop()` of any table empties the whole configured collection.
 *
 * Operations (KV unless stated):
 *   read    get; DocumentNotFound -> NOT_FOUND; wanted fields picked client-side (one GET, as
 *           couchbase2 does, whatever the number of fields)
 *   update  subdocument mutateIn with one `upsert` per field: only the given fields change, in one
 *           atomic server-side operation; DocumentNotFound -> NOT_FOUND. A subdoc request carries
 *           at most 16 paths, so an update of more fields reads the document with its CAS, merges,
 *           and replaces it with that CAS, retrying on a CAS mismatch (Couchbase's documented
 *           optimistic-locking loop). (couchbase2 replaces the whole document with only the given
 *           fields, which drops the others; docbench keeps YCSB's meaning: the other fields stay.)
 *   insert  `insert` (create only): a key that exists is an ERROR, as in couchbase2's default, so
 *           a key-generation mistake shows; `couchbase.upsert=true` writes with `upsert` instead
 *           (couchbase2's `couchbase.upsert`), which overwrites an existing document whole.
 *   delete  remove; DocumentNotFound -> NOT_FOUND
 *   insertMany  a batch of concurrent KV writes (the SDK pipelines them on its connections)
 *   scan    SQL++, the statement of Altoros 2022 (its table 4.2.2):
 *           `SELECT meta().id AS id, … FROM <keyspace> WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2`,
 *           as a prepared statement (adhoc=false, as couchbase2), scan consistency not_bounded
 *           (the SDK's default). It needs a primary index, which prepare() creates. A cluster
 *           without the query service (the SDK says service/feature not available) -> UNSUPPORTED.
 *   prepare `CREATE PRIMARY INDEX IF NOT EXISTS ON <keyspace>` (Couchbase Server 7.1+)
 *   drop    `DELETE FROM <keyspace>` with request_plus consistency, so documents written just
 *           before are deleted too
 *
 * Settings (`-p couchbase.<name>=value`, or the same as URL query parameters), declared in
 * settings.ts; an unknown `couchbase.*` key is an error with a "did you mean". No pool size: the
 * SDK multiplexes every request over its KV connections.
 *   couchbase.scope, couchbase.collection   where the documents live (default _default)
 *   couchbase.kvTimeout        ms per KV operation (default 2500, the SDK's)
 *   couchbase.queryTimeout     ms per SQL++ statement (default 75000, the SDK's)
 *   couchbase.connectTimeout   ms to bootstrap and open the bucket, also for management REST calls
 *                              (default 5000, so a cluster that does not answer fails within
 *                              seconds; raise it for a distant cluster)
 *   couchbase.durability       none | majority | majorityAndPersistActive | persistToMajority
 *                              (default none, as the Altoros study: "Durability is false")
 *   couchbase.upsert           true: inserts overwrite (default false)
 *   couchbase.query            false: never use SQL++ (scans report UNSUPPORTED, prepare creates no
 *                              index, drop cannot delete documents) - for KV-only users and clusters
 *   couchbase.management       false: no index creation and no management REST calls (server
 *                              version, bucket stats) - for least-privilege users who may read and
 *                              write but not manage; stats() then says what it skipped
 *   couchbase.managementUrl    base URL of the management REST API (default http://<first host>:8091,
 *                              or https://…:18091 for couchbases://)
 *
 * The folder: url.ts (the URL), settings.ts (settings and the typed configuration),
 * connection.ts (SDK objects, management REST, connect errors), ycsb.ts (the operations above),
 * handle.ts (what scenario dialects use), stats.ts, local-target.ts (the local stand-in), and
 * this file, which composes them into the store.
 */
import type { Collection } from 'couchbase';
import type { StoreFactory, StoreOptions, StoreStats, YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { CouchbaseConnection } from './connection.ts';
import { CouchbaseHandle } from './handle.ts';
import { couchbaseConfig, type CouchbaseConfig } from './settings.ts';
import { couchbaseStats } from './stats.ts';
import { CouchbaseYcsb, type SkippedSteps } from './ycsb.ts';

export class CouchbaseStore extends YcsbStore<CouchbaseHandle> {
  readonly name = 'couchbase';
  /** What scenario dialects use (usable once connected). */
  readonly handle: CouchbaseHandle;
  private readonly config: CouchbaseConfig;
  protected readonly ycsb: CouchbaseYcsb;
  /** What prepare()/drop() could not do, for stats(). */
  private readonly skipped: SkippedSteps = new Map();
  private connection: CouchbaseConnection | null = null;

  /** Checks the URL and every setting now, so a mistake is reported before any network call. */
  constructor(options: StoreOptions) {
    super();
    this.config = couchbaseConfig(options.url, options.settings);
    this.handle = new CouchbaseHandle(this.config, () => this.connected());
    this.ycsb = new CouchbaseYcsb(this.config, this.handle, this.skipped);
  }

  /** The SDK collection a YCSB table lives in: the configured one, for every table (see the header). */
  collectionFor(_table: string): Collection {
    return this.handle.collection();
  }

  async connect(): Promise<void> {
    this.connection = await CouchbaseConnection.open(this.config);
  }

  /** Every table lives in the configured bucket and collection, which connect() has already opened. */
  async checkTable(_schema: YcsbSchema): Promise<void> {}

  stats(): Promise<StoreStats> {
    return couchbaseStats(this.config, this.handle, this.skipped);
  }

  async close(): Promise<void> {
    await this.connection?.close();
  }

  private connected(): CouchbaseConnection {
    if (!this.connection) throw new Error('couchbase: not connected; call connect() first');
    return this.connection;
  }
}

export const createStore: StoreFactory<CouchbaseStore> = (options) => new CouchbaseStore(options);
