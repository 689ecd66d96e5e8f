/**
 * `mongodb`: MongoDB (self-hosted or Atlas) on the official `mongodb` Node.js driver, with the
 * semantics of YCSB's own MongoDB binding (`site.ycsb.db.MongoDbClient`):
 *
 *   - one document per record, `_id` = the YCSB key, each field a top-level string;
 *   - a YCSB table is a collection, in the database named by the URL path (default `ycsb`, as in
 *     YCSB);
 *   read    findOne({_id}) with a projection of the wanted fields; no document -> null (NOT_FOUND)
 *   insert  insertOne; a duplicate `_id` (E11000) is an error, never swallowed
 *   update  updateOne({_id}, {$set: values}); matchedCount 0 -> false (NOT_FOUND)
 *   delete  deleteOne({_id}); deletedCount 0 -> false (NOT_FOUND)
 *   scan    find({_id: {$gte: startKey}}).sort({_id: 1}).limit(count) with the projection, the
 *           cursor drained. `_id` strings compare by their UTF-8 bytes (simple collation), which
 *           for YCSB's ASCII keys is JavaScript's string order.
 *   insertMany  insertMany(records, {ordered: false}), the load phase's bulk write: every
 *           document is attempted and any failure (a duplicate) is thrown after the batch.
 * With an unacknowledged write concern (w: 0) the server reports no counts, so update and
 * delete cannot tell a missing record and report success, as YCSB's binding does.
 *
 * URL: `mongodb://[user:password@]host[:port][,host…]/[database][?options]` or
 * `mongodb+srv://user:password@cluster.example.net/[database][?options]` (Atlas), exactly as
 * MongoDB's docs give them; every URL option is the driver's.
 *
 * Settings (`-p mongodb.<name>=value`); each one overrides the same option in the URL:
 *   mongodb.writeConcern              w: a number of nodes (0, 1, 2, …) or `majority` (default:
 *                                     the URL's, else the server's default)
 *   mongodb.journal                   true|false: wait for the journal (write concern `j`)
 *   mongodb.readPreference            primary | primaryPreferred | secondary | secondaryPreferred | nearest
 *   mongodb.maxPoolSize               connections per server (default: the runner's threadcount,
 *                                     since each worker has at most one operation in flight)
 *   mongodb.serverSelectionTimeoutMS  how long connect() waits for a server (default 5000)
 */
import {
  MongoClient,
  MongoServerError,
  type Collection,
  type Db,
  type Document,
  type MongoClientOptions,
  type ReadPreferenceMode,
  type W,
} from 'mongodb';
import { packageVersion } from '../version.ts';
import { WorkloadError } from '../workload/properties.ts';
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

