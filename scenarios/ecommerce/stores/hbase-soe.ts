/**
 * HBase: the index table every customer is entered in, and YCSB-JSON's other queries on it.
 * HBase has no secondary index, so the application keeps one row-key range per question in one
 * table, `ecommerce_index` (family `i`), written with each customer. Its row keys, each part
 * %-escaped so a `/` inside a value cannot split it:
 *
 *   country/<country>/<customer id>                  pagination
 *   zip/<zip>/<customer id>                          the application JOIN, soe_page, soe_report
 *   zipmonth/<zip>/<month>/<order id>  i:sale_price   the JOIN by row key (seeded orders)
 *   search/<country>/<age group>/<year>/<customer id> soe_search
 *   prevzip/<zip>/<customer id>                      soe_nestscan
 *   device/<device id>                 i:customer     soe_arrayscan (a device has one customer)
 *   place/<country>/<city>/<customer id>             soe_arraydeepscan
 *
 * A query scans its prefix in row-key order (HBase has no OFFSET: a page of offset + limit rows
 * is read and the first `offset` dropped), then multi-gets the whole customers, as YCSB-JSON
 * selects every field; the ids of the customers that exist are the answer.
 */
import type { Cell, Row } from '../../../src/stores/hbase/cellset.ts';
import type { HbaseHandle, ScanRequest } from '../../../src/stores/hbase/handle.ts';
import { combineEvidence, type PlanEvidence } from '../../../src/stores/query-plan.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { Customer, Order } from '../model.ts';
import type { ArrayScanParams, ReportParams, ReportRow, SoeKind } from '../queries.ts';

export const TABLES = {
  customers: NAMES.customers,
  orders: NAMES.orders,
  meta: NAMES.meta,
  index: `${NAMES.prefix}_index`,
} as const;
export const FAMILY = 'd';
export const INDEX_FAMILY = 'i';
/** Rows per multi-get (their keys travel in the request line). */
const GET_CHUNK = 100;

const part = (value: string | number) => String(value).replace(/%/g, '%25').replace(/\//g, '%2F');
/** A row-key prefix of index parts, ending in `/`. */
export const indexPrefix = (...parts: (string | number)[]) => `${parts.map(part).join('/')}/`;
export const countryPrefix = (country: string) => indexPrefix('country', country);
export const zipPrefix = (zip: string) => indexPrefix('zip', zip);
export const zipMonthPrefix = (zip: string, month: number) =>
  indexPrefix('zipmonth', zip, String(month).padStart(2, '0'));
const searchPrefix = (country: string, group: string, year: string | number) =>
  indexPrefix('search', country, group, year);
const prevZipPrefix = (zip: string) => indexPrefix('prevzip', zip);
const placePrefix = (country: string, city: string) => indexPrefix('place', country, city);
const deviceKey = (device: string) => `device/${part(device)}`;

/** The rows of a prefix: from the prefix to the key after its last (`/` + 1 is `0`). */
export function prefixScan(prefix: string, limit?: number): ScanRequest {
  return { startRow: prefix, stopRow: `${prefix.slice(0, -1)}0`, ...(limit !== undefined ? { limit } : {}) };
}

/** The id at the end of an index row key. */
export const lastPart = (key: string) => decodeURIComponent(key.slice(key.lastIndexOf('/') + 1));

/** The values a customer's index rows are made from (the whole document, or the fields read back for a removal). */
export type IndexedFields = Pick<Customer, '_id' | 'address' | 'age_group' | 'dob' | 'devices' | 'visited_places'>;
export const INDEXED_FIELDS = ['_id', 'address', 'age_group', 'dob', 'devices', 'visited_places'] as const;

/** Every index row of a customer; with its orders, the JOIN's zip+month rows too. */
export function indexRows(c: IndexedFields, orders: readonly Order[] = []): Row[] {
  const marker: Cell[] = [{ column: `${INDEX_FAMILY}:c`, value: '' }];
  const keys = [
    countryPrefix(c.address.country),
    zipPrefix(c.address.zip),
    searchPrefix(c.address.country, c.age_group, c.dob.slice(0, 4)),
    prevZipPrefix(c.address.prev_address.zip),
  ];
  const places = new Set<string>();
  for (const place of c.visited_places) for (const city of place.cities) places.add(placePrefix(place.country, city));
  const rows: Row[] = [...keys, ...places].map((prefix) => ({ key: prefix + part(c._id), cells: marker }));
  for (const device of c.devices)
    rows.push({ key: deviceKey(device), cells: [{ column: `${INDEX_FAMILY}:customer`, value: c._id }] });
  for (const o of orders)
    rows.push({
      key: zipMonthPrefix(c.address.zip, o.month) + part(o._id),
      cells: [{ column: `${INDEX_FAMILY}:sale_price`, value: String(o.sale_price) }],
    });
  return rows;
}

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': [
    {
      name: 'index-table',
      description:
        'row-key range scan of search/<country>/<age group>/<year>/ (offset + limit rows), multi-get of the customers',
    },
  ],
  'soe-page': [
    {
      name: 'index-table',
      description: 'row-key range scan of zip/<zip>/ (offset + limit rows), multi-get of the customers',
    },
  ],
  'soe-nestscan': [
    { name: 'index-table', description: 'row-key range scan of prevzip/<zip>/, multi-get of the customers' },
  ],
  'soe-arrayscan': [
    { name: 'index-table', description: 'get of device/<device> (its customer), then of the customer' },
  ],
  'soe-arraydeepscan': [
    { name: 'index-table', description: 'row-key range scan of place/<country>/<city>/, multi-get of the customers' },
  ],
  'soe-report': [
    {
      name: 'app-join',
      description: 'row-key range scan of zip/<zip>/, multi-get of the customers, then of their orders',
    },
  ],
};

