/**
 * Redis: the index structures every customer is entered in, and YCSB-JSON's other queries on
 * them. Plain Redis has no secondary index, so the application keeps one structure per question,
 * written with the document (seeding pipelines them, a sign-up writes them in the same Lua
 * script as the document):
 *
 *   idx:country:<country>               sorted set, score 0 (members in id order): pagination
 *   idx:zip:<zip>                       sorted set, score 0: the JOIN, soe_page, soe_report
 *   idx:search:<country>:<group>:<year> sorted set, score 0: soe_search
 *   idx:prevzip:<zip>                   sorted set, score 0: soe_nestscan
 *   idx:device                          hash device id -> customer id: soe_arrayscan (a device
 *                                       id belongs to one customer)
 *   idx:place:<country>:<city>          sorted set, score 0: soe_arraydeepscan (one entry per
 *                                       city of a visited_places element)
 *
 * Each query reads its structure (ZRANGE by rank for OFFSET/LIMIT, already in id order; HGET for
 * a device), then fetches the whole documents with pipelined HGETALL, as YCSB-JSON selects every
 * field; the ids of the documents that exist are the answer. soe_report fetches the zip's
 * customers, then their orders, both pipelined.
 */
import type { RedisHandle } from '../../../src/stores/redis/handle.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { Customer } from '../model.ts';
import type { ReportParams, ReportRow, SoeKind } from '../queries.ts';

const P = NAMES.prefix;
export const docKey = (id: string) => `${P}:${id}`;
export const countryKey = (country: string) => `${P}:idx:country:${country}`;
export const zipKey = (zip: string) => `${P}:idx:zip:${zip}`;
const searchKey = (country: string, group: string, year: string | number) =>
  `${P}:idx:search:${country}:${group}:${year}`;
const prevZipKey = (zip: string) => `${P}:idx:prevzip:${zip}`;
const placeKey = (country: string, city: string) => `${P}:idx:place:${country}:${city}`;
export const DEVICE_KEY = `${P}:idx:device`;

/** The values a customer's index entries are made from (whole document or the fields read back for a removal). */
export type IndexedFields = Pick<Customer, 'address' | 'age_group' | 'dob' | 'devices' | 'visited_places'>;
export const INDEXED_FIELDS = ['address', 'age_group', 'dob', 'devices', 'visited_places'] as const;

/** Every sorted set the customer is a member of, and its devices (entries of the device hash). */
export function indexEntries(c: IndexedFields): { sortedSets: string[]; devices: string[] } {
  const places = new Set<string>();
  for (const place of c.visited_places) for (const city of place.cities) places.add(placeKey(place.country, city));
  return {
    sortedSets: [
      countryKey(c.address.country),
      zipKey(c.address.zip),
      searchKey(c.address.country, c.age_group, c.dob.slice(0, 4)),
      prevZipKey(c.address.prev_address.zip),
      ...places,
    ],
    devices: c.devices,
  };
}

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': [
    {
      name: 'index-sets',
      description: 'ZRANGE by rank on the sorted set of (country, age group, birth year), then pipelined HGETALL',
    },
  ],
  'soe-page': [{ name: 'index-sets', description: 'ZRANGE by rank on the zip sorted set, then pipelined HGETALL' }],
  'soe-nestscan': [
    { name: 'index-sets', description: 'ZRANGE on the previous-zip sorted set, then pipelined HGETALL' },
  ],
  'soe-arrayscan': [{ name: 'index-sets', description: 'HGET on the device -> customer hash, then HGETALL' }],
  'soe-arraydeepscan': [
    { name: 'index-sets', description: 'ZRANGE on the (country, city) sorted set, then pipelined HGETALL' },
  ],
  'soe-report': [
    {
      name: 'app-join',
      description: 'ZRANGE of the zip set, pipelined HGETALL of the customers, then of their orders',
    },
  ],
};

const PLAN_SOURCE = 'Redis has no query planner: the structures the dialect reads, and how much of them';

/** What one SOE query reads: the index structure, its entries examined, the documents fetched. */
interface Reads {
  structure: string;
  how: string;
  ids: string[];
  documents: number;
}

