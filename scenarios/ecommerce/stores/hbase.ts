/**
 * HBase: the e-commerce scenario as an HBase application designs it: tables keyed by the ids,
 * and the questions answered by row-key design, since HBase finds rows by key (or key range)
 * only and has no secondary index, JOIN or aggregate.
 *
 * Tables (family `d` unless said)
 *   ecommerce_customers   row = customer id; one column per top-level field, its JSON text, so
 *                         nested values keep their shape and a field is changed alone by a Put
 *   ecommerce_orders      row = order id, the same
 *   ecommerce_meta        row `manifest`
 *   ecommerce_index       family `i`: the row-key ranges the application maintains
 *                         (hbase-soe.ts lists them), written with each customer and its orders.
 *                         They are the data model: `indexes=false` changes nothing here.
 *
 * Operations
 *   pagination  a scan of `country/<country>/`, in customer-id order by row-key design: offset +
 *               limit rows read, the first `offset` dropped (HBase has no OFFSET), one request.
 *   join        two variants, both summed in the client:
 *               `zip-month-rowkey`  one scan of `zipmonth/<zip>/<month>/`: each seeded order's
 *                                   sale price under a row key made of its customer's zip and its
 *                                   month, so the JOIN was done when the orders were written;
 *               `app-join`          a scan of `zip/<zip>/`, a multi-get of those customers'
 *                                   order_list, a multi-get of the orders' month and sale_price.
 *   insert      checkAndPut of the customer row, only if its `_id` cell is absent (an existing id
 *               is refused), then its index rows: a refused sign-up leaves no index row, and an
 *               acknowledged one has all of them.
 *   update      checkAndPut of the changed fields, only if the row's `_id` cell holds the id
 *               (false for a missing customer, never an upsert).
 *   read        a Get of the row, every column parsed from JSON.
 * Plans: HBase has no EXPLAIN; each scan's table, row range and rows scanned (a key-only count of
 * the same range) against rows returned, and the multi-gets that follow (hbase/explain.ts).
 */
import type { Cell, Row } from '../../../src/stores/hbase/cellset.ts';
import type { HbaseHandle } from '../../../src/stores/hbase/handle.ts';
import { combineEvidence, type PlanEvidence } from '../../../src/stores/query-plan.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  CustomerKey,
  EcommerceDialect,
  EcommerceDialectDefinition,
  ExplainRequest,
  Manifest,
  QueryExplainer,
  QueryVariant,
  SeedBatch,
} from '../dialect.ts';
import type { Customer, CustomerPatch, Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import {
  countryPrefix,
  FAMILY,
  HbaseSoe,
  INDEX_FAMILY,
  INDEXED_FIELDS,
  indexRows,
  prefixScan,
  SOE_VARIANTS,
  TABLES,
  zipMonthPrefix,
  zipPrefix,
  type IndexedFields,
} from './hbase-soe.ts';

const MANIFEST_ROW = 'manifest';
const col = (field: string) => `${FAMILY}:${field}`;

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'rowkey-scan',
      description:
        'scan of the index rows country/<country>/<customer id>: offset + limit rows in id order, the first offset dropped, one request',
    },
  ],
  join: [
    {
      name: 'zip-month-rowkey',
      description:
        "one scan of zipmonth/<zip>/<month>/ (each order's sale price under its customer's zip and its month, written with the order); SUM in the client",
    },
    {
      name: 'app-join',
      description:
        "scan of zip/<zip>/, multi-get of the customers' order_list, multi-get of the orders' month and sale_price; filter and SUM in the client",
    },
  ],
};

const LAYOUT = [
  'hbase: one row per document (row key = id), one column per top-level field holding its JSON text',
  "hbase: an index table the application writes with each customer: row-key ranges per country, zip, zip+month (with each order's sale price), (country, age group, birth year), previous zip, visited (country, city), and device -> customer",
  'hbase: pagination is one row-key range scan; the JOIN is a scan of the zip+month rows, or application-side (a scan and two multi-gets)',
];

function cellsOf(doc: object): Cell[] {
  return Object.entries(doc).map(([field, value]) => ({ column: col(field), value: JSON.stringify(value) }));
}

function docOf<T>(row: Row | null): T | null {
  if (row === null || row.cells.length === 0) return null;
  const doc: Record<string, unknown> = {};
  for (const cell of row.cells) doc[cell.column.slice(FAMILY.length + 1)] = JSON.parse(cell.value);
  return doc as T;
}

/** An existing customer id was inserted again. */
class CustomerExistsError extends Error {}