/** The kinds answered by a scan of an index prefix. */
type ScanRead = Exclude<SoeIdsRequest, { kind: 'soe-arrayscan' }>;

export class HbaseSoe implements SoeQueries {
  constructor(private readonly hbase: HbaseHandle) {}

  /** Whole rows of `ids` that exist (multi-gets in chunks). */
  fetch(table: string, ids: readonly string[]): Promise<Row[]> {
    return this.fetchColumns(table, ids);
  }

  /** Rows of `ids` that exist, only `columns` when given (multi-gets in chunks). */
  async fetchColumns(table: string, ids: readonly string[], columns?: readonly string[]): Promise<Row[]> {
    const rows: Row[] = [];
    for (let start = 0; start < ids.length; start += GET_CHUNK)
      rows.push(...(await this.hbase.multiGet(table, ids.slice(start, start + GET_CHUNK), columns)));
    return rows;
  }

  /** A page of an index prefix: offset + limit rows read, the first `offset` dropped; the ids. Without a limit, every id of the prefix. */
  async page(prefix: string, offset = 0, limit?: number): Promise<string[]> {
    if (limit !== undefined && limit <= 0) return [];
    const rows = await this.hbase.scan(TABLES.index, {
      ...prefixScan(prefix, limit === undefined ? undefined : offset + limit),
      columns: [`${INDEX_FAMILY}:c`],
    });
    return rows.slice(offset).map((r) => lastPart(r.key));
  }

  private scanOf(request: ScanRead): { prefix: string; offset: number; limit: number } {
    switch (request.kind) {
      case 'soe-search': {
        const p = request.params;
        return { prefix: searchPrefix(p.country, p.age_group, p.year), offset: p.offset, limit: p.limit };
      }
      case 'soe-page': {
        const p = request.params;
        return { prefix: zipPrefix(p.zip), offset: p.offset, limit: p.limit };
      }
      case 'soe-nestscan': {
        const p = request.params;
        return { prefix: prevZipPrefix(p.zip), offset: 0, limit: p.limit };
      }
      case 'soe-arraydeepscan': {
        const p = request.params;
        return { prefix: placePrefix(p.country, p.city), offset: 0, limit: p.limit };
      }
    }
  }

  private async scanAnswer(request: ScanRead): Promise<string[]> {
    const { prefix, offset, limit } = this.scanOf(request);
    return (await this.fetch(TABLES.customers, await this.page(prefix, offset, limit))).map((r) => r.key);
  }

