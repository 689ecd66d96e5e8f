/**
 * Persons on Redis, as a Redis user writes it without modules: one hash per person, and the
 * application maintains its own secondary indexes, because core Redis has no query language.
 *
 * Data: `persons:<id>` is a hash of the document's fields; numbers as decimal strings, and in
 * the nested shape each array as a JSON string (a hash holds strings only).
 *
 * Without indexes (`scan`): SCAN over the collection's keys, every hash fetched (HGETALL,
 * pipelined) and filtered in the client with the scenario's own predicate: the only way to
 * query Redis with no index, and the full-collection work the thesis's unindexed stores did.
 * SCAN may return a key twice, so keys are de-duplicated.
 *
 * With indexes (`index-sets`), written in the same MULTI as the document, so a document never
 * exists without its index entries:
 *   persons#salary, persons#age        sorted sets scored by the value (range conditions)
 *   persons#has:fax                    set of ids that have the field (exists conditions)
 *   persons#pet=Penguin, …             one set per value (value conditions; every element of an array)
 * A query runs server-side in one MULTI: ZRANGESTORE the salary range into a temporary sorted
 * set; for age, ZINTERSTORE with WEIGHTS 0 1 (the score becomes the age) and ZREMRANGEBYSCORE
 * the ages outside the range; for a set condition, ZINTERSTORE with WEIGHTS 1 0 (SUNIONSTORE
 * first when several values qualify); then ZRANGE the ids and UNLINK the temporaries. The
 * matching hashes are then fetched (pipelined HGETALL), as a page of results would be.
 * Which keys exist is derived from the query definitions, not listed here.
 *
 * Plans: Redis has no planner, so the plan is the structures the dialect reads and their sizes:
 * for `scan` every document key (SCAN) and hash; for `index-sets` the members of each index
 * structure in the query's range (ZCOUNT, SCARD), an upper bound of what the intersection reads,
 * and only the matching hashes.
 *
 * On a Redis Cluster the documents spread over the masters by their keys, and the index sets of
 * a collection share one slot through a hash tag (`{persons}#salary`, …): a server-side
 * intersection (ZINTERSTORE and the rest) needs every key it reads in one slot, so the indexes,
 * and the temporaries made from them, live on one master. A document and its index entries can
 * then no longer be written in one MULTI: the document is written first, then its index entries
 * in one MULTI on the index slot, so a query never meets an id whose document was not written
 * yet (an answer fetches the documents by id in any case).
 *
 * Size: what the keys add to an RDB snapshot, measured as the DUMP payload of every key (in a
 * Lua script, so the binary payload never crosses the wire). Redis holds the dataset in memory;
 * the snapshot is rewritten whole on every save, so there is no compaction to run.
 */
import { randomUUID } from 'node:crypto';
import type { RedisHandle } from '../../../src/stores/redis/handle.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  DialectContext,
  DiskSize,
  PersonsDialect,
  QueryExplainer,
  QueryVariant,
  PersonsDialectDefinition,
} from '../dialect.ts';
import { OPTIONAL_FIELDS, type Person, type PersonRecord } from '../model.ts';
import { matches, queriedFields, type Condition, type PersonsQuery } from '../queries.ts';

/** Hashes fetched per pipeline. */
const CHUNK = 1000;

/** Sum of DUMP payload sizes (minus DUMP's 10-byte envelope) plus key names, for KEYS. */
const RDB_BYTES_SCRIPT = `local n = 0
for _, k in ipairs(KEYS) do
  local d = redis.call('DUMP', k)
  if d then n = n + string.len(d) - 10 + string.len(k) end
end
return n`;

export const dialect: PersonsDialectDefinition<'redis'> = {
  store: 'redis',
  create: (handle, context) => new RedisPersons(handle, context),
};

/** Key names, all under the collection's prefix so drop can find them. */
class Keys {
  /** What index keys start with: the collection, hash-tagged on a cluster so they share one slot. */
  private readonly base: string;

  constructor(
    private readonly collection: string,
    cluster: boolean,
  ) {
    this.base = cluster ? `{${collection}}` : collection;
  }
  document(id: string): string {
    return `${this.collection}:${id}`;
  }
  /** Glob matching every document key (and nothing else: index keys use '#'). */
  documents(): string {
    return `${this.collection}:*`;
  }
  /** Glob matching every index and temporary key. */
  indexes(): string {
    return `${this.base}#*`;
  }
  sorted(field: string): string {
    return `${this.base}#${field}`;
  }
  present(field: string): string {
    return `${this.base}#has:${field}`;
  }
  valued(field: string, value: string): string {
    return `${this.base}#${field}=${value}`;
  }
  temporary(): string {
    return `${this.base}#query:${randomUUID()}`;
  }
  idOf(key: string): string {
    return key.slice(this.collection.length + 1);
  }
}