/** YCSB's default database (`mongodb.url`'s default is mongodb://localhost:27017/ycsb). */
const DEFAULT_DATABASE = 'ycsb';
const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;
const DEFAULT_MAX_POOL_SIZE = 16;
const READ_PREFERENCES: readonly ReadPreferenceMode[] = ['primary', 'primaryPreferred', 'secondary', 'secondaryPreferred', 'nearest'];
const SETTINGS = ['writeConcern', 'journal', 'readPreference', 'maxPoolSize', 'serverSelectionTimeoutMS'].map((s) => `mongodb.${s}`);
/** MongoDB's rule for database names (no `/\. "$`, at most 63 bytes). */
const DATABASE_NAME = /^[^/\\. "$*<>:|?]{1,63}$/;

/** A YCSB record as stored: the key as `_id`, every field a string. */
export interface YcsbDocument {
  _id: string;
  [field: string]: string;
}

interface MongoTarget {
  database: string;
  /** Lower-cased names of the options the URL itself sets, so settings' defaults never override them. */
  urlOptions: Set<string>;
  /** The URL with its password masked, for messages. */
  displayUrl: string;
}

/**
 * The parts of a connection string docbench needs; the driver parses the rest. The shape is the
 * driver's own (mongodb-connection-string-url): scheme, optional `user[:password]@`, a host list
 * without `/`, then `/database` and `?options`.
 */
export function parseMongoUrl(url: string): MongoTarget {
  const match = /^(mongodb(?:\+srv)?:\/\/)(?:([^:@/]*)(?::([^@]*))?@)?([^/?@]*)(\/[^?]*)?(?:\?(.*))?$/.exec(url);
  if (!match) {
    throw new Error(`mongodb: "${url.replace(/:[^:@/]*@/, ':***@')}" is not a MongoDB connection string; expected mongodb://[user:password@]host[:port][/database][?options] or mongodb+srv://…`);
  }
  const [, scheme, user, password, hosts, path, query] = match;
  const database = path && path !== '/' ? decodeURIComponent(path.slice(1)) : DEFAULT_DATABASE;
  if (!DATABASE_NAME.test(database)) {
    throw new Error(`mongodb: "${database}" in the URL path is not a valid database name (1-63 characters, none of / \\ . " $ * < > : | ?)`);
  }
  const urlOptions = new Set([...new URLSearchParams(query ?? '').keys()].map((k) => k.toLowerCase()));
  const auth = user === undefined ? '' : `${user}${password === undefined ? '' : ':***'}@`;
  return { database, urlOptions, displayUrl: `${scheme}${auth}${hosts}${path ?? ''}${query ? `?${query}` : ''}` };
}

/**
 * `mongodb.*` settings as driver options, checked: a bad value is a WorkloadError (a bad property,
 * which the CLI reports in one line) naming the property and what it accepts.
 */
export function mongoClientOptions(settings: Record<string, string>, urlOptions: ReadonlySet<string>): MongoClientOptions {
  for (const key of Object.keys(settings)) {
    if (!key.startsWith('mongodb.') || SETTINGS.includes(key)) continue;
    const hint = key === 'mongodb.url' ? ' (give the URL with --url)' : key === 'mongodb.batchsize' ? ' (the load batch size is the `batchsize` property)' : '';
    throw new WorkloadError(`unknown setting ${key}${hint}; expected one of ${SETTINGS.join(', ')}`);
  }
  const options: MongoClientOptions = {};

  const w = settings['mongodb.writeConcern'];
  const journal = settings['mongodb.journal'];
  if (w !== undefined || journal !== undefined) {
    options.writeConcern = {
      ...(w !== undefined ? { w: writeConcernW(w) } : {}),
      ...(journal !== undefined ? { journal: bool(journal, 'mongodb.journal') } : {}),
    };
  }

  const readPreference = settings['mongodb.readPreference'];
  if (readPreference !== undefined) {
    if (!READ_PREFERENCES.includes(readPreference as ReadPreferenceMode)) {
      throw new WorkloadError(`mongodb.readPreference must be one of ${READ_PREFERENCES.join(', ')}, got "${readPreference}"`);
    }
    options.readPreference = readPreference as ReadPreferenceMode;
  }

  // A pool as large as the number of workers: no worker waits for a connection. An explicit
  // setting wins; otherwise the URL's own maxPoolSize is kept.
  const maxPoolSize = settings['mongodb.maxPoolSize'];
  if (maxPoolSize !== undefined) options.maxPoolSize = positiveInt(maxPoolSize, 'mongodb.maxPoolSize');
  else if (!urlOptions.has('maxpoolsize')) {
    const threads = settings['docbench.threadcount'];
    options.maxPoolSize = threads === undefined ? DEFAULT_MAX_POOL_SIZE : positiveInt(threads, 'threadcount');
  }

  // The driver's default is 30 s: far too long to tell a user that nothing answers.
  const selection = settings['mongodb.serverSelectionTimeoutMS'];
  if (selection !== undefined) options.serverSelectionTimeoutMS = positiveInt(selection, 'mongodb.serverSelectionTimeoutMS');
  else if (!urlOptions.has('serverselectiontimeoutms')) options.serverSelectionTimeoutMS = DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
  return options;
}

function writeConcernW(value: string): W {
  if (value === 'majority') return 'majority';
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) {
    throw new WorkloadError(`mongodb.writeConcern must be a number of nodes (0, 1, 2, …) or "majority", got "${value}"`);
  }
  return n;
}

function bool(value: string, name: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new WorkloadError(`${name} must be true or false, got "${value}"`);
}

