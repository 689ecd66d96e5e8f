/**
 * Redis: the e-commerce scenario as a Redis developer builds it without modules (no RedisJSON,
 * no RediSearch: plain Redis, as docbench's local server and most managed plans offer it).
 *
 * Data
 *   - one hash per document, `ecommerce:customer:…` / `ecommerce:order:…`; each top-level field
 *     is a hash field holding its JSON text, so nested values (address, children) keep their
 *     shape and a scalar field can be changed alone with HSET, no read-modify-write;
 *   - application-maintained indexes, written with the document (pipelined while seeding, in
 *     the same Lua script for a sign-up): sorted sets with every score 0, so members are ordered
 *     by id, byte-wise, per country, per postal code and per value YCSB-JSON's other queries
 *     filter on, and a hash from device id to customer (redis-soe.ts lists them). They are the
 *     data model: `indexes=false` changes nothing here.
 *
 * Operations
 *   pagination  ZRANGE idx:country:<c> offset offset+limit-1: the page by rank, already in id
 *               order, one command (also for `ordered=false`: the set has one order).
 *   join        application-side, three round trips: ZRANGE idx:zip:<z> 0 -1; a pipeline of
 *               HGET order_list for those customers; a pipeline of HMGET month sale_price for
 *               their orders; filter the month and sum in the client.
 *   insert      a Lua script: refuse an existing id, else HSET the fields plus every index entry,
 *               atomically (MULTI cannot make a write conditional). On a Redis Cluster a script
 *               cannot span the slots involved: the document by its own script, then its index
 *               entries (see insertCustomer).
 *   update      a Lua script: HSET the changed fields only when the customer exists.
 *   read        HGETALL, every field parsed from JSON.
 * Plans: Redis has no planner; the plan is the structures each query reads and how much of them
 * (ZRANGE's rank range, the zip set's members, the hashes fetched).
 */

import type { RedisHandle } from '../../../src/stores/redis/handle.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  CustomerKey,
  EcommerceDialect,
  ExplainRequest,
  Manifest,
  QueryExplainer,
  QueryVariant,
  SeedBatch,
  EcommerceDialectDefinition,
} from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { Customer, CustomerPatch, Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import {
  countryKey,
  DEVICE_KEY,
  docKey,
  indexEntries,
  INDEXED_FIELDS,
  RedisSoe,
  SOE_VARIANTS,
  zipKey,
  type IndexedFields,
} from './redis-soe.ts';

const P = NAMES.prefix;
const MANIFEST_KEY = `${P}:manifest`;

/**
 * KEYS[1] document, KEYS[2] the device hash, KEYS[3…] the sorted sets the customer joins;
 * ARGV[1] id, ARGV[2] n, ARGV[3 … 2+n] its devices, then the document's field/value pairs.
 */
const INSERT_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('document ' .. ARGV[1] .. ' exists') end
local n = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], unpack(ARGV, 3 + n))
for i = 3, #KEYS do redis.call('ZADD', KEYS[i], 0, ARGV[1]) end
for i = 3, 2 + n do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
return 1`;

/** KEYS[1] document; ARGV field/value pairs: refuse an existing id, else write the document (a cluster's first step). */
const INSERT_DOCUMENT_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('document ' .. ARGV[1] .. ' exists') end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1`;

