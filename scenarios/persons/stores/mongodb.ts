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
 * as in the thesis. With indexes: a compound index per query, in MongoDB's equality-sort-range
 * order (the value condition first, then salary and age), built after the load with one
 * `createIndexes` command (which returns when the indexes are built; an index on an array field
 * is multikey by itself):
 *   {salary, age}                     Q1 (its prefix) and Q2
 *   {salary, age, fax} partial on fax Q3: only the persons who have a fax are in it
 *   {pet, salary, age}                Q4
 *   {jedi power, salary, age}         Q5 ($in: two equality ranges)
 * MongoDB's planner picks among them; the recorded plan (explain) shows which it used and how
 * many keys and documents it examined.
 *
 * Size: `$collStats` storageSize (the collection's data on disk) + totalIndexSize, taken after the
 * load and before any secondary index exists, so the index part is the `_id` index alone, the
 * primary key every document store keeps. Compaction: the `compact` command on the collection
 * (with `force`, which a replica set's primary requires); a server without it is reported as
 * UNSUPPORTED, never faked.
 */
import { MongoServerError, type Collection, type Document, type Filter } from 'mongodb';
import { mongoPlan } from '../../../src/stores/mongodb/explain.ts';
import type { MongodbHandle } from '../../../src/stores/mongodb/handle.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type {
  Compactor,
  DialectContext,
  DiskSize,
  IndexBuilder,
  PersonsDialect,
  QueryExplainer,
  QueryVariant,
  PersonsDialectDefinition,
} from '../dialect.ts';
import type { Person, PersonRecord } from '../model.ts';
import { indexGroups, QUERIES, type Condition, type PersonsQuery } from '../queries.ts';

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
  if (c.kind === 'range')
    return { ...(c.above !== undefined ? { $gt: c.above } : {}), ...(c.below !== undefined ? { $lt: c.below } : {}) };
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

export interface IndexSpec {
  key: Record<string, 1>;
  name: string;
  partialFilterExpression?: Record<string, unknown>;
}

/**
 * One compound index per query, equality-sort-range: value conditions first, then the ranges,
 * then an existence condition as the last key of a partial index holding only the documents
 * that have the field. An index whose key is the prefix of another's is left out (that one
 * serves its query too).
 */
export function indexSpecs(): IndexSpec[] {
  const specs = QUERIES.map((q): IndexSpec => {
    const { anyOf, ranges, exists } = indexGroups(q);
    const fields = [...anyOf, ...ranges, ...exists].map((c) => c.field);
    const partial = exists.length > 0 ? Object.fromEntries(exists.map((c) => [c.field, { $exists: true }])) : undefined;
    return {
      key: Object.fromEntries(fields.map((f) => [f, 1 as const])),
      name: `persons_${fields.map((f) => f.replace(/[^A-Za-z0-9]+/g, '_')).join('_')}`,
      ...(partial ? { partialFilterExpression: partial } : {}),
    };
  });
  const keyOf = (s: IndexSpec) => Object.keys(s.key);
  const isPrefix = (a: string[], b: string[]) => a.length < b.length && a.every((f, i) => b[i] === f);
  return specs.filter(
    (s, i) =>
      !specs.some(
        (other, j) =>
          j !== i && !s.partialFilterExpression && !other.partialFilterExpression && isPrefix(keyOf(s), keyOf(other)),
      ),
  );
}

class MongodbPersons implements PersonsDialect, IndexBuilder, Compactor, QueryExplainer {
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
          ? 'find(filter) with the cursor drained; a compound index per query (equality, then ranges; a partial index for "has a fax"), chosen by the query planner'
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
    if (result.insertedCount !== records.length)
      throw new Error(`insertMany stored ${result.insertedCount} of ${records.length} documents`);
  }

  async insertOne(record: PersonRecord): Promise<void> {
    await this.persons.insertOne({ _id: record.id, ...record.person });
  }

  async buildIndexes(): Promise<string> {
    const specs = indexSpecs();
    await this.persons.createIndexes(specs);
    const describe = (s: IndexSpec) =>
      `{${Object.keys(s.key).join(', ')}}${s.partialFilterExpression ? ` partial on ${Object.keys(s.partialFilterExpression).join(', ')}` : ''}`;
    return `compound indexes ${specs.map(describe).join(', ')} (multikey where a field is an array), one createIndexes command`;
  }

  async explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan> {
    if (variant !== 'find') throw new Error(`mongodb: unknown variant "${variant}"`);
    const explained = await this.persons.find(mongoFilter(query)).explain('executionStats');
    return { ...mongoPlan(explained), indexExpected: this.context.indexes };
  }

  async query(variant: string, query: PersonsQuery): Promise<PersonRecord[]> {
    if (variant !== 'find') throw new Error(`mongodb: unknown variant "${variant}"`);
    const records: PersonRecord[] = [];
    // Every document is fetched whole and the cursor iterated to its end (getMore after getMore).
    for await (const { _id, ...person } of this.persons.find(mongoFilter(query)))
      records.push({ id: _id, person: person as Person });
    return records;
  }

  async sizeOnDisk(): Promise<DiskSize> {
    const { storageSize: storage, totalIndexSize: index } = await this.handle.collectionSizes(this.context.collection);
    if (storage === undefined)
      return { method: `the server reported no storageSize for ${this.context.collection} (collStats)` };
    if (index === undefined)
      return { bytes: storage, method: 'collStats storageSize (the server reported no index size)' };
    return {
      bytes: storage + index,
      method: 'collStats storageSize + totalIndexSize (the _id index; taken before any secondary index)',
    };
  }

  async compact(): Promise<DiskSize> {
    try {
      // force: a replica set's primary (Atlas, and a one-member set) refuses compact without it;
      // since MongoDB 4.4 compact does not block reads and writes.
      await this.handle.db.command({ compact: this.context.collection, force: true });
    } catch (error) {
      if (
        error instanceof MongoServerError &&
        (error.code === COMMAND_NOT_FOUND ||
          error.code === COMMAND_NOT_SUPPORTED ||
          /no such (command|cmd)/i.test(error.message))
      ) {
        throw new UnsupportedError('COMPACT', `the server has no compact command (${error.message})`);
      }
      throw error;
    }
    const size = await this.sizeOnDisk();
    return size.bytes === undefined
      ? size
      : { bytes: size.bytes, method: 'collStats storageSize + totalIndexSize after the compact command (force: true)' };
  }
}
