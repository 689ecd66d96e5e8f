/**
 * `mongodb`: MongoDB (self-hosted or Atlas) on the official `mongodb` Node.js driver, with the
 * semantics of YCSB's own MongoDB binding (`site.ycsb.db.MongoDbClient`):
 *
 *   - one document per record, `_id` = the YCSB key, each field a top-level string;
 *   - a YCSB table is a collection, in the database named by the URL path (default `ycsb`, as in
 *     YCSB);
 *   read    the `find` command findOne sends ({_id}, limit 1, singleBatch), run as a database command,
 *           with a projection of the wanted fields; no document -> null (NOT_FOUND)
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
 * Settings (`-p mongodb.<name>=value`, declared in settings.ts); each one overrides the same
 * option in the URL:
 *   mongodb.writeConcern              w: a number of nodes (0, 1, 2, …) or `majority` (default:
 *                                     the URL's, else the server's default)
 *   mongodb.journal                   true|false: wait for the journal (write concern `j`)
 *   mongodb.readPreference            primary | primaryPreferred | secondary | secondaryPreferred | nearest
 *   mongodb.maxPoolSize               connections per server (default: the URL's, else the
 *                                     number of operations in flight, since each worker has at
 *                                     most one operation in flight)
 *   mongodb.serverSelectionTimeoutMS  how long connect() waits for a server (default: the URL's,
 *                                     else 5000)
 *
 * Connecting proves the run can work: after the driver selects a server (and logs in, when the
 * URL has a user), `listCollections` on the store's database needs the login and the user's
 * rights on that database (`ping` answers anyone). A refused login (18 AuthenticationFailed) or a
 * missing right (13 Unauthorized) is an AccessDeniedError; a TLS mismatch (`tls=true` at a plain
 * server, or none at a TLS one) is named as such (connection.ts).
 *
 * The parts: url.ts (the connection string), settings.ts (settings and configuration),
 * connection.ts (the driver's client), ycsb.ts (YCSB's operations), handle.ts (what scenario
 * dialects use), stats.ts, and local-target.ts (the local stand-in server).
 */
import { MissingDataError, type StoreFactory, type StoreOptions, type StoreStats, type YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { close, connect, createHandle } from './connection.ts';
import type { MongodbHandle } from './handle.ts';
import { mongodbConfig, type MongodbConfig } from './settings.ts';
import { mongodbStats } from './stats.ts';
import { YcsbCollections } from './ycsb.ts';

export class MongodbStore extends YcsbStore<MongodbHandle> {
  readonly handle: MongodbHandle;
  protected readonly config: MongodbConfig;
  protected readonly ycsb: YcsbCollections;

  /**
   * Checks the URL and the settings (user errors, before anything connects). `name` is the
   * store's: another store on MongoDB's protocol (ferretdb) runs this same code under its own.
   */
  constructor(
    options: StoreOptions,
    readonly name: string = 'mongodb',
  ) {
    super();
    this.config = mongodbConfig(options);
    this.handle = createHandle(this.config);
    this.ycsb = new YcsbCollections(this.handle);
  }

  connect(): Promise<void> {
    return connect(this.handle, this.config);
  }

  /** A missing collection reads as empty in MongoDB: ask for it by name. */
  async checkTable(schema: YcsbSchema): Promise<void> {
    const found = await this.handle.db.listCollections({ name: schema.table }, { nameOnly: true }).toArray();
    if (found.length === 0) {
      throw new MissingDataError(
        this.name,
        this.config.target.displayUrl,
        `the collection "${this.handle.db.databaseName}.${schema.table}"`,
        `load it first: docbench load --store ${this.name} --url … -P <the same workload>`,
      );
    }
  }

  stats(): Promise<StoreStats> {
    return mongodbStats(this.handle, this.config.clientOptions, this.ycsb.lastTable);
  }

  close(): Promise<void> {
    return close(this.handle);
  }
}

export const createStore: StoreFactory<MongodbStore> = (options) => new MongodbStore(options);