function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) throw new WorkloadError(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/** `{field: 1, …}`, or undefined for all fields. */
function projection(fields: readonly string[] | null): Document | undefined {
  if (fields === null) return undefined;
  const p: Document = {};
  for (const f of fields) p[f] = 1;
  return p;
}

/** A stored document's fields without `_id`. */
function fieldsOf(doc: YcsbDocument): FieldMap {
  const { _id, ...fields } = doc;
  return fields;
}

/** A number from a server reply (int32, double or Long all arrive as number with the driver's defaults). */
function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export class MongodbStore implements Store, BatchInserter {
  readonly name = 'mongodb';
  /** Transitional: scenario code uses the store itself until the handle moves to handle.ts. */
  get handle(): this {
    return this;
  }
  private readonly target: MongoTarget;
  private readonly options: MongoClientOptions;
  private readonly client: MongoClient;
  private readonly database: Db;
  /** The table last prepared or used, whose collection stats() describes. */
  private lastTable: string | undefined;

  constructor(options: { url: string; settings: Record<string, string> }) {
    this.target = parseMongoUrl(options.url);
    this.options = mongoClientOptions(options.settings, this.target.urlOptions);
    this.client = new MongoClient(options.url, this.options);
    this.database = this.client.db(this.target.database);
  }

  /** The connected database, for scenario code (its own collections, indexes, aggregations). */
  db(): Db {
    return this.database;
  }

  /** A collection of the store's database, on the store's connection pool and settings. */
  collection<T extends Document = Document>(name: string): Collection<T> {
    return this.database.collection<T>(name);
  }

  private records(table: string): Collection<YcsbDocument> {
    this.lastTable = table;
    return this.database.collection<YcsbDocument>(table);
  }

  async connect(): Promise<void> {
    try {
      await this.client.connect();
      await this.database.command({ ping: 1 });
    } catch (error) {
      await this.client.close().catch(() => {});
      throw new UnreachableError('mongodb', this.target.displayUrl, this.describeConnectError(error));
    }
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    this.lastTable = schema.table;
    try {
      await this.database.createCollection(schema.table);
    } catch (error) {
      // 48 NamespaceExists: already there, fine (createCollection is not idempotent on the server).
      if (!(error instanceof MongoServerError && error.code === 48)) throw error;
    }
  }

  async drop(schema: YcsbSchema): Promise<void> {
    // Since server 7.0 dropping a missing collection succeeds; older servers answer 26 NamespaceNotFound.
    try {
      await this.database.dropCollection(schema.table);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 26)) throw error;
    }
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const p = projection(fields);
    const doc = await this.records(table).findOne({ _id: key }, p ? { projection: p } : {});
    return doc === null ? null : fieldsOf(doc);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (count <= 0) return [];
    const p = projection(fields);
    const docs = await this.records(table)
      .find({ _id: { $gte: startKey } }, p ? { projection: p } : {})
      .sort({ _id: 1 })
      .limit(count)
      .toArray(); // drains the cursor (and closes it on the server)
    return docs.map((doc) => ({ key: doc._id, fields: fieldsOf(doc) }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const result = await this.records(table).updateOne({ _id: key }, { $set: values });
    return !result.acknowledged || result.matchedCount > 0;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.records(table).insertOne({ ...values, _id: key });
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.records(table).insertMany(
      records.map((r) => ({ ...r.fields, _id: r.key })),
      { ordered: false },
    );
  }

  async delete(table: string, key: string): Promise<boolean> {
    const result = await this.records(table).deleteOne({ _id: key });
    return !result.acknowledged || result.deletedCount > 0;
  }

  async stats(): Promise<StoreStats> {
    const build = await this.command({ buildInfo: 1 }, true);
    const secantusVersion = typeof build?.secantusVersion === 'string' ? build.secantusVersion : undefined;
    const modules = Array.isArray(build?.modules) ? (build.modules as unknown[]).map(String) : [];
    let server = modules.includes('enterprise') ? 'MongoDB Enterprise' : 'MongoDB';
    if (secantusVersion !== undefined) server = `SecantusDB ${secantusVersion} (MongoDB wire protocol)`;

    const wc = this.options.writeConcern;
    const stats: StoreStats = {
      server,
      serverVersion: typeof build?.version === 'string' ? build.version : 'unknown',
      driver: `mongodb ${packageVersion('mongodb')}`,
      extra: {
        database: this.target.database,
        ...(this.lastTable !== undefined ? { collection: this.lastTable } : {}),
        ...(wc?.w !== undefined ? { 'mongodb.writeConcern': String(wc.w) } : {}),
        ...(wc?.journal !== undefined ? { 'mongodb.journal': wc.journal } : {}),
        ...(this.options.readPreference !== undefined ? { 'mongodb.readPreference': String(this.options.readPreference) } : {}),
        'mongodb.maxPoolSize': this.client.options.maxPoolSize,
        ...(Array.isArray(build?.storageEngines) ? { storageEngines: (build.storageEngines as unknown[]).join(',') } : {}),
        ...(modules.length > 0 ? { modules: modules.join(',') } : {}),
      },
    };
    if (secantusVersion !== undefined) {
      // The server says it is SecantusDB (a field no mongod reply has): label the result, as the
      // numbers are SecantusDB's and say nothing about MongoDB's own engine.
      stats.standIn = { name: 'SecantusDB', version: secantusVersion, note: `a MongoDB-wire-protocol server on WiredTiger reporting MongoDB ${stats.serverVersion}, not MongoDB` };
    }
    const extra = stats.extra!;

    // Database totals. storageSize is the bytes WiredTiger's data files take on disk (compressed),
    // indexSize the same for indexes: together what the database costs on disk.
    const db = await this.command({ dbStats: 1 });
    const dbStorage = num(db?.storageSize);
    const dbIndex = num(db?.indexSize);
    if (num(db?.dataSize) !== undefined) extra['db.dataSize'] = num(db?.dataSize)!;
    if (dbStorage !== undefined) extra['db.storageSize'] = dbStorage;
    if (dbIndex !== undefined) extra['db.indexSize'] = dbIndex;
    if (num(db?.objects) !== undefined) extra['db.objects'] = num(db?.objects)!;
    if (dbStorage !== undefined && dbIndex !== undefined) {
      stats.diskBytes = dbStorage + dbIndex;
      extra.diskBytesFrom = 'dbStats storageSize + indexSize';
    }
    if (num(db?.objects) !== undefined) stats.recordCount = num(db?.objects)!;

    // The YCSB collection itself, when there is one: its figures replace the database's.
    if (this.lastTable !== undefined) {
      const coll = await this.collectionStats(this.lastTable);
      if (coll) {
        const storage = num(coll.storageSize);
        const index = num(coll.totalIndexSize);
        if (num(coll.size) !== undefined) extra['collection.dataSize'] = num(coll.size)!;
        if (storage !== undefined) extra['collection.storageSize'] = storage;
        if (index !== undefined) extra['collection.indexSize'] = index;
        if (num(coll.count) !== undefined) {
          extra['collection.count'] = num(coll.count)!;
          stats.recordCount = num(coll.count)!;
        }
        if (storage !== undefined && index !== undefined) {
          stats.diskBytes = storage + index;
          extra.diskBytesFrom = 'collStats storageSize + totalIndexSize';
        }
      }
    }

    // Resident memory of the server process (MiB in serverStatus); needs the clusterMonitor role.
    const status = await this.command({ serverStatus: 1, repl: 0, metrics: 0, locks: 0 }, true);
    const resident = num((status?.mem as Document | undefined)?.resident);
    if (resident !== undefined && resident > 0) stats.memoryBytes = resident * 1024 * 1024;
    const engine = (status?.storageEngine as Document | undefined)?.name;
    if (typeof engine === 'string') extra.storageEngine = engine;
    return stats;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * `$collStats` (the supported way since MongoDB 6.2, one document per shard, summed), or the
   * older `collStats` command on servers without the stage; undefined when neither answers.
   */
  private async collectionStats(table: string): Promise<Document | undefined> {
    try {
      const shards = await this.database
        .collection(table)
        .aggregate([{ $collStats: { storageStats: {}, count: {} } }])
        .toArray();
      if (shards.length > 0) {
        const total: Document = {};
        for (const shard of shards) {
          const s = (shard.storageStats ?? {}) as Document;
          for (const [name, value] of [
            ['size', s.size],
            ['storageSize', s.storageSize],
            ['totalIndexSize', s.totalIndexSize],
            ['count', shard.count?.count ?? s.count],
          ] as const) {
            const n = num(value);
            if (n !== undefined) total[name] = (total[name] ?? 0) + n;
          }
        }
        return total;
      }
    } catch {
      // fall through to the command
    }
    return this.command({ collStats: table });
  }

  /** Run a command on the store's database (or admin); undefined when the server refuses it. */
  private async command(command: Document, admin = false): Promise<Document | undefined> {
    try {
      return await (admin ? this.database.admin() : this.database).command(command);
    } catch {
      return undefined; // not supported, or the user lacks the privilege: leave the figure out
    }
  }

  private describeConnectError(error: unknown): string {
    if (error instanceof MongoServerError && error.code === 18) {
      return `the server rejected the credentials in the URL (${error.message}); give them as mongodb://USER:PASSWORD@host/…, with authSource if the user is not defined in admin`;
    }
    return error instanceof Error ? error.message : String(error);
  }
}

export const createMongodbStore: StoreFactory<Store> = (options) => new MongodbStore(options);