  /** The array scan gets its device's row of the index table; the others scan an index prefix. */
  ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    return request.kind === 'soe-arrayscan' ? this.arrayScan(request.params) : this.scanAnswer(request);
  }

  private async deviceOwner(device: string): Promise<string | null> {
    const row = await this.hbase.get(TABLES.index, deviceKey(device));
    return row?.cells.find((c) => c.column === `${INDEX_FAMILY}:customer`)?.value ?? null;
  }

  private async arrayScan(params: ArrayScanParams): Promise<string[]> {
    const owner = params.limit > 0 ? await this.deviceOwner(params.device) : null;
    return owner === null ? [] : (await this.fetch(TABLES.customers, [owner])).map((r) => r.key);
  }

  async report(_variant: string, params: ReportParams): Promise<ReportRow[]> {
    return (await this.reportReads(params)).rows;
  }

  private async reportReads(params: ReportParams): Promise<{ customers: number; orders: number; rows: ReportRow[] }> {
    const customers = await this.fetch(TABLES.customers, await this.page(zipPrefix(params.zip)));
    const pairs: ReportRow[] = [];
    for (const c of customers) {
      const list = c.cells.find((cell) => cell.column === `${FAMILY}:order_list`);
      if (list) for (const order of JSON.parse(list.value) as string[]) pairs.push({ customer: c.key, order });
    }
    const found = new Set(
      (
        await this.fetch(
          TABLES.orders,
          pairs.map((p) => p.order),
        )
      ).map((r) => r.key),
    );
    return { customers: customers.length, orders: pairs.length, rows: pairs.filter((p) => found.has(p.order)) };
  }

  async explain(request: SoeRequest): Promise<ScenarioPlan> {
    const getStep = (
      label: string,
      table: string,
      n: number,
      returned: number,
    ): { label: string; plan: PlanEvidence } => ({
      label,
      plan: {
        access: 'key',
        used: [`${table} (row keys)`],
        documentsExamined: n,
        returned,
        warnings: [],
        source: 'multi-get by row key',
        raw: `GET ${table}/multiget of ${n} rows: ${returned} found`,
      },
    });
    if (request.kind === 'soe-report') {
      const scan = await this.indexStep(zipPrefix(request.params.zip));
      const reads = await this.reportReads(request.params);
      return {
        ...combineEvidence([
          scan,
          getStep('customers', TABLES.customers, reads.customers, reads.customers),
          getStep('orders', TABLES.orders, reads.orders, reads.rows.length),
        ]),
        indexExpected: true,
      };
    }
    if (request.kind === 'soe-arrayscan') {
      const owner = await this.deviceOwner(request.params.device);
      const found = await this.arrayScan(request.params);
      const lookup: PlanEvidence = {
        access: 'index',
        used: [`${TABLES.index} device/…`],
        keysExamined: 1,
        returned: owner === null ? 0 : 1,
        warnings: [],
        source: 'a get by row key of the index table',
        raw: `GET ${TABLES.index}/${deviceKey(request.params.device)}: ${owner ?? 'no row'}`,
      };
      return {
        ...combineEvidence([
          { label: 'device', plan: lookup },
          getStep('customer', TABLES.customers, owner === null ? 0 : 1, found.length),
        ]),
        indexExpected: true,
      };
    }
    const { prefix, offset, limit } = this.scanOf(request);
    const scan = await this.indexStep(prefix, offset + limit);
    const ids = await this.page(prefix, offset, limit);
    const found = await this.fetch(TABLES.customers, ids);
    return {
      ...combineEvidence([scan, getStep('customers', TABLES.customers, ids.length, found.length)]),
      indexExpected: true,
    };
  }

  /** The plan of an index prefix scan (rows scanned by a key-only count of its range). */
  async indexStep(prefix: string, limit?: number): Promise<{ label: string; plan: PlanEvidence }> {
    const plan = await this.hbase.explainScan(TABLES.index, prefixScan(prefix, limit));
    return {
      label: `index ${prefix}`,
      plan: {
        ...plan,
        access: 'index',
        used: [`${TABLES.index} ${prefix}…`],
        keysExamined: plan.rowsScanned,
        documentsExamined: 0,
      },
    };
  }
}
