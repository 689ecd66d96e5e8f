/**
 * A scenario file on Couchbase Server 7 (the official `couchbase` SDK 4): documents through the
 * KV service, queries in SQL++ through the query service (couchbase-sqlpp.ts), the file's indexes
 * as GSI indexes.
 *
 *   collections  one Couchbase collection per file collection (`<scenario>_<collection>` in the
 *                configured scope), created with SQL++ DDL and its primary index; the document
 *                key is the document's `_id`, the body the rest
 *   indexes      each declared index as a GSI index (array fields as array indexes), `META().id`
 *                last in the last field's direction (the tie rule every order ends with, so the
 *                index serves the ORDER BY), created deferred and built together with one BUILD
 *                INDEX, then waited for
 *   queries      SQL++, prepared (adhoc=false), request_plus consistency after the load's first
 *                query so every query sees the whole load; plans from EXPLAIN and a profiled run
 *   writes       KV insert, sub-document mutateIn (upsert / remove of the set paths), remove
 *
 * On a cluster or stand-in without SQL++ or DDL rights (`couchbase.query=false`,
 * `couchbase.management=false`, the local CouchbaseMock), documents go to the store's configured
 * collection, keyed `<scenario>_<collection>::<_id>`, through KV as everywhere else, and every
 * query is UNSUPPORTED with that reason: writes, reads and their read-backs still run.
 */
import { DocumentNotFoundError, MutateInSpec, QueryScanConsistency, type Collection as CbCollection } from 'couchbase';
import type { HandleOf } from '../../../src/stores/stores.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { Answer } from '../answers.ts';
import {
  MANIFEST_ID,
  prefixOf,
  refuses,
  runs,
  valueAt,
  type FileDialect,
  type FileDialectContext,
  type FileDialectDefinition,
  type Manifest,
  type Translation,
} from '../dialect.ts';
import type { Doc, Value } from '../generator.ts';
import { indexExpected, type Collection, type Query, type Scenario } from '../model.ts';
import { gsiIndex, sqlppOf } from './couchbase-sqlpp.ts';

export const dialect: FileDialectDefinition<'couchbase'> = {
  store: 'couchbase',
  create: (handle, context) => new CouchbaseFile(handle, context),
};

type Handle = HandleOf<'couchbase'>;
type Params = Readonly<Record<string, Value>>;

class CouchbaseFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  /** Collections of its own (needs SQL++ and management); else the configured one, keys prefixed. */
  private readonly own: boolean;
  private readonly caps: ReturnType<Handle['capabilities']>;
  /** Queries run with request_plus until the first has seen the whole load. */
  private consistent = false;

  constructor(
    private readonly handle: Handle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.caps = handle.capabilities();
    this.own = this.caps.query && this.caps.management;
    const why = !this.caps.query
      ? 'SQL++ is switched off (couchbase.query=false): this cluster or stand-in has no query service'
      : undefined;
    this.translations = new Map(
      [...this.scenario.queries.values()].map((q) => {
        if (why !== undefined) return [q.name, refuses(why)];
        return [
          q.name,
          runs(
            sqlppOf(
              q,
              Object.fromEntries([...q.params.keys()].map((p) => [p, `$${p}`])),
              (c) => this.keyspaceOf(c),
              (c) => this.scenario.collections.get(c)!.info,
            ).statement,
          ),
        ];
      }),
    );
    const indexes = [...this.scenario.collections.values()].flatMap((c) =>
      c.indexes.map((i) => `${c.storeName}(${i.map((f) => f.path).join(', ')})`),
    );
    this.structures = this.own
      ? `Couchbase collections ${[...this.scenario.collections.values()].map((c) => c.storeName).join(', ')} with a primary index each; GSI indexes: ${indexes.join('; ') || 'none declared'}`
      : `the configured collection ${this.caps.scope}.${this.caps.collection}, keys <collection>::<_id>, through KV only (no SQL++ or no management: no GSI index, every query UNSUPPORTED)`;
  }

  private keyspaceOf(collection: string): string {
    return this.handle.keyspace(this.own ? this.scenario.collections.get(collection)!.storeName : this.caps.collection);
  }

  private kv(collection: Collection | string): CbCollection {
    if (!this.own) return this.handle.collection();
    return this.handle.collection(typeof collection === 'string' ? collection : collection.storeName);
  }

  private key(collection: Collection, id: string): string {
    return this.own ? id : `${collection.storeName}::${id}`;
  }

  private manifestKey(): string {
    return `${prefixOf(this.scenario)}::${MANIFEST_ID}`;
  }

  async drop(): Promise<void> {
    if (this.own) {
      for (const c of this.scenario.collections.values())
        await this.handle.queryRows(`DROP COLLECTION ${this.handle.keyspace(c.storeName)} IF EXISTS`);
    } else {
      // No DDL: remove the documents a seed wrote, by key (the store's upsert setting covers the rest).
      for (const c of this.scenario.collections.values()) {
        for (let start = 0; start < c.count; start += 500) {
          const keys = Array.from({ length: Math.min(500, c.count - start) }, (_, i) =>
            this.key(c, c.generator.generate(start + i)._id as string),
          );
          await Promise.all(
            keys.map((k) =>
              this.kv(c)
                .remove(k)
                .catch((e: unknown) => (e instanceof DocumentNotFoundError ? undefined : Promise.reject(e))),
            ),
          );
        }
      }
    }
    await this.handle
      .collection()
      .remove(this.manifestKey())
      .catch((e: unknown) => (e instanceof DocumentNotFoundError ? undefined : Promise.reject(e)));
  }

  async prepare(): Promise<void> {
    if (this.own) for (const c of this.scenario.collections.values()) await this.handle.createCollection(c.storeName);
  }

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    const kv = this.kv(collection);
    await this.handle.writeAll(
      docs.map((d) => ({ collection: kv, key: this.key(collection, String(d._id)), value: bodyOf(d) })),
    );
  }

  async buildIndexes(): Promise<string> {
    if (!this.own) return 'none (no SQL++ or no management on this cluster: no GSI)';
    const built: string[] = [];
    for (const c of this.scenario.collections.values()) {
      const indexes = c.indexes.map((index, i) => {
        const name = `${c.storeName}_${i}_${index.map((f) => f.path.replace(/\W+/g, '_')).join('_')}`;
        return {
          name,
          statement: gsiIndex(
            this.handle.keyspace(c.storeName),
            name,
            index.map((f) => ({ path: f.path, descending: f.descending, arrays: f.resolved.arrays })),
          ),
        };
      });
      if (indexes.length === 0) continue;
      await this.handle.buildDeferredIndexes(this.handle.keyspace(c.storeName), c.storeName, indexes);
      built.push(...indexes.map((i) => i.name));
    }
    return built.length > 0
      ? `GSI (deferred, one BUILD INDEX per collection, waited for online): ${built.join(', ')}`
      : 'no index declared (primary indexes only)';
  }

  private statement(query: Query, params: Params) {
    const translation = this.translations.get(query.name)!;
    if (!translation.supported) throw new UnsupportedError(query.name, translation.reason);
    return sqlppOf(
      query,
      params,
      (c) => this.keyspaceOf(c),
      (c) => this.scenario.collections.get(c)!.info,
    );
  }

  async query(query: Query, params: Params): Promise<Answer> {
    const { statement, parameters } = this.statement(query, params);
    const rows = await this.handle.queryRows<Doc | number>(statement, {
      parameters,
      adhoc: false,
      ...(this.consistent ? {} : { scanConsistency: QueryScanConsistency.RequestPlus }),
    });
    this.consistent = true;
    if (query.kind === 'count') return { kind: 'count', count: Number(rows[0] ?? 0) };
    return { kind: 'rows', rows: rows as Doc[] };
  }

  async explain(query: Query, params: Params): Promise<ScenarioPlan> {
    const { statement, parameters } = this.statement(query, params);
    return {
      ...(await this.handle.explain(statement, parameters)),
      indexExpected: indexExpected(query, this.scenario.collections.get(query.collection)!),
    };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    try {
      const result = await this.kv(collection).get(this.key(collection, id));
      return { _id: id, ...(result.content as Doc) };
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return null;
      throw error;
    }
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.handle.write({
      collection: this.kv(collection),
      key: this.key(collection, String(doc._id)),
      value: bodyOf(doc),
    });
  }

  async update(collection: Collection, before: Doc, after: Doc, paths: readonly string[]): Promise<boolean> {
    // Sub-document mutations: only the set paths travel; a path `after` lacks is removed.
    const specs = paths.map((p) => {
      const value = valueAt(after, p);
      return value === undefined ? MutateInSpec.remove(p) : MutateInSpec.upsert(p, value, { createPath: true });
    });
    try {
      await this.kv(collection).mutateIn(this.key(collection, String(before._id)), specs);
      return true;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      // Removing a path the document does not have is no failure here: the document is as asked.
      if (
        /path.*not.*found|PathNotFound/i.test(String((error as Error).message)) &&
        paths.every((p) => valueAt(before, p) === undefined || valueAt(after, p) !== undefined)
      )
        return true;
      throw error;
    }
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    try {
      await this.kv(collection).remove(this.key(collection, String(before._id)));
      return true;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      throw error;
    }
  }

  async readManifest(): Promise<Manifest | null> {
    try {
      return (await this.handle.collection().get(this.manifestKey())).content as Manifest;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return null;
      throw error;
    }
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.handle.collection().upsert(this.manifestKey(), manifest);
  }
}

/** The stored body: the document without `_id`, which is its key. */
function bodyOf(doc: Doc): Doc {
  const { _id, ...body } = doc;
  return body;
}
