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
 *   scan    SQL++, the statement of the Altoros study (seed 002, table 4.2.2):
 *           `SELECT meta().id AS id, … FROM <keyspace> WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2`,
 *           as a prepared statement (adhoc=false, as couchbase2), scan consistency not_bounded
 *           (the SDK's default). It needs a primary index, which prepare() creates. A cluster
 *           without the query service (the SDK says service/feature not available) -> UNSUPPORTED.
 *   prepare `CREATE PRIMARY INDEX IF NOT EXISTS ON <keyspace>` (Couchbase Server 7.1+)
 *   drop    `DELETE FROM <keyspace>` with request_plus consistency, so documents written just
 *           before are deleted too
 *
 * Settings (`-p couchbase.<name>=value`, or the same as URL query parameters):
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
 */
import {
  AuthenticationFailureError,
  BucketNotFoundError,
  CasMismatchError,
  CollectionNotFoundError,
  connect,
  DocumentNotFoundError,
  DurabilityLevel,
  FeatureNotAvailableError,
  MutateInSpec,
  QueryScanConsistency,
  ScopeNotFoundError,
  ServiceNotAvailableError,
  TimeoutError,
  type Bucket,
  type Cluster,
  type Collection,
  type QueryOptions,
} from 'couchbase';
import { packageVersion } from '../version.ts';
import { retryWhile, waitFor } from './wait.ts';
import { WorkloadError } from '../workload/properties.ts';
import {
  UnreachableError,
  UnsupportedError,
  type BatchInserter,
  type FieldMap,
  type KeyedRecord,
  type Store,
  type StoreFactory,
  type StoreStats,
  type YcsbSchema,
} from './store.ts';

/** Couchbase Server refuses a subdocument request with more than 16 paths. */
const MAX_SUBDOC_PATHS = 16;
/** Attempts of the get/merge/replace loop before a CAS conflict is reported as an error. */
const MAX_CAS_ATTEMPTS = 10;
/** Key read by connect() to prove the bucket and collection answer (normally absent). */
const CONNECT_PROBE_KEY = 'docbench::connect-probe';

/** couchbase.durability values (Couchbase's names for the levels) -> the SDK's enum. */
const DURABILITY: Record<string, DurabilityLevel> = {
  none: DurabilityLevel.None,
  majority: DurabilityLevel.Majority,
  majorityAndPersistActive: DurabilityLevel.MajorityAndPersistOnMaster,
  persistToMajority: DurabilityLevel.PersistToMajority,
};

const SETTINGS = [
  'couchbase.scope',
  'couchbase.collection',
  'couchbase.kvTimeout',
  'couchbase.queryTimeout',
  'couchbase.connectTimeout',
  'couchbase.durability',
  'couchbase.upsert',
  'couchbase.query',
  'couchbase.management',
  'couchbase.managementUrl',
] as const;

export interface CouchbaseTarget {
  tls: boolean;
  /** The SDK's connection string: scheme, hosts and SDK options, without login or bucket. */
  connectionString: string;
  username: string;
  password: string;
  bucket: string;
  /** First host name, for the management REST API. */
  firstHost: string;
  /** `couchbase.*` settings given as URL query parameters. */
  urlSettings: Record<string, string>;
  /** The URL with the password masked, for messages. */
  displayUrl: string;
}

const URL_SHAPE = 'couchbase://USER:PASSWORD@host[:port]/BUCKET (couchbases:// for TLS)';

/** Parse `couchbase(s)://user:password@hosts/bucket?params`; every part a real server needs is required. */
export function parseCouchbaseUrl(url: string): CouchbaseTarget {
  const match = /^(couchbases?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/.exec(url.trim());
  if (!match) throw new WorkloadError(`couchbase: "${maskPassword(url)}" is not a Couchbase URL; expected ${URL_SHAPE}`);
  const [, scheme, userinfo, hosts, path, query] = match;
  const missing: string[] = [];
  const colon = userinfo === undefined ? -1 : userinfo.indexOf(':');
  const username = userinfo === undefined ? '' : decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const password = colon < 0 ? '' : decodeURIComponent(userinfo!.slice(colon + 1));
  const bucket = decodeURIComponent((path ?? '').replace(/\/+$/, ''));
  if (!hosts) missing.push('a host');
  if (!username) missing.push('a user name');
  if (!password) missing.push('a password');
  if (!bucket) missing.push('a bucket name (the URL path)');
  if (missing.length > 0) {
    throw new WorkloadError(`couchbase: the URL "${maskPassword(url)}" has no ${missing.join(', no ')}; Couchbase Server needs all of them: ${URL_SHAPE}`);
  }
  if (bucket.includes('/')) throw new WorkloadError(`couchbase: "${bucket}" is not a bucket name; the URL path is the bucket alone (${URL_SHAPE})`);

  const urlSettings: Record<string, string> = {};
  const sdkParams: string[] = [];
  for (const pair of (query ?? '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq));
    if (name.startsWith('couchbase.')) urlSettings[name] = decodeURIComponent(eq < 0 ? '' : pair.slice(eq + 1));
    else sdkParams.push(pair);
  }
  const firstHost = hosts!.split(/[,;]/)[0]!.replace(/:\d+(=\w+)?$/, '').replace(/^\[(.*)\]$/, '$1');
  return {
    tls: scheme === 'couchbases',
    connectionString: `${scheme}://${hosts}${sdkParams.length > 0 ? `?${sdkParams.join('&')}` : ''}`,
    username,
    password,
    bucket,
    firstHost,
    urlSettings,
    displayUrl: maskPassword(url),
  };
}

function maskPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}

/** A backtick-quoted SQL++ identifier (Couchbase names cannot contain a backtick). */
const identifier = (name: string) => `\`${name}\``;

/** The SQL++ keyspace path of a collection: `bucket`.`scope`.`collection`. */
export function keyspacePath(bucket: string, scope: string, collection: string): string {
  return [bucket, scope, collection].map(identifier).join('.');
}

/**
 * The scan statement (seed 002, table 4.2.2), with `$1` = start key and `$2` = count. All fields:
 * the whole document as `doc` (so a field called `id` cannot clash with the key); chosen fields:
 * one column each.
 */
export function scanStatement(keyspace: string, fields: readonly string[] | null): string {
  const projection = fields === null ? 'd AS doc' : fields.map((f) => `d.${identifier(f)}`).join(', ');
  return `SELECT meta().id AS id, ${projection} FROM ${keyspace} AS d WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2`;
}

/** A subdocument path naming one top-level field (backticks when the name is not a plain identifier). */
function subdocPath(field: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? field : `\`${field.replace(/`/g, '``')}\``;
}