class HbaseDialect implements EcommerceDialect, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout = LAYOUT;
  readonly readsOwnWrites = true;
  readonly soe: HbaseSoe;

  constructor(private readonly hbase: HbaseHandle) {
    this.soe = new HbaseSoe(hbase);
  }

  async drop(): Promise<void> {
    for (const table of Object.values(TABLES)) await this.hbase.dropTable(table);
  }

  async prepare(): Promise<void> {
    for (const table of [TABLES.customers, TABLES.orders, TABLES.meta]) await this.hbase.ensureTable(table, [FAMILY]);
    await this.hbase.ensureTable(TABLES.index, [INDEX_FAMILY]);
  }

  async insertMany(batch: SeedBatch): Promise<void> {
    const ordersOf = new Map<string, Order[]>();
    for (const o of batch.orders) ordersOf.set(o.customer_id, [...(ordersOf.get(o.customer_id) ?? []), o]);
    await this.hbase.put(
      TABLES.customers,
      batch.customers.map((c) => ({ key: c._id, cells: cellsOf(c) })),
    );
    await this.hbase.put(
      TABLES.orders,
      batch.orders.map((o) => ({ key: o._id, cells: cellsOf(o) })),
    );
    await this.hbase.put(
      TABLES.index,
      batch.customers.flatMap((c) => indexRows(c, ordersOf.get(c._id))),
    );
  }

  async readManifest(): Promise<Manifest | null> {
    const row = await this.hbase.get(TABLES.meta, MANIFEST_ROW);
    const cell = row?.cells.find((c) => c.column === col('json'));
    return cell ? (JSON.parse(cell.value) as Manifest) : null;
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.hbase.put(TABLES.meta, [
      { key: MANIFEST_ROW, cells: [{ column: col('json'), value: JSON.stringify(manifest) }] },
    ]);
  }

  /** Each customer's indexed fields are read back first: its index rows are made from them. */
  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    if (customers.length === 0) return;
    const stored = await this.soe.fetchColumns(
      TABLES.customers,
      customers.map((c) => c.id),
      INDEXED_FIELDS.map(col),
    );
    for (const row of stored) {
      const fields = docOf<IndexedFields>(row);
      if (fields === null) continue;
      for (const index of indexRows(fields)) await this.hbase.deleteRow(TABLES.index, index.key);
      await this.hbase.deleteRow(TABLES.customers, row.key);
    }
  }

  async pagination(_variant: string, params: PageParams): Promise<string[]> {
    return this.soe.page(countryPrefix(params.country), params.offset, params.limit);
  }

  async join(variant: string, params: JoinParams): Promise<JoinRow[]> {
    return (await this.joinReads(variant, params)).rows;
  }

  private async joinReads(
    variant: string,
    params: JoinParams,
  ): Promise<{ customers: number; orders: number; rows: JoinRow[] }> {
    let sum = 0;
    let matched = 0;
    let customers = 0;
    let orders = 0;
    if (variant === 'zip-month-rowkey') {
      const rows = await this.hbase.scan(TABLES.index, prefixScan(zipMonthPrefix(params.zip, params.month)));
      orders = rows.length;
      for (const row of rows) {
        sum += Number(row.cells.find((c) => c.column === `${INDEX_FAMILY}:sale_price`)!.value);
        matched++;
      }
    } else if (variant === 'app-join') {
      const ids = await this.soe.page(zipPrefix(params.zip));
      customers = ids.length;
      const orderIds: string[] = [];
      for (const row of await this.soe.fetchColumns(TABLES.customers, ids, [col('order_list')]))
        orderIds.push(...(docOf<Pick<Customer, 'order_list'>>(row)?.order_list ?? []));
      orders = orderIds.length;
      for (const row of await this.soe.fetchColumns(TABLES.orders, orderIds, [col('month'), col('sale_price')])) {
        const order = docOf<Pick<Order, 'month' | 'sale_price'>>(row);
        if (order === null || order.month !== params.month) continue;
        sum += order.sale_price;
        matched++;
      }
    } else throw new Error(`hbase: unknown JOIN variant "${variant}"`);
    return {
      customers,
      orders,
      rows: matched === 0 ? [] : [{ month: params.month, zip: params.zip, sale_price: sum }],
    };
  }

  async explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    if (request.kind === 'pagination') {
      const { country, offset, limit } = request.params;
      const step = await this.soe.indexStep(countryPrefix(country), offset + limit);
      return { ...combineEvidence([step]), indexExpected: true };
    }
    if (request.kind !== 'join') return this.soe.explain(request);
    const { zip, month } = request.params;
    if (variant === 'zip-month-rowkey')
      return { ...combineEvidence([await this.soe.indexStep(zipMonthPrefix(zip, month))]), indexExpected: true };
    const reads = await this.joinReads(variant, request.params);
    const get = (table: string, n: number, what: string): { label: string; plan: PlanEvidence } => ({
      label: table,
      plan: {
        access: 'key',
        used: [`${table} (row keys)`],
        documentsExamined: n,
        returned: n,
        warnings: [],
        source: 'multi-get by row key',
        raw: `GET ${table}/multiget of ${n} rows (${what})`,
      },
    });
    const joined = combineEvidence([
      await this.soe.indexStep(zipPrefix(zip)),
      get(TABLES.customers, reads.customers, 'order_list'),
      get(TABLES.orders, reads.orders, 'month, sale_price'),
    ]);
    return { ...joined, returned: reads.rows.length, indexExpected: true };
  }

  async readCustomer(id: string): Promise<Customer | null> {
    return docOf<Customer>(await this.hbase.get(TABLES.customers, id));
  }

  async readOrder(id: string): Promise<Order | null> {
    return docOf<Order>(await this.hbase.get(TABLES.orders, id));
  }

  async insertCustomer(customer: Customer): Promise<void> {
    const inserted = await this.hbase.checkAndPut(TABLES.customers, customer._id, cellsOf(customer), {
      column: col('_id'),
      value: '',
    });
    if (!inserted)
      throw new CustomerExistsError(`hbase: customer ${customer._id} exists (checkAndPut refused the insert)`);
    await this.hbase.put(TABLES.index, indexRows(customer));
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    const idCell = { column: col('_id'), value: JSON.stringify(id) };
    return this.hbase.checkAndPut(TABLES.customers, id, [...cellsOf(patch), idCell], idCell);
  }
}

export const dialect: EcommerceDialectDefinition<'hbase'> = {
  store: 'hbase',
  create: (handle) => new HbaseDialect(handle),
};