function encode(person: Person): string[] {
  const fields: string[] = [];
  for (const [name, value] of Object.entries(person)) {
    fields.push(name, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  return fields;
}

function decode(pairs: readonly string[], nested: boolean): Person {
  const doc: Record<string, unknown> = {};
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!;
    const value = pairs[i + 1]!;
    if (name === 'salary' || name === 'age') doc[name] = Number(value);
    else if (nested && (OPTIONAL_FIELDS as readonly string[]).includes(name)) doc[name] = JSON.parse(value);
    else doc[name] = value;
  }
  return doc as unknown as Person;
}

const lowerBound = (above: number | undefined) => (above === undefined ? '-inf' : `(${above}`);
const upperBound = (below: number | undefined) => (below === undefined ? '+inf' : `(${below}`);

/** Where a Redis plan's evidence comes from. */
const PLAN_SOURCE =
  'Redis has no query planner: the structures the dialect reads, with their sizes (SCAN, ZCOUNT, SCARD)';

class RedisPersons implements PersonsDialect, QueryExplainer {
  readonly variants: readonly QueryVariant[];
  readonly noCompaction = 'none: Redis holds the data in memory and rewrites the whole snapshot on every save';
  private readonly keys: Keys;
  private readonly indexed: Condition[];

  constructor(
    private readonly redis: RedisHandle,
    private readonly context: DialectContext,
  ) {
    this.keys = new Keys(context.collection, redis.isCluster);
    this.indexed = queriedFields();
    this.variants = context.indexes
      ? [
          {
            name: 'index-sets',
            description:
              'application-maintained sorted sets and sets, intersected server-side in one MULTI; matching hashes fetched with pipelined HGETALL',
          },
        ]
      : [
          {
            name: 'scan',
            description:
              'SCAN every document key, pipelined HGETALL, filtered in the client (core Redis has no query language)',
          },
        ];
  }

  async drop(): Promise<void> {
    for (const pattern of [this.keys.documents(), this.keys.indexes()]) await this.redis.unlinkMatching(pattern);
  }

  async prepare(): Promise<void> {
    // Hashes and sets appear with the first write.
  }

  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    const commands: string[][] = records.map((r) => ['HSET', this.keys.document(r.id), ...encode(r.person)]);
    if (!this.context.indexes) {
      await this.redis.pipeline(commands);
      return;
    }
    if (this.redis.isCluster) {
      // Documents first (each to its own slot), then their index entries in one MULTI on the index slot.
      await this.redis.pipeline(commands);
      await this.redis.transaction(this.indexCommands(records));
      return;
    }
    commands.push(...this.indexCommands(records));
    await this.redis.transaction(commands);
  }

  /** One HSET; with index sets, the HSET and the document's own ZADD / SADD in one MULTI (on a cluster: the HSET, then the MULTI). */
  async insertOne(record: PersonRecord): Promise<void> {
    const write = ['HSET', this.keys.document(record.id), ...encode(record.person)];
    if (!this.context.indexes) await this.redis.call(write);
    else if (this.redis.isCluster) {
      await this.redis.call(write);
      await this.redis.transaction(this.indexCommands([record]));
    } else await this.redis.transaction([write, ...this.indexCommands([record])]);
  }

  /** One ZADD / SADD per index key for the whole batch. */
  private indexCommands(records: readonly PersonRecord[]): string[][] {
    const members = new Map<string, { sorted: boolean; args: string[] }>();
    const add = (key: string, sorted: boolean, ...args: string[]) => {
      let entry = members.get(key);
      if (!entry) members.set(key, (entry = { sorted, args: [] }));
      entry.args.push(...args);
    };
    for (const { id, person } of records) {
      const doc = person as unknown as Record<string, unknown>;
      for (const c of this.indexed) {
        const value = doc[c.field];
        if (value === undefined) continue;
        if (c.kind === 'range') add(this.keys.sorted(c.field), true, String(value), id);
        else if (c.kind === 'exists') add(this.keys.present(c.field), false, id);
        else
          for (const v of new Set(Array.isArray(value) ? value : [value]))
            add(this.keys.valued(c.field, String(v)), false, id);
      }
    }
    return [...members].map(([key, { sorted, args }]) => [sorted ? 'ZADD' : 'SADD', key, ...args]);
  }

  async query(variant: string, query: PersonsQuery): Promise<PersonRecord[]> {
    if (variant === 'scan') return this.scanQuery(query);
    if (variant === 'index-sets') return this.fetchExisting(await this.indexQuery(query));
    throw new Error(`redis: unknown variant "${variant}"`);
  }

  private async scanQuery(query: PersonsQuery): Promise<PersonRecord[]> {
    const nested = this.context.shape === 'nested';
    const records: PersonRecord[] = [];
    for await (const keys of this.redis.scanKeys(this.keys.documents(), { distinct: true })) {
      const replies = (await this.redis.pipeline(keys.map((k) => ['HGETALL', k]))) as string[][];
      for (let i = 0; i < keys.length; i++) {
        const pairs = replies[i]!;
        if (pairs.length === 0) continue;
        const person = decode(pairs, nested);
        if (matches(query, person)) records.push({ id: this.keys.idOf(keys[i]!), person });
      }
    }
    return records;
  }

  /** The ids the index sets say match, computed server-side in one MULTI. */
  private async indexQuery(query: PersonsQuery): Promise<string[]> {
    const result = this.keys.temporary();
    const union = `${result}:any`;
    const commands: string[][] = [];
    query.where.forEach((c, i) => commands.push(...this.step(c, i === 0, result, union)));
    commands.push(['ZRANGE', result, '0', '-1'], ['UNLINK', result, union]);
    const replies = await this.redis.transaction(commands);
    return replies[replies.length - 2] as string[];
  }

  /** Commands narrowing the temporary sorted set `result` by one condition. */
  private step(c: Condition, first: boolean, result: string, union: string): string[][] {
    if (c.kind === 'range') {
      const index = this.keys.sorted(c.field);
      if (first) return [['ZRANGESTORE', result, index, lowerBound(c.above), upperBound(c.below), 'BYSCORE']];
      const narrow: string[][] = [['ZINTERSTORE', result, '2', result, index, 'WEIGHTS', '0', '1']];
      if (c.above !== undefined) narrow.push(['ZREMRANGEBYSCORE', result, '-inf', String(c.above)]);
      if (c.below !== undefined) narrow.push(['ZREMRANGEBYSCORE', result, String(c.below), '+inf']);
      return narrow;
    }
    const sets = c.kind === 'exists' ? [this.keys.present(c.field)] : c.values.map((v) => this.keys.valued(c.field, v));
    if (first) return [['ZUNIONSTORE', result, String(sets.length), ...sets]];
    if (sets.length === 1) return [['ZINTERSTORE', result, '2', result, sets[0]!, 'WEIGHTS', '1', '0']];
    return [
      ['SUNIONSTORE', union, ...sets],
      ['ZINTERSTORE', result, '2', result, union, 'WEIGHTS', '1', '0'],
    ];
  }

  async explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan> {
    if (variant === 'scan') {
      let keys = 0;
      for await (const batch of this.redis.scanKeys(this.keys.documents(), { distinct: true })) keys += batch.length;
      const returned = (await this.scanQuery(query)).length;
      return {
        access: 'scan',
        used: [],
        keysExamined: keys,
        documentsExamined: keys,
        returned,
        warnings: [],
        indexExpected: false,
        source: PLAN_SOURCE,
        raw: `SCAN MATCH ${this.keys.documents()}: ${keys} keys, each HGETALL and filtered in the client`,
      };
    }
    if (variant !== 'index-sets') throw new Error(`redis: unknown variant "${variant}"`);
    const reads: { key: string; members: number; how: string }[] = [];
    for (const c of query.where) {
      if (c.kind === 'range') {
        const key = this.keys.sorted(c.field);
        const members = Number(await this.redis.call(['ZCOUNT', key, lowerBound(c.above), upperBound(c.below)]));
        reads.push({ key, members, how: `ZCOUNT ${lowerBound(c.above)} ${upperBound(c.below)}` });
      } else {
        const keys =
          c.kind === 'exists' ? [this.keys.present(c.field)] : c.values.map((v) => this.keys.valued(c.field, v));
        for (const key of keys)
          reads.push({ key, members: Number(await this.redis.call(['SCARD', key])), how: 'SCARD' });
      }
    }
    const returned = (await this.fetchExisting(await this.indexQuery(query))).length;
    return {
      access: 'index',
      used: reads.map((r) => r.key),
      keysExamined: reads.reduce((sum, r) => sum + r.members, 0),
      documentsExamined: returned,
      returned,
      warnings: [],
      indexExpected: true,
      source: PLAN_SOURCE,
      raw: `${reads.map((r) => `${r.how} ${r.key} = ${r.members}`).join('\n')}\nintersected server-side in one MULTI; ${returned} matching hashes fetched`,
    };
  }

  /** Fetch the documents (the answer a user reads), keeping the ids whose hash exists. */
  private async fetchExisting(ids: readonly string[]): Promise<PersonRecord[]> {
    const nested = this.context.shape === 'nested';
    const found: PersonRecord[] = [];
    for (let start = 0; start < ids.length; start += CHUNK) {
      const chunk = ids.slice(start, start + CHUNK);
      const replies = (await this.redis.pipeline(chunk.map((id) => ['HGETALL', this.keys.document(id)]))) as string[][];
      for (let i = 0; i < chunk.length; i++)
        if (replies[i]!.length > 0) found.push({ id: chunk[i]!, person: decode(replies[i]!, nested) });
    }
    return found;
  }

  async sizeOnDisk(): Promise<DiskSize> {
    let bytes = 0;
    for await (const keys of this.redis.scanKeys(this.keys.documents(), { distinct: true })) {
      // A script's keys must share a slot on a cluster: there each key is measured by its own call.
      const batches = this.redis.isCluster ? keys.map((k) => [k]) : [keys];
      const sizes = await this.redis.pipeline(
        batches.map((batch) => ['EVAL', RDB_BYTES_SCRIPT, String(batch.length), ...batch]),
      );
      for (const size of sizes) bytes += Number(size);
    }
    return {
      bytes,
      method:
        'RDB serialization of the document keys (DUMP payloads + key names): what they add to a snapshot; Redis holds the data in memory',
    };
  }
}