export class RedisSoe implements SoeQueries {
  constructor(private readonly redis: RedisHandle) {}

  /** Whole documents of the ids (pipelined HGETALL); the ids of those that exist. */
  private async fetch(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const replies = (await this.redis.pipeline(ids.map((id) => ['HGETALL', docKey(id)]))) as string[][];
    return ids.filter((_, i) => replies[i]!.length > 0);
  }

  private async range(key: string, offset: number, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return (await this.redis.call(['ZRANGE', key, String(offset), String(offset + limit - 1)])) as string[];
  }

  private async reads(request: SoeIdsRequest): Promise<Reads> {
    const slice = async (structure: string, offset: number, limit: number) => {
      const ids = await this.range(structure, offset, limit);
      return { structure, how: `ZRANGE ${structure} ${offset} ${offset + limit - 1}`, ids, documents: ids.length };
    };
    switch (request.kind) {
      case 'soe-search': {
        const p = request.params;
        return slice(searchKey(p.country, p.age_group, p.year), p.offset, p.limit);
      }
      case 'soe-page':
        return slice(zipKey(request.params.zip), request.params.offset, request.params.limit);
      case 'soe-nestscan':
        return slice(prevZipKey(request.params.zip), 0, request.params.limit);
      case 'soe-arraydeepscan':
        return slice(placeKey(request.params.country, request.params.city), 0, request.params.limit);
      case 'soe-arrayscan': {
        const owner = (await this.redis.call(['HGET', DEVICE_KEY, request.params.device])) as string | null;
        const ids = owner === null || request.params.limit <= 0 ? [] : [owner];
        return {
          structure: DEVICE_KEY,
          how: `HGET ${DEVICE_KEY} ${request.params.device}`,
          ids,
          documents: ids.length,
        };
      }
    }
  }

  async ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    return this.fetch((await this.reads(request)).ids);
  }

  async report(_variant: string, params: ReportParams): Promise<ReportRow[]> {
    return (await this.reportReads(params)).rows;
  }

  private async reportReads(params: ReportParams): Promise<{ customers: number; rows: ReportRow[] }> {
    const ids = (await this.redis.call(['ZRANGE', zipKey(params.zip), '0', '-1'])) as string[];
    if (ids.length === 0) return { customers: 0, rows: [] };
    const customers = (await this.redis.pipeline(ids.map((id) => ['HGETALL', docKey(id)]))) as string[][];
    const pairs: ReportRow[] = [];
    customers.forEach((fields, i) => {
      const at = fields.indexOf('order_list');
      if (at >= 0 && at % 2 === 0)
        for (const order of JSON.parse(fields[at + 1]!) as string[]) pairs.push({ customer: ids[i]!, order });
    });
    if (pairs.length === 0) return { customers: ids.length, rows: [] };
    const orders = (await this.redis.pipeline(pairs.map((p) => ['HGETALL', docKey(p.order)]))) as string[][];
    return { customers: ids.length, rows: pairs.filter((_, i) => orders[i]!.length > 0) };
  }

  async explain(request: SoeRequest): Promise<ScenarioPlan> {
    const plan = { access: 'index' as const, warnings: [], indexExpected: true, source: PLAN_SOURCE };
    if (request.kind === 'soe-report') {
      const { customers, rows } = await this.reportReads(request.params);
      const structure = zipKey(request.params.zip);
      return {
        ...plan,
        used: [structure, `${P}:customer:* (HGETALL)`, `${P}:order:* (HGETALL)`],
        keysExamined: customers,
        documentsExamined: customers + rows.length,
        returned: rows.length,
        raw: `ZRANGE ${structure} 0 -1: ${customers} customers; pipelined HGETALL of each, then of ${rows.length} orders`,
      };
    }
    const reads = await this.reads(request);
    const returned = (await this.fetch(reads.ids)).length;
    return {
      ...plan,
      used: [reads.structure],
      keysExamined: reads.ids.length,
      documentsExamined: reads.documents,
      returned,
      raw: `${reads.how}: ${reads.ids.length} ids; pipelined HGETALL of each`,
    };
  }
}