// --- settings ------------------------------------------------------------------------------

/** Couchbase's rule for scope and collection names (1-251 of A-Z a-z 0-9 _ - %, not starting with _ or %). */
function validName(value: string, name: string): string {
  if (value === '_default') return value;
  if (!/^[A-Za-z0-9_%-]{1,251}$/.test(value) || value.startsWith('_') || value.startsWith('%')) {
    throw new WorkloadError(`${name} must be _default or a Couchbase name (1-251 characters of A-Z a-z 0-9 _ - %, not starting with _ or %), got "${value}"`);
  }
  return value;
}

function positiveMs(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new WorkloadError(`${name} must be a whole number of milliseconds >= 1, got "${value}"`);
  return n;
}

function bool(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new WorkloadError(`${name} must be true or false, got "${value}"`);
}

/** The level's canonical name (matched without regard to case). */
function durability(value: string | undefined): string {
  if (value === undefined || value === '') return 'none';
  const name = Object.keys(DURABILITY).find((n) => n.toLowerCase() === value.trim().toLowerCase());
  if (name === undefined) throw new WorkloadError(`couchbase.durability must be one of ${Object.keys(DURABILITY).join(', ')}, got "${value}"`);
  return name;
}

function managementBase(value: string | undefined, target: CouchbaseTarget): string {
  if (value === undefined || value === '') {
    const host = target.firstHost.includes(':') ? `[${target.firstHost}]` : target.firstHost;
    return target.tls ? `https://${host}:18091` : `http://${host}:8091`;
  }
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    throw new WorkloadError(`couchbase.managementUrl must be an http(s) URL such as http://host:8091, got "${value}"`);
  }
}

