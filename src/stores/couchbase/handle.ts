/**
 * What scenario dialects use to run their work on Couchbase in its own idiom: the SDK's objects,
 * SQL++, the configured scope's collections (created with their primary index), deferred GSI
 * builds, the management REST API, and what the settings allow (`capabilities()`), so a dialect
 * never makes a call the settings switch off (on the local stand-in some management calls crash
 * the SDK's native core).
 */
import {
  CollectionNotFoundError,
  DocumentNotFoundError,
  ScopeNotFoundError,
  type Bucket,
  type Cluster,
  type Collection,
  type DurabilityLevel,
  type QueryOptions,
} from 'couchbase';
import type { PlanEvidence } from '../query-plan.ts';
import { UnsupportedError } from '../store.ts';
import { retryWhile, waitFor } from '../wait.ts';
import { managementRest, reasonOf, type CouchbaseConnection } from './connection.ts';
import { explainSqlpp } from './explain.ts';
import type { CouchbaseConfig } from './settings.ts';

/** A backtick-quoted SQL++ identifier (Couchbase names cannot contain a backtick). */
export const identifier = (name: string) => `\`${name}\``;

/** The SQL++ keyspace path of a collection: `bucket`.`scope`.`collection`. */
export function keyspacePath(bucket: string, scope: string, collection: string): string {
  return [bucket, scope, collection].map(identifier).join('.');
}

/** Where the store writes and what its settings allow. */
export interface CouchbaseCapabilities {
  bucket: string;
  scope: string;
  collection: string;
  query: boolean;
  management: boolean;
  upsert: boolean;
}

/** One document to write: where, under which key, what. */
export interface DocumentWrite {
  collection: Collection;
  key: string;
  value: object;
}

/** Options of a write: the durability level (couchbase.durability) for YCSB's writes. */
export interface WriteOptions {
  durabilityLevel?: DurabilityLevel;
}

export class CouchbaseHandle {
  constructor(
    private readonly config: CouchbaseConfig,
    /** The open connection; throws before connect(). */
    private readonly connection: () => CouchbaseConnection,
  ) {}

  /** The connected SDK cluster (SQL++, transactions, managers). */
  cluster(): Cluster {
    return this.connection().cluster;
  }

  /** The bucket named by the URL. */
  bucket(): Bucket {
    return this.connection().bucket;
  }

  /** A collection of the configured scope; by default the configured collection, where YCSB's tables live. */
  collection(name?: string): Collection {
    return name === undefined ? this.connection().collection : this.bucket().scope(this.config.scope).collection(name);
  }

  /** The SQL++ keyspace path of a collection of the configured scope (default: the configured collection). */
  keyspace(collection = this.config.collection): string {
    return keyspacePath(this.config.url.bucket, this.config.scope, collection);
  }

  capabilities(): CouchbaseCapabilities {
    const c = this.config;
    return {
      bucket: c.url.bucket,
      scope: c.scope,
      collection: c.collection,
      query: c.query,
      management: c.management,
      upsert: c.upsert,
    };
  }

  /** Write one document: `insert` (create only) or, with couchbase.upsert=true, `upsert` (overwrites it whole). */
  async write(document: DocumentWrite, options: WriteOptions = {}): Promise<void> {
    const { collection, key, value } = document;
    if (this.config.upsert) await collection.upsert(key, value, options);
    else await collection.insert(key, value, options);
  }

  /**
   * Write documents concurrently (the SDK pipelines concurrent KV requests over its connections:
   * this is its bulk write). Every write is awaited; a failure says how many were stored and
   * names the first that was not.
   */
  async writeAll(documents: readonly DocumentWrite[], options: WriteOptions = {}): Promise<void> {
    const outcomes = await Promise.allSettled(documents.map((d) => this.write(d, options)));
    const failed = outcomes.flatMap((o, i) =>
      o.status === 'rejected' ? [{ key: documents[i]!.key, reason: o.reason as unknown }] : [],
    );
    if (failed.length > 0) {
      throw new Error(
        `stored ${documents.length - failed.length} of ${documents.length} documents; first failure "${failed[0]!.key}": ${reasonOf(failed[0]!.reason)}`,
      );
    }
  }

  /** SQL++ rows (dialects call requireQuery first where the target may have no query service). */
  async queryRows<T = unknown>(statement: string, options: QueryOptions = {}): Promise<T[]> {
    return (await this.cluster().query<T>(statement, options)).rows;
  }

  /** How the query service runs a statement: EXPLAIN, and one profiled run (explain.ts). UNSUPPORTED without SQL++. */
  async explain(statement: string, parameters: unknown[]): Promise<PlanEvidence> {
    this.requireQuery('EXPLAIN');
    return explainSqlpp(this.cluster(), statement, parameters);
  }

  /** UnsupportedError for `operation` when SQL++ is switched off (couchbase.query=false, the KV-only stand-in). */
  requireQuery(operation: string): void {
    if (!this.config.query)
      throw new UnsupportedError(
        operation,
        'SQL++ is switched off (couchbase.query=false): this cluster or stand-in has no query service',
      );
  }

  /**
   * Create a collection of the configured scope with its primary index (a dialect's own
   * collections), and wait until the KV and query services both answer for it: a new
   * collection reaches them a moment after CREATE COLLECTION returns.
   */
  async createCollection(name: string): Promise<void> {
    const keyspace = this.keyspace(name);
    await this.queryRows(`CREATE COLLECTION ${keyspace} IF NOT EXISTS`);
    const collection = this.collection(name);
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
    await retryWhile(
      `the primary index on ${keyspace}`,
      () => this.queryRows(`CREATE PRIMARY INDEX IF NOT EXISTS ON ${keyspace}`),
      () => true,
      { store: 'couchbase' },
    );
  }

  /**
   * Create GSI indexes (their statements create them deferred, IF NOT EXISTS), build with one
   * BUILD INDEX those not built yet, and wait until every one is online. Idempotent: indexes an
   * earlier run built are left as they are (BUILD INDEX refuses an index that is already built).
   */
  async buildDeferredIndexes(
    keyspace: string,
    collection: string,
    indexes: readonly { name: string; statement: string }[],
  ): Promise<void> {
    for (const index of indexes) await this.queryRows(index.statement);
    const names = indexes.map((i) => i.name);
    const unbuilt = await this.queryRows<string>(
      "SELECT RAW name FROM system:indexes WHERE bucket_id = $1 AND scope_id = $2 AND keyspace_id = $3 AND name IN $4 AND state IN ['deferred', 'created']",
      {
        parameters: [this.config.url.bucket, this.config.scope, collection, names],
      },
    );
    if (unbuilt.length > 0) await this.queryRows(`BUILD INDEX ON ${keyspace}(${unbuilt.map(identifier).join(', ')})`);
    await waitFor(
      `the GSI indexes ${names.join(', ')} on ${keyspace} to be online`,
      async () => {
        const states = await this.queryRows<string>(
          'SELECT RAW state FROM system:indexes WHERE bucket_id = $1 AND scope_id = $2 AND keyspace_id = $3 AND name IN $4',
          {
            parameters: [this.config.url.bucket, this.config.scope, collection, names],
          },
        );
        return states.length === names.length && states.every((state) => state === 'online');
      },
      { store: 'couchbase' },
    );
  }

  /** GET on the management REST API (a dialect's statistics); refused when couchbase.management=false. */
  async managementGet(path: string): Promise<unknown> {
    if (!this.config.management) throw new UnsupportedError('management REST call', 'couchbase.management=false');
    return managementRest(this.config, path);
  }
}
