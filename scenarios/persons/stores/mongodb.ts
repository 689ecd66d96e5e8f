/**
 * Persons on MongoDB (the official `mongodb` driver), as the thesis's mongoBench.py did it and as
 * a MongoDB user writes it today: one document per person in a collection of the store's
 * database (`persons`, `persons_nested`), `_id` = the person's id, loaded with unordered
 * `insertMany`, every query a `find` whose cursor is drained to the last document (the thesis
 * found its first timings meaningless because it never iterated the cursor).
 *
 * The filter is built from the query definitions, and is the same for both shapes: MongoDB
 * matches `{pet: "Penguin"}` against a string and against every element of an array, and `$in`
 * likewise, so nested documents need no other operator. Conditions:
 *   range   {salary: {$gt: 18500, $lt: 35000}}
 *   exists  {fax: {$exists: true}}
 *   anyOf   {pet: "Penguin"}, {"jedi power": {$in: ["Force Choke", "Force Insanity"]}}
 * Field names come from the model (`jedi power` with its space), so the thesis's `jedi_power`
 * (a field no document has; the query matched nothing) cannot be typed here by hand.
 *
 * Without indexes (`find`): no index but `_id`, so every query is a collection scan (COLLSCAN),
 * as in the thesis. With indexes: one single-field index per queried field, built after the load
 * with one `createIndexes` command (which returns when the indexes are built; an index on an
 * array field is multikey by itself); MongoDB's planner picks among them.
 *
 * Size: `$collStats` storageSize (the collection's data on disk) + totalIndexSize, taken after the
 * load and before any secondary index exists, so the index part is the `_id` index alone, the
 * primary key every document store keeps. Compaction: the `compact` command on the collection
 * (with `force`, which a replica set's primary requires); a server without it is reported as
 * UNSUPPORTED, never faked.
 */
import { MongoServerError, type Collection, type Document, type Filter } from 'mongodb';
import type { MongodbHandle } from '../../../src/stores/mongodb/handle.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { Compactor, DialectContext, DiskSize, IndexBuilder, PersonsDialect, QueryVariant, PersonsDialectDefinition } from '../dialect.ts';
import type { PersonRecord } from '../model.ts';
import { queriedFields, type Condition, type PersonsQuery } from '../queries.ts';

type PersonDocument = Document & { _id: string };

/** MongoDB's error codes that mean "this server has no such command". */
const COMMAND_NOT_FOUND = 59;
const COMMAND_NOT_SUPPORTED = 115;

export const dialect: PersonsDialectDefinition<'mongodb'> = {
  store: 'mongodb',
  create: (handle, context) => new MongodbPersons(handle, context),
};

/** The filter operators of one condition (the same for a flat value and an array of values). */
function operators(c: Condition): unknown {
  if (c.kind === 'range') return { ...(c.above !== undefined ? { $gt: c.above } : {}), ...(c.below !== undefined ? { $lt: c.below } : {}) };
  if (c.kind === 'exists') return { $exists: true };
  return c.values.length === 1 ? c.values[0] : { $in: [...c.values] };
}

/** The `find` filter of a query; two conditions on one field are an error, never silently merged. */
export function mongoFilter(query: PersonsQuery): Filter<PersonDocument> {
  const filter: Record<string, unknown> = {};
  for (const c of query.where) {
    if (c.field in filter) throw new Error(`${query.id}: two conditions on ${c.field}`);
    filter[c.field] = operators(c);
  }
  return filter as Filter<PersonDocument>;
}

/** The index key of each queried field, one single-field ascending index each. */
export function indexSpecs(): { key: Record<string, 1>; name: string }[] {
  return queriedFields().map((c) => ({ key: { [c.field]: 1 }, name: `persons_${c.field.replace(/[^A-Za-z0-9]+/g, '_')}` }));
}

class MongodbPersons implements PersonsDialect, IndexBuilder, Compactor {
  readonly variants: readonly QueryVariant[];
  private readonly persons: Collection<PersonDocument>;

  constructor(
    private readonly handle: MongodbHandle,
    private readonly context: DialectContext,
  ) {
    this.persons = handle.collection<PersonDocument>(context.collection);
    this.variants = [
      {
        name: 'find',
        description: context.indexes
          ? 'find(filter) with the cursor drained; a single-field index on each queried field, chosen by the query planner'
          : 'find(filter) with the cursor drained; no index but _id, so a collection scan (as in the thesis)',
      },
    ];
  }

  async drop(): Promise<void> {
    await this.handle.dropCollection(this.context.collection);
  }

  async prepare(): Promise<void> {
    await this.handle.createCollection(this.context.collection);
  }

  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    if (records.length === 0) return;
    const result = await this.persons.insertMany(
      records.map((r) => ({ _id: r.id, ...r.person })),
      { ordered: false },
    );
    if (result.insertedCount !== records.length) throw new Error(`insertMany stored ${result.insertedCount} of ${records.length} documents`);
  }

  async buildIndexes(): Promise<string> {
    const specs = indexSpecs();
    await this.persons.createIndexes(specs);
    return `single-field indexes on ${specs.map((s) => Object.keys(s.key)[0]).join(', ')} (multikey where the field is an array), one createIndexes command`;
  }

  async query(variant: string, query: PersonsQuery): Promise<string[]> {
    if (variant !== 'find') throw new Error(`mongodb: unknown variant "${variant}"`);
    const ids: string[] = [];
    // Every document is fetched whole and the cursor iterated to its end (getMore after getMore).
    for await (const doc of this.persons.find(mongoFilter(query))) ids.push(doc._id);
    return ids;
  }

  async sizeOnDisk(): Promise<DiskSize> {
    const { storageSize: storage, totalIndexSize: index } = await this.handle.collectionSizes(this.context.collection);
    if (storage === undefined) return { method: `the server reported no storageSize for ${this.context.collection} (collStats)` };
    if (index === undefined) return { bytes: storage, method: 'collStats storageSize (the server reported no index size)' };
    return { bytes: storage + index, method: 'collStats storageSize + totalIndexSize (the _id index; taken before any secondary index)' };
  }

  async compact(): Promise<DiskSize> {
    try {
      // force: a replica set's primary (Atlas, and a one-member set) refuses compact without it;
      // since MongoDB 4.4 compact does not block reads and writes.
      await this.handle.db.command({ compact: this.context.collection, force: true });
    } catch (error) {
      if (error instanceof MongoServerError && ((error.code === COMMAND_NOT_FOUND || error.code === COMMAND_NOT_SUPPORTED) || /no such (command|cmd)/i.test(error.message))) {
        throw new UnsupportedError('COMPACT', `the server has no compact command (${error.message})`);
      }
      throw error;
    }
    const size = await this.sizeOnDisk();
    return size.bytes === undefined ? size : { bytes: size.bytes, method: 'collStats storageSize + totalIndexSize after the compact command (force: true)' };
  }
}
