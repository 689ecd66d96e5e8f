/**
 * What MongoDB's scenario dialects work with (the store's `handle`): the driver's client and the
 * store's database, on the store's connection pool and settings, plus the steps every MongoDB
 * caller (the YCSB operations, each scenario) takes the same way.
 */
import { MongoServerError, type Collection, type Db, type Document, type MongoClient } from 'mongodb';

/** MongoDB's error codes docbench tells apart. */
const NAMESPACE_NOT_FOUND = 26;
const NAMESPACE_EXISTS = 48;

/** A collection's figures, summed over shards; a figure the server does not report is missing. */
export interface CollectionSizes {
  /** Bytes of the documents, uncompressed. */
  size?: number;
  /** Bytes the collection's data takes in the storage engine (compressed on WiredTiger). */
  storageSize?: number;
  /** Bytes its indexes take. */
  totalIndexSize?: number;
  /** Documents. */
  count?: number;
}

export class MongodbHandle {
  constructor(
    /** The driver's client (connected by the store's `connect`). */
    readonly client: MongoClient,
    /** The database the URL names (`ycsb` when it names none). */
    readonly db: Db,
  ) {}

  /**
   * Driver Collections, one per name, made once: `db.collection()` builds a new one (resolving
   * its read and write concerns and BSON options) at every call (what that costs:
   * docs/harness-benchmarks.md), and the YCSB operations name their collection at every operation.
   */
  private readonly collections = new Map<string, Collection<Document>>();

  /** A collection of the store's database. */
  collection<T extends Document = Document>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (collection === undefined) {
      collection = this.db.collection(name);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** Create a collection; one that exists already is fine (the server's createCollection is not idempotent). */
  async createCollection(name: string): Promise<void> {
    try {
      await this.db.createCollection(name);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
    }
  }

  /** Drop a collection; a missing one is fine (servers since 7.0 say so, older ones answer NamespaceNotFound). */
  async dropCollection(name: string): Promise<void> {
    try {
      await this.db.dropCollection(name);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND)) throw error;
    }
  }

  /**
   * `$collStats` (the supported way since MongoDB 6.2, one document per shard, summed), or the
   * older `collStats` command on servers without the stage; throws when neither answers.
   */
  async collectionSizes(name: string): Promise<CollectionSizes> {
    try {
      const shards = await this.collection(name)
        .aggregate([{ $collStats: { storageStats: {}, count: {} } }])
        .toArray();
      if (shards.length > 0) {
        const total: CollectionSizes = {};
        for (const shard of shards) {
          const s = (shard.storageStats ?? {}) as Document;
          add(total, {
            size: s.size,
            storageSize: s.storageSize,
            totalIndexSize: s.totalIndexSize,
            count: shard.count?.count ?? s.count,
          });
        }
        return total;
      }
    } catch {
      // fall through to the command
    }
    const reply = await this.db.command({ collStats: name });
    return add(
      {},
      { size: reply.size, storageSize: reply.storageSize, totalIndexSize: reply.totalIndexSize, count: reply.count },
    );
  }
}

/** Add a reply's figures (those that are numbers) to a total. */
function add(total: CollectionSizes, reply: Record<keyof CollectionSizes, unknown>): CollectionSizes {
  for (const name of Object.keys(reply) as (keyof CollectionSizes)[]) {
    const n = num(reply[name]);
    if (n !== undefined) total[name] = (total[name] ?? 0) + n;
  }
  return total;
}

/** A number from a server reply (int32, double or Long all arrive as number with the driver's defaults). */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
