/**
 * The YCSB operations on Redis (layout and semantics: see index.ts): a record is the hash
 * `<table>:<key>`, and the score-0 sorted set `<table>#index` lists the keys for scans.
 *
 * On a Redis Cluster the records spread over every master by their keys' slots, and the index,
 * one key, lives on one slot, as in YCSB's own binding (its `_indices`): every insert's ZADD and
 * every scan's range read go to the master of that slot. A MULTI cannot span two slots, so there
 * an insert is two writes, the record first, then its index entry (as YCSB's binding always
 * writes them): a scan never meets an index entry whose record was not written yet, and an
 * insert that fails between the two leaves a record that scans do not see (its failure is
 * counted). A delete removes the record, then the index entry (a scan skips an entry without its
 * record). Hash tags could put record and index on one slot, but then the whole table would be on
 * one master: no cluster at all.
 */
import type { BatchInserter, FieldMap, KeyedRecord, Store, YcsbSchema } from '../store.ts';
import type { RedisHandle } from './handle.ts';

type YcsbOperations = Pick<Store, 'prepare' | 'drop' | 'read' | 'scan' | 'update' | 'insert' | 'delete'> &
  BatchInserter;

const recordKey = (table: string, key: string) => `${table}:${key}`;
const indexKey = (table: string) => `${table}#index`;

export class RedisYcsb implements YcsbOperations {
  constructor(private readonly redis: RedisHandle) {}

  /** Nothing to create: hashes and the index appear with the first insert. */
  async prepare(_schema: YcsbSchema): Promise<void> {}

  async drop(schema: YcsbSchema): Promise<void> {
    // Only this table's keys: never FLUSHDB a user's server.
    await this.redis.unlinkMatching(recordKey(schema.table, '*'));
    await this.redis.call(['UNLINK', indexKey(schema.table)]);
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    if (fields === null) return fromPairs((await this.redis.call(['HGETALL', recordKey(table, key)])) as string[]);
    return pickPresent(
      fields,
      (await this.redis.call(['HMGET', recordKey(table, key), ...fields])) as (string | null)[],
    );
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    const keys = (await this.redis.call([
      'ZRANGEBYLEX',
      indexKey(table),
      `[${startKey}`,
      '+',
      'LIMIT',
      '0',
      String(count),
    ])) as string[];
    if (keys.length === 0) return [];
    // No field asked for (scankeysonly): the index holds the keys, no hash is read.
    if (fields !== null && fields.length === 0) return keys.map((key) => ({ key, fields: {} }));
    const commands = keys.map((key) =>
      fields === null ? ['HGETALL', recordKey(table, key)] : ['HMGET', recordKey(table, key), ...fields],
    );
    const replies = await this.redis.pipeline(commands);
    const records: KeyedRecord[] = [];
    for (let i = 0; i < keys.length; i++) {
      const reply = replies[i];
      const record = fields === null ? fromPairs(reply as string[]) : pickPresent(fields, reply as (string | null)[]);
      // A key still in the index whose hash was deleted in between: skip it, as the binding does.
      if (record !== null) records.push({ key: keys[i]!, fields: record });
    }
    return records;
  }

  /** An HSET, which succeeds whether or not the record existed (YCSB's binding does the same). */
  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    await this.redis.write(hset(recordKey(table, key), values));
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    const record = hset(recordKey(table, key), values);
    const entry = ['ZADD', indexKey(table), '0', key];
    if (!this.redis.isCluster) {
      // MULTI/EXEC: the record and its index entry appear together.
      await this.redis.writeAtomically([record, entry]);
      return;
    }
    await this.redis.write(record);
    await this.redis.write(entry);
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    const commands: string[][] = records.map((r) => hset(recordKey(table, r.key), r.fields));
    const zadd = ['ZADD', indexKey(table)];
    for (const r of records) zadd.push('0', r.key);
    commands.push(zadd);
    await this.redis.writeAll(commands);
  }

  async delete(table: string, key: string): Promise<boolean> {
    if (!this.redis.isCluster) {
      const [deleted] = await this.redis.writeAtomically([
        ['DEL', recordKey(table, key)],
        ['ZREM', indexKey(table), key],
      ]);
      return Number(deleted) > 0;
    }
    const deleted = await this.redis.write(['DEL', recordKey(table, key)]);
    await this.redis.write(['ZREM', indexKey(table), key]);
    return Number(deleted) > 0;
  }
}

function hset(key: string, values: FieldMap): string[] {
  const args = ['HSET', key];
  for (const field in values) args.push(field, values[field]!);
  return args;
}

/** HGETALL's flat [field, value, …] reply as a record; null for a missing (empty) hash. */
function fromPairs(pairs: readonly string[]): FieldMap | null {
  if (pairs.length === 0) return null;
  const record: FieldMap = {};
  for (let i = 0; i < pairs.length; i += 2) record[pairs[i]!] = pairs[i + 1]!;
  return record;
}

/** HMGET answers with nulls for missing fields, and only nulls for a missing record. */
function pickPresent(fields: readonly string[], values: readonly (string | null)[]): FieldMap | null {
  let record: FieldMap | null = null;
  for (let i = 0; i < fields.length; i++) {
    const value = values[i];
    if (value !== null && value !== undefined) (record ??= {})[fields[i]!] = value;
  }
  return record;
}