/** KEYS[1] document; ARGV field/value pairs. */
const UPDATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1`;

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'zrange',
      description:
        'ZRANGE on a per-country sorted set (score 0, members ordered by id) by rank: OFFSET/LIMIT in one command',
    },
  ],
  join: [
    {
      name: 'app-join',
      description:
        'ZRANGE of the zip set, pipelined HGET order_list, pipelined HMGET month sale_price; filter and SUM in the client',
    },
  ],
};

const LAYOUT = [
  'redis: one hash per document, each top-level field holding its JSON text (no modules needed)',
  'redis: application-maintained indexes written with each document (atomically for a sign-up): sorted sets (score 0, id order) per country, zip, (country, age group, birth year), previous zip and visited (country, city); a device -> customer hash',
  'redis: JOIN is application-side (3 round trips); pagination is one ZRANGE by rank',
];

/** A document as HSET arguments: field, JSON text, field, JSON text, … */
function fieldArgs(doc: object): string[] {
  const args: string[] = [];
  for (const [field, value] of Object.entries(doc)) args.push(field, JSON.stringify(value));
  return args;
}

function fromHash<T>(pairs: readonly string[]): T | null {
  if (pairs.length === 0) return null;
  const doc: Record<string, unknown> = {};
  for (let i = 0; i < pairs.length; i += 2) doc[pairs[i]!] = JSON.parse(pairs[i + 1]!);
  return doc as T;
}

const PLAN_SOURCE = 'Redis has no query planner: the structures the dialect reads, and how much of them';

/** What the application-side JOIN read: the zip's customers, their orders, and the answer. */
interface JoinReads {
  customers: number;
  orders: number;
  rows: JoinRow[];
}

class RedisDialect implements EcommerceDialect, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout = LAYOUT;
  readonly readsOwnWrites = true;
  readonly soe: RedisSoe;

  constructor(private readonly redis: RedisHandle) {
    this.soe = new RedisSoe(redis);
  }

  async drop(): Promise<void> {
    // Only the scenario's keys: never FLUSHDB a user's server.
    await this.redis.unlinkMatching(`${P}:*`);
  }

  /** Nothing to create: hashes and index sets appear with their first member. */
  async prepare(): Promise<void> {}

  async insertMany(batch: SeedBatch): Promise<void> {
    const commands: string[][] = [];
    for (const c of batch.customers) {
      commands.push(['HSET', docKey(c._id), ...fieldArgs(c)]);
      const entries = indexEntries(c);
      for (const key of entries.sortedSets) commands.push(['ZADD', key, '0', c._id]);
      commands.push(['HSET', DEVICE_KEY, ...entries.devices.flatMap((d) => [d, c._id])]);
    }
    for (const o of batch.orders) commands.push(['HSET', docKey(o._id), ...fieldArgs(o)]);
    await this.redis.pipeline(commands);
  }

  async readManifest(): Promise<Manifest | null> {
    const text = (await this.redis.call(['GET', MANIFEST_KEY])) as string | null;
    return text === null ? null : (JSON.parse(text) as Manifest);
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.redis.call(['SET', MANIFEST_KEY, JSON.stringify(manifest)]);
  }

  /** Each customer's indexed fields are read back first: its index entries are made from them. */
  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    if (customers.length === 0) return;
    const stored = await this.redis.pipeline(customers.map((c) => ['HMGET', docKey(c.id), ...INDEXED_FIELDS]));
    const commands: string[][] = [];
    customers.forEach((c, i) => {
      const values = stored[i] as (string | null)[];
      if (values.some((v) => v === null)) return;
      const entries = indexEntries(
        Object.fromEntries(INDEXED_FIELDS.map((f, j) => [f, JSON.parse(values[j]!)])) as IndexedFields,
      );
      commands.push(['UNLINK', docKey(c.id)], ...entries.sortedSets.map((key) => ['ZREM', key, c.id]), [
        'HDEL',
        DEVICE_KEY,
        ...entries.devices,
      ]);
    });
    if (commands.length > 0) await this.redis.pipeline(commands);
  }

  async pagination(_variant: string, params: PageParams): Promise<string[]> {
    if (params.limit <= 0) return [];
    const stop = params.offset + params.limit - 1;
    return (await this.redis.call([
      'ZRANGE',
      countryKey(params.country),
      String(params.offset),
      String(stop),
    ])) as string[];
  }

  async join(_variant: string, params: JoinParams): Promise<JoinRow[]> {
    return (await this.joinReads(params)).rows;
  }

  private async joinReads(params: JoinParams): Promise<JoinReads> {
    const customers = (await this.redis.call(['ZRANGE', zipKey(params.zip), '0', '-1'])) as string[];
    if (customers.length === 0) return { customers: 0, orders: 0, rows: [] };
    const lists = await this.redis.pipeline(customers.map((id) => ['HGET', docKey(id), 'order_list']));
    const orderIds: string[] = [];
    for (const list of lists) if (list !== null) orderIds.push(...(JSON.parse(list as string) as string[]));
    if (orderIds.length === 0) return { customers: customers.length, orders: 0, rows: [] };
    const orders = await this.redis.pipeline(orderIds.map((id) => ['HMGET', docKey(id), 'month', 'sale_price']));
    let sum = 0;
    let matched = 0;
    for (const reply of orders) {
      const [month, salePrice] = reply as [string | null, string | null];
      if (month === null || salePrice === null || Number(month) !== params.month) continue;
      sum += Number(salePrice);
      matched++;
    }
    return {
      customers: customers.length,
      orders: orderIds.length,
      rows: matched === 0 ? [] : [{ month: params.month, zip: params.zip, sale_price: sum }],
    };
  }

  async explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    if (request.kind !== 'pagination' && request.kind !== 'join') return this.soe.explain(request);
    if (request.kind === 'pagination') {
      const { country, offset, limit } = request.params;
      const members = Number(await this.redis.call(['ZCARD', countryKey(country)]));
      const page = await this.pagination(variant, request.params);
      return {
        access: 'index',
        used: [countryKey(country)],
        keysExamined: Math.min(members, offset + limit),
        documentsExamined: 0,
        returned: page.length,
        warnings: [],
        indexExpected: true,
        source: PLAN_SOURCE,
        raw: `ZRANGE ${countryKey(country)} ${offset} ${offset + limit - 1} (by rank, of ${members} members): ${page.length} ids, no document read`,
      };
    }
    const reads = await this.joinReads(request.params);
    return {
      access: 'index',
      used: [zipKey(request.params.zip), `${P}:customer:* (HGET order_list)`, `${P}:order:* (HMGET month sale_price)`],
      keysExamined: reads.customers,
      documentsExamined: reads.customers + reads.orders,
      returned: reads.orders,
      warnings: [],
      indexExpected: true,
      source: PLAN_SOURCE,
      raw: `ZRANGE ${zipKey(request.params.zip)} 0 -1: ${reads.customers} customers; pipelined HGET order_list of each; pipelined HMGET month sale_price of ${reads.orders} orders`,
    };
  }

  async readCustomer(id: string): Promise<Customer | null> {
    return fromHash<Customer>((await this.redis.call(['HGETALL', docKey(id)])) as string[]);
  }

  async readOrder(id: string): Promise<Order | null> {
    return fromHash<Order>((await this.redis.call(['HGETALL', docKey(id)])) as string[]);
  }

  async insertCustomer(customer: Customer): Promise<void> {
    const entries = indexEntries(customer);
    if (this.redis.isCluster) {
      // One script cannot span the slots of a document and its index structures on a cluster:
      // the document first (refused if its id exists), then its index entries, each to its own
      // slot. A query reads one structure and fetches documents by id, so it never meets an id
      // whose document was not written yet; a sign-up in flight may show in some structures
      // before others, which the sign-up ledger allows (it is not acknowledged yet).
      await this.redis.call([
        'EVAL',
        INSERT_DOCUMENT_SCRIPT,
        '1',
        docKey(customer._id),
        customer._id,
        ...fieldArgs(customer),
      ]);
      const index: string[][] = entries.sortedSets.map((key) => ['ZADD', key, '0', customer._id]);
      if (entries.devices.length > 0)
        index.push(['HSET', DEVICE_KEY, ...entries.devices.flatMap((d) => [d, customer._id])]);
      await this.redis.pipeline(index);
      return;
    }
    const keys = [docKey(customer._id), DEVICE_KEY, ...entries.sortedSets];
    await this.redis.call([
      'EVAL',
      INSERT_SCRIPT,
      String(keys.length),
      ...keys,
      customer._id,
      String(entries.devices.length),
      ...entries.devices,
      ...fieldArgs(customer),
    ]);
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    return Number(await this.redis.call(['EVAL', UPDATE_SCRIPT, '1', docKey(id), ...fieldArgs(patch)])) === 1;
  }
}

export const dialect: EcommerceDialectDefinition<'redis'> = {
  store: 'redis',
  create: (handle) => new RedisDialect(handle),
};
