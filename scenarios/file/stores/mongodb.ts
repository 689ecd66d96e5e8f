/**
 * A scenario file on MongoDB (the official `mongodb` driver): the file's own language, so every
 * query runs as it is written.
 *
 *   collections  one collection per file collection, `<scenario>_<collection>`, `_id` the document's id
 *   indexes      each declared index as `createIndex({ field: 1 | -1, …, _id })` after the load,
 *                `_id` last in the last field's direction: every order ends with `_id` (the tie
 *                rule), and an index without it serves the sort only through a blocking SORT of
 *                every entry the filter's range holds, not by reading the first `limit` entries
 *   find         `find(filter, { sort: { …keys, _id }, skip, limit, projection })`
 *   join         `aggregate([$match, $sort, $skip, $limit, $lookup (localField → _id, its
 *                pipeline projecting the joined fields), $unwind (keeping rows without a match),
 *                $project])`
 *   group        `aggregate([$match, $group: { _id: "$by", count: { $sum: 1 }, sum: { $sum: "$field" } }])`
 *   count        `countDocuments(filter)`
 *   writes       insertOne, updateOne with $set / $unset, deleteOne; the seed insertMany (unordered)
 *   plans        explain("executionStats") of the same command
 *
 * Nothing is refused: this is the language the file is written in.
 */
import type { Collection as MongoCollection, Document } from 'mongodb';
import type { MongodbHandle } from '../../../src/stores/mongodb/handle.ts';
import { mongoPlan } from '../../../src/stores/mongodb/explain.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { Answer } from '../answers.ts';
import {
  MANIFEST_ID,
  prefixOf,
  runs,
  valueAt,
  type FileDialect,
  type FileDialectContext,
  type FileDialectDefinition,
  type Manifest,
  type Translation,
} from '../dialect.ts';
import { bindFilter } from '../filter.ts';
import type { Doc, Value } from '../generator.ts';
import {
  indexExpected as expectIndex,
  type Collection,
  type FindQuery,
  type IndexField,
  type Query,
  type Scenario,
} from '../model.ts';

export const dialect: FileDialectDefinition<'mongodb'> = {
  store: 'mongodb',
  create: (handle, context) => new MongodbFile(handle, context),
};

type Params = Readonly<Record<string, Value>>;

class MongodbFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  private readonly manifestName: string;

  constructor(
    private readonly handle: MongodbHandle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.manifestName = `${prefixOf(this.scenario)}__manifest`;
    this.translations = new Map([...this.scenario.queries.values()].map((q) => [q.name, runs(this.describe(q))]));
    const indexes = [...this.scenario.collections.values()].flatMap((c) =>
      c.indexes.map(
        (i) =>
          `${c.storeName} {${Object.entries(keyPattern(i))
            .map(([path, dir]) => `${path}: ${dir}`)
            .join(', ')}}`,
      ),
    );
    this.structures = `MongoDB indexes: ${indexes.join('; ') || 'none declared (only _id)'}`;
  }

  private describe(q: Query): string {
    const name = this.scenario.collections.get(q.collection)!.storeName;
    if (q.kind === 'count') return `${name}.countDocuments(${JSON.stringify(q.filter)})`;
    if (q.kind === 'group')
      return `${name}.aggregate([$match, $group by ${q.by.path}${q.sum ? ` summing ${q.sum.path}` : ''}])`;
    const options = [
      q.order.length > 0 ? `sort ${q.order.map((k) => `${k.path}: ${k.descending ? -1 : 1}`).join(', ')}` : '',
      q.skip ? `skip ${q.skip}` : '',
      q.limit ? `limit ${q.limit}` : '',
      q.project ? `projection ${q.project.join(', ')}` : '',
    ].filter(Boolean);
    return q.join
      ? `${name}.aggregate([$match, ${options.join(', ')}, $lookup ${q.join.from} on ${q.join.on.path}, $unwind])`
      : `${name}.find(${JSON.stringify(q.filter)}${options.length > 0 ? `, ${options.join(', ')}` : ''})`;
  }

  private collection(c: Collection | string): MongoCollection<Document> {
    return this.handle.collection(typeof c === 'string' ? c : c.storeName);
  }

  async drop(): Promise<void> {
    for (const c of this.scenario.collections.values()) await this.handle.dropCollection(c.storeName);
    await this.handle.dropCollection(this.manifestName);
  }

  async prepare(): Promise<void> {
    for (const c of this.scenario.collections.values()) await this.handle.createCollection(c.storeName);
  }

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    // Copies: the driver adds nothing to documents that carry their _id, but the caller's stay untouched anyway.
    await this.collection(collection).insertMany(docs.map((d) => ({ ...d })) as Document[], { ordered: false });
  }

  async buildIndexes(): Promise<string> {
    const built: string[] = [];
    for (const c of this.scenario.collections.values()) {
      for (const index of c.indexes) {
        const name = await this.collection(c).createIndex(keyPattern(index));
        built.push(`${c.storeName}.${name}`);
      }
    }
    return built.length > 0 ? `createIndex: ${built.join(', ')}` : 'no index declared';
  }

  /** The aggregation pipeline of a join. */
  private joinPipeline(q: FindQuery, params: Params): Document[] {
    const join = q.join!;
    const from = this.scenario.collections.get(join.from)!.storeName;
    const pipeline: Document[] = [{ $match: bindFilter(q.filter, params) }];
    if (q.order.length > 0) pipeline.push({ $sort: sortOf(q) });
    if (q.skip > 0) pipeline.push({ $skip: q.skip });
    if (q.limit !== undefined) pipeline.push({ $limit: q.limit });
    const lookup: Document = { from, localField: join.on.path, foreignField: '_id', as: join.as };
    if (join.project) lookup.pipeline = [{ $project: Object.fromEntries(join.project.map((p) => [p, 1])) }];
    pipeline.push({ $lookup: lookup }, { $unwind: { path: `$${join.as}`, preserveNullAndEmptyArrays: true } });
    if (q.project) pipeline.push({ $project: Object.fromEntries([...q.project, join.as].map((p) => [p, 1])) });
    return pipeline;
  }

  private groupPipeline(q: Extract<Query, { kind: 'group' }>, params: Params): Document[] {
    const group: Document = { _id: `$${q.by.path}`, count: { $sum: 1 } };
    if (q.sum) group.sum = { $sum: `$${q.sum.path}` };
    return [{ $match: bindFilter(q.filter, params) }, { $group: group }];
  }

  async query(q: Query, params: Params): Promise<Answer> {
    const coll = this.collection(this.scenario.collections.get(q.collection)!);
    if (q.kind === 'count')
      return { kind: 'count', count: await coll.countDocuments(bindFilter(q.filter, params) as Document) };
    if (q.kind === 'group')
      return { kind: 'rows', rows: (await coll.aggregate(this.groupPipeline(q, params)).toArray()) as Doc[] };
    if (q.join) return { kind: 'rows', rows: (await coll.aggregate(this.joinPipeline(q, params)).toArray()) as Doc[] };
    return {
      kind: 'rows',
      rows: (await coll.find(bindFilter(q.filter, params) as Document, findOptions(q)).toArray()) as Doc[],
    };
  }

  async explain(q: Query, params: Params): Promise<ScenarioPlan> {
    const coll = this.collection(this.scenario.collections.get(q.collection)!);
    const indexExpected = expectIndex(q, this.scenario.collections.get(q.collection)!);
    if (q.kind === 'count') {
      // countDocuments is an aggregation ($match, $group): explained as one.
      const explained = await coll
        .aggregate([{ $match: bindFilter(q.filter, params) }, { $count: 'n' }])
        .explain('executionStats');
      return { ...mongoPlan(explained), indexExpected };
    }
    if (q.kind === 'group' || q.join) {
      const pipeline = q.kind === 'group' ? this.groupPipeline(q, params) : this.joinPipeline(q, params);
      const returned = (await coll.aggregate(pipeline).toArray()).length;
      return { ...mongoPlan(await coll.aggregate(pipeline).explain('executionStats'), returned), indexExpected };
    }
    return {
      ...mongoPlan(await coll.find(bindFilter(q.filter, params) as Document, findOptions(q)).explain('executionStats')),
      indexExpected,
    };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    return (await this.collection(collection).findOne({ _id: id as never })) as Doc | null;
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.collection(collection).insertOne({ ...doc } as Document);
  }

  async update(collection: Collection, before: Doc, after: Doc, paths: readonly string[]): Promise<boolean> {
    const set: Document = {};
    const unset: Document = {};
    for (const p of paths) {
      const value = valueAt(after, p);
      if (value === undefined) unset[p] = '';
      else set[p] = value;
    }
    const update: Document = {};
    if (Object.keys(set).length > 0) update.$set = set;
    if (Object.keys(unset).length > 0) update.$unset = unset;
    const result = await this.collection(collection).updateOne({ _id: before._id as never }, update);
    return result.matchedCount === 1;
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    return (await this.collection(collection).deleteOne({ _id: before._id as never })).deletedCount === 1;
  }

  async readManifest(): Promise<Manifest | null> {
    const doc = await this.handle.collection(this.manifestName).findOne({ _id: MANIFEST_ID as never });
    if (doc === null) return null;
    const { _id, ...manifest } = doc;
    return manifest as unknown as Manifest;
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.handle
      .collection(this.manifestName)
      .replaceOne({ _id: MANIFEST_ID as never }, { ...manifest }, { upsert: true });
  }
}

/** A declared index's key pattern, `_id` last in the direction of the last field (unless the index has it). */
function keyPattern(index: readonly IndexField[]): Record<string, 1 | -1> {
  const pattern = Object.fromEntries(index.map((f) => [f.path, f.descending ? -1 : 1] as const));
  if (!('_id' in pattern)) pattern._id = index.at(-1)!.descending ? -1 : 1;
  return pattern;
}

function sortOf(q: FindQuery): Document {
  return Object.fromEntries(q.order.map((k) => [k.path, k.descending ? -1 : 1]));
}

function findOptions(q: FindQuery): Document {
  const options: Document = {};
  if (q.order.length > 0) options.sort = sortOf(q);
  if (q.skip > 0) options.skip = q.skip;
  if (q.limit !== undefined) options.limit = q.limit;
  if (q.project) options.projection = Object.fromEntries(q.project.map((p) => [p, 1]));
  return options;
}