export interface CouchbaseSettings {
  scope: string;
  collection: string;
  kvTimeoutMs: number;
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  durability: DurabilityLevel;
  durabilityName: string;
  upsert: boolean;
  query: boolean;
  management: boolean;
  managementUrl: string;
}

/** Validate every `couchbase.*` setting (URL parameters first, `-p` settings over them). */
export function couchbaseSettings(target: CouchbaseTarget, given: Record<string, string>): CouchbaseSettings {
  const s: Record<string, string> = { ...target.urlSettings };
  for (const [key, value] of Object.entries(given)) if (key.startsWith('couchbase.')) s[key] = value;
  for (const key of Object.keys(s)) {
    if (!(SETTINGS as readonly string[]).includes(key)) throw new WorkloadError(`unknown setting ${key}; couchbase understands ${SETTINGS.join(', ')}`);
  }
  const durabilityName = durability(s['couchbase.durability']);
  return {
    scope: validName(s['couchbase.scope'] || '_default', 'couchbase.scope'),
    collection: validName(s['couchbase.collection'] || '_default', 'couchbase.collection'),
    kvTimeoutMs: positiveMs(s['couchbase.kvTimeout'], 'couchbase.kvTimeout', 2500),
    queryTimeoutMs: positiveMs(s['couchbase.queryTimeout'], 'couchbase.queryTimeout', 75_000),
    connectTimeoutMs: positiveMs(s['couchbase.connectTimeout'], 'couchbase.connectTimeout', 5000),
    durability: DURABILITY[durabilityName]!,
    durabilityName,
    upsert: bool(s['couchbase.upsert'], 'couchbase.upsert', false),
    query: bool(s['couchbase.query'], 'couchbase.query', true),
    management: bool(s['couchbase.management'], 'couchbase.management', true),
    managementUrl: managementBase(s['couchbase.managementUrl'], target),
  };
}

// --- errors --------------------------------------------------------------------------------

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** The query service is not there at all (a KV-only cluster or node set). */
function isNoQueryService(error: unknown): boolean {
  return error instanceof ServiceNotAvailableError || error instanceof FeatureNotAvailableError;
}

/** Resolve `promise`, or reject after `ms`; a late success is handed to `cleanup` so nothing stays open. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string, cleanup: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`${what} did not finish within ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (done) cleanup(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!done) reject(error);
      },
    );
  });
}

// --- the store -----------------------------------------------------------------------------

export class CouchbaseStore implements Store, BatchInserter {
  readonly name = 'couchbase';
  /** Transitional: scenario code uses the store itself until the handle moves to handle.ts. */
  get handle(): this {
    return this;
  }
  private readonly target: CouchbaseTarget;
  private readonly settings: CouchbaseSettings;
  private clusterHandle: Cluster | null = null;
  private bucketHandle: Bucket | null = null;
  private collectionHandle: Collection | null = null;
  private closing: Promise<void> | null = null;
  /** What prepare()/drop() could not do, for stats().extra. */
  private readonly notes = new Map<string, string>();

  constructor(options: { url: string; settings: Record<string, string> }) {
    this.target = parseCouchbaseUrl(options.url);
    this.settings = couchbaseSettings(this.target, options.settings);
  }

  /** The connected SDK cluster, for scenario code (SQL++, transactions, managers). */
  cluster(): Cluster {
    if (!this.clusterHandle) throw new Error('couchbase: not connected; call connect() first');
    return this.clusterHandle;
  }

  /** The bucket named by the URL. */
  bucket(): Bucket {
    if (!this.bucketHandle) throw new Error('couchbase: not connected; call connect() first');
    return this.bucketHandle;
  }

  /** The collection a YCSB table lives in: the configured one, for every table (see the header). */
  collectionFor(_table: string): Collection {
    if (!this.collectionHandle) throw new Error('couchbase: not connected; call connect() first');
    return this.collectionHandle;
  }

  /** The SQL++ keyspace path of a table's collection: `bucket`.`scope`.`collection`. */
  keyspace(_table: string): string {
    return keyspacePath(this.target.bucket, this.settings.scope, this.settings.collection);
  }

  /**
   * Where the store writes and what its settings allow, for scenario code, which must not make a
   * call the settings switch off (on the local stand-in some management calls crash the SDK).
   */
  capabilities(): { bucket: string; scope: string; collection: string; query: boolean; management: boolean; upsert: boolean } {
    const s = this.settings;
    return { bucket: this.target.bucket, scope: s.scope, collection: s.collection, query: s.query, management: s.management, upsert: s.upsert };
  }

  /** SQL++ rows, for scenario code (which checks requireQuery first where the target may have no query service). */
  async queryRows<T = unknown>(statement: string, options: QueryOptions = {}): Promise<T[]> {
    return (await this.cluster().query<T>(statement, options)).rows;
  }

  /** UnsupportedError for `operation` when SQL++ is switched off (couchbase.query=false, the KV-only stand-in). */
  requireQuery(operation: string): void {
    if (!this.settings.query) throw new UnsupportedError(operation, 'SQL++ is switched off (couchbase.query=false): this cluster or stand-in has no query service');
  }

  /**
   * Create a collection of the configured scope with its primary index (scenario code's own
   * collections), and wait until the KV and query services both answer for it: a new
   * collection reaches them a moment after CREATE COLLECTION returns.
   */
  async createCollection(name: string): Promise<void> {
    const keyspace = keyspacePath(this.target.bucket, this.settings.scope, name);
    await this.queryRows(`CREATE COLLECTION ${keyspace} IF NOT EXISTS`);
    const collection = this.bucket().scope(this.settings.scope).collection(name);
    await retryWhile(
      `${keyspace} to answer KV requests`,
      async () => {
        try {
          await collection.get('docbench::probe');
        } catch (error) {
          if (error instanceof DocumentNotFoundError) return;
          throw error;
        }
      },
      (error) => error instanceof CollectionNotFoundError || error instanceof ScopeNotFoundError,
      { store: 'couchbase' },
    );
    // Before the load, so it is maintained during the load as an application's would be.
    await retryWhile(`the primary index on ${keyspace}`, () => this.queryRows(`CREATE PRIMARY INDEX IF NOT EXISTS ON ${keyspace}`), () => true, { store: 'couchbase' });
  }

  /**
   * Create GSI indexes (their statements create them deferred), build them with one BUILD INDEX,
   * and wait until every one is online.
   */
  async buildDeferredIndexes(keyspace: string, collection: string, indexes: readonly { name: string; statement: string }[]): Promise<void> {
    for (const index of indexes) await this.queryRows(index.statement);
    const names = indexes.map((i) => i.name);
    await this.queryRows(`BUILD INDEX ON ${keyspace}(${names.map(identifier).join(', ')})`);
    await waitFor(
      `the GSI indexes ${names.join(', ')} on ${keyspace} to be online`,
      async () => {
        const states = await this.queryRows<string>('SELECT RAW state FROM system:indexes WHERE bucket_id = $1 AND scope_id = $2 AND keyspace_id = $3 AND name IN $4', {
          parameters: [this.target.bucket, this.settings.scope, collection, names],
        });
        return states.length === names.length && states.every((state) => state === 'online');
      },
      { store: 'couchbase' },
    );
  }

  /** GET on the management REST API (for scenario code's statistics); refused when couchbase.management=false. */
  async managementGet(path: string): Promise<unknown> {
    if (!this.settings.management) throw new UnsupportedError('management REST call', 'couchbase.management=false');
    return this.rest(path);
  }

  async connect(): Promise<void> {
    const s = this.settings;
    let cluster: Cluster;
    try {
      cluster = await withDeadline(
        connect(this.target.connectionString, {
          username: this.target.username,
          password: this.target.password,
          timeouts: {
            kvTimeout: s.kvTimeoutMs,
            queryTimeout: s.queryTimeoutMs,
            connectTimeout: s.connectTimeoutMs,
            bootstrapTimeout: s.connectTimeoutMs,
            managementTimeout: s.connectTimeoutMs,
          },
        }),
        // The SDK's own timeout fires first; this only guards against a bootstrap that never settles.
        s.connectTimeoutMs + 5000,
        'bootstrap',
        (late) => void late.close().catch(() => {}),
      );
    } catch (error) {
      throw new UnreachableError('couchbase', this.target.displayUrl, this.describeConnectError(error, 'bootstrap'));
    }
    const bucket = cluster.bucket(this.target.bucket);
    const collection = bucket.scope(s.scope).collection(s.collection);
    try {
      // A KV read proves the bucket opens and the collection exists, with the same path every
      // operation takes (the SDK opens buckets lazily, so connect() alone proves neither).
      await collection.get(CONNECT_PROBE_KEY, { timeout: s.connectTimeoutMs });
    } catch (error) {
      if (!(error instanceof DocumentNotFoundError)) {
        await cluster.close().catch(() => {});
        throw new UnreachableError('couchbase', this.target.displayUrl, this.describeConnectError(error, 'bucket'));
      }
    }
    this.clusterHandle = cluster;
    this.bucketHandle = bucket;
    this.collectionHandle = collection;
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    if (!this.settings.query) return this.note('primaryIndex', 'not created (couchbase.query=false)');
    if (!this.settings.management) {
      return this.note('primaryIndex', `not created (couchbase.management=false): scans and drop need a primary index on ${this.keyspace(schema.table)}, create it yourself`);
    }
    try {
      await this.cluster().query(`CREATE PRIMARY INDEX IF NOT EXISTS ON ${this.keyspace(schema.table)}`);
      this.notes.delete('primaryIndex');
    } catch (error) {
      if (!isNoQueryService(error)) throw error;
      this.note('primaryIndex', `not created: the cluster has no query service (${reasonOf(error)})`);
    }
  }

  async drop(schema: YcsbSchema): Promise<void> {
    if (!this.settings.query) return this.note('drop', 'documents not deleted (couchbase.query=false: no SQL++ to delete with)');
    // DELETE runs over the primary index; prepare() creates it, and drop() may come first.
    if (this.settings.management) await this.prepare(schema);
    try {
      await this.cluster().query(`DELETE FROM ${this.keyspace(schema.table)}`, { scanConsistency: QueryScanConsistency.RequestPlus });
      this.notes.delete('drop');
    } catch (error) {
      if (!isNoQueryService(error)) throw error;
      this.note('drop', `documents not deleted: the cluster has no query service (${reasonOf(error)})`);
    }
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    try {
      const result = await this.collectionFor(table).get(key);
      return toFieldMap(result.content as Record<string, unknown>, fields);
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return null;
      throw error;
    }
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (!this.settings.query) throw new UnsupportedError('SCAN', 'SQL++ is switched off (couchbase.query=false), and Couchbase scans in key order need it');
    if (count <= 0) return [];
    let rows: Array<Record<string, unknown>>;
    try {
      const result = await this.cluster().query<Record<string, unknown>>(scanStatement(this.keyspace(table), fields), {
        parameters: [startKey, count],
        adhoc: false,
        readOnly: true,
      });
      rows = result.rows;
    } catch (error) {
      if (isNoQueryService(error)) throw new UnsupportedError('SCAN', `the cluster has no query service (SQL++): ${reasonOf(error)}`);
      throw error;
    }
    return rows.map((row) => ({
      key: String(row.id),
      fields: fields === null ? toFieldMap(row.doc as Record<string, unknown>, null) : toFieldMap(row, fields),
    }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const names = Object.keys(values);
    const collection = this.collectionFor(table);
    try {
      if (names.length === 0) return (await this.read(table, key, [])) !== null;
      if (names.length <= MAX_SUBDOC_PATHS) {
        await collection.mutateIn(
          key,
          names.map((n) => MutateInSpec.upsert(subdocPath(n), values[n])),
          this.durable(),
        );
        return true;
      }
      return await this.mergeWithCas(collection, key, values);
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      throw error;
    }
  }

  /** get -> merge -> replace(cas), again on a CAS mismatch (another writer came in between). */
  private async mergeWithCas(collection: Collection, key: string, values: FieldMap): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const current = await collection.get(key);
      try {
        await collection.replace(key, { ...(current.content as object), ...values }, { ...this.durable(), cas: current.cas });
        return true;
      } catch (error) {
        if (!(error instanceof CasMismatchError) || attempt >= MAX_CAS_ATTEMPTS) throw error;
      }
    }
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    const collection = this.collectionFor(table);
    if (this.settings.upsert) await collection.upsert(key, values, this.durable());
    else await collection.insert(key, values, this.durable());
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    const outcomes = await Promise.allSettled(records.map((r) => this.insert(table, r.key, r.fields)));
    let failed = 0;
    let first: { key: string; reason: unknown } | undefined;
    outcomes.forEach((o, i) => {
      if (o.status === 'rejected') {
        failed++;
        first ??= { key: records[i]!.key, reason: o.reason };
      }
    });
    if (first) throw new Error(`stored ${records.length - failed} of ${records.length} documents; first failure "${first.key}": ${reasonOf(first.reason)}`);
  }

  async delete(table: string, key: string): Promise<boolean> {
    try {
      await this.collectionFor(table).remove(key, this.durable());
      return true;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      throw error;
    }
  }

  async stats(): Promise<StoreStats> {
    const s = this.settings;
    const extra: Record<string, string | number | boolean> = {
      'couchbase.bucket': this.target.bucket,
      'couchbase.scope': s.scope,
      'couchbase.collection': s.collection,
      'couchbase.durability': s.durabilityName,
      'couchbase.insert': s.upsert ? 'upsert' : 'insert',
      'couchbase.query': s.query,
      'couchbase.management': s.management,
    };
    const stats: StoreStats = { server: 'Couchbase (not identified)', serverVersion: 'unknown', driver: `couchbase ${packageVersion('couchbase')}`, extra };
    const skipped: string[] = [];

    if (s.management) {
      try {
        const pools = (await this.rest('/pools')) as { implementationVersion?: string };
        // Couchbase Server answers e.g. "7.6.2-3721-enterprise"; anything else names another product.
        const version = pools.implementationVersion;
        if (version && /^\d+\.\d+/.test(version)) {
          stats.server = 'Couchbase Server';
          stats.serverVersion = version;
          extra.serverVersionFrom = 'GET /pools';
        } else if (version) {
          stats.server = version;
        }
        const info = (await this.rest(`/pools/default/buckets/${encodeURIComponent(this.target.bucket)}`)) as {
          basicStats?: { itemCount?: number; diskUsed?: number; memUsed?: number; dataUsed?: number };
        };
        const b = info.basicStats;
        if (b) {
          if (typeof b.itemCount === 'number') stats.recordCount = b.itemCount;
          if (typeof b.diskUsed === 'number') stats.diskBytes = b.diskUsed;
          if (typeof b.memUsed === 'number') stats.memoryBytes = b.memUsed;
          if (typeof b.dataUsed === 'number') extra.dataUsedBytes = b.dataUsed;
          // basicStats are per bucket: every scope and collection counts.
          extra.bucketStatsScope = 'whole bucket (basicStats)';
        }
      } catch (error) {
        extra.managementStats = `unavailable: ${reasonOf(error)}`;
      }
    } else {
      skipped.push('management REST calls: server version and bucket stats (couchbase.management=false)');
    }

    if (stats.serverVersion === 'unknown') {
      if (s.query) {
        try {
          const result = await this.cluster().query<string>('SELECT RAW ds_version()', { readOnly: true });
          if (result.rows[0]) {
            stats.server = 'Couchbase Server';
            stats.serverVersion = result.rows[0];
            extra.serverVersionFrom = 'SQL++ ds_version()';
          }
        } catch (error) {
          extra.queryVersion = `unavailable: ${reasonOf(error)}`;
        }
      } else {
        skipped.push('SQL++: scans UNSUPPORTED, no server version (couchbase.query=false)');
      }
    }
    for (const [what, note] of this.notes) skipped.push(`${what}: ${note}`);
    if (skipped.length > 0) extra.skipped = skipped.join('; ');
    return stats;
  }

  async close(): Promise<void> {
    this.closing ??= this.clusterHandle ? this.clusterHandle.close() : Promise.resolve();
    await this.closing;
  }

  private durable(): { durabilityLevel?: DurabilityLevel } {
    return this.settings.durability === DurabilityLevel.None ? {} : { durabilityLevel: this.settings.durability };
  }

  private note(what: string, note: string): void {
    this.notes.set(what, note);
  }

  /** GET on the management REST API with the URL's credentials (Couchbase's HTTP Basic auth). */
  private async rest(path: string): Promise<unknown> {
    const auth = Buffer.from(`${this.target.username}:${this.target.password}`).toString('base64');
    const response = await fetch(`${this.settings.managementUrl}${path}`, {
      headers: { authorization: `Basic ${auth}` },
      signal: AbortSignal.timeout(this.settings.connectTimeoutMs),
    });
    if (!response.ok) throw new Error(`GET ${this.settings.managementUrl}${path} answered HTTP ${response.status}`);
    return response.json();
  }

  /** Why connect() failed, in words a user can act on; `stage` says how far it got. */
  private describeConnectError(error: unknown, stage: 'bootstrap' | 'bucket'): string {
    const reason = reasonOf(error);
    const ms = this.settings.connectTimeoutMs;
    const where = `bucket "${this.target.bucket}", collection ${this.settings.scope}.${this.settings.collection}`;
    if (error instanceof AuthenticationFailureError) {
      return `the server rejected the user name or password in the URL, or the user may not access bucket "${this.target.bucket}" (${reason})`;
    }
    if (error instanceof BucketNotFoundError || /bucket_not_found/.test(reason)) return `bucket "${this.target.bucket}" does not exist or the user may not access it (${reason})`;
    if (error instanceof ScopeNotFoundError || error instanceof CollectionNotFoundError) return `${where}: the scope or collection does not exist (${reason})`;
    if (error instanceof TimeoutError || /did not finish within/.test(reason)) {
      return stage === 'bootstrap'
        ? `no Couchbase cluster answered within ${ms} ms (couchbase.connectTimeout) (${reason})`
        : `the cluster answered, but ${where} did not within ${ms} ms: it may not exist, or the user may not access it (${reason})`;
    }
    return stage === 'bootstrap' ? reason : `${where}: ${reason}`;
  }
}

/** A document's fields as strings (YCSB's values are strings; anything else is shown as JSON). */
function toFieldMap(doc: Record<string, unknown> | null | undefined, fields: readonly string[] | null): FieldMap {
  const out: FieldMap = {};
  if (!doc || typeof doc !== 'object') return out;
  const names = fields ?? Object.keys(doc);
  for (const name of names) {
    const value = doc[name];
    if (value === undefined) continue;
    out[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

export const createCouchbaseStore: StoreFactory<Store> = (options) => new CouchbaseStore(options);
