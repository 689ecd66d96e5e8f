/**
 * PostgreSQL (node-postgres): the e-commerce scenario on JSONB, as a PostgreSQL developer keeps
 * documents: two tables, `ecommerce_customers` and `ecommerce_orders`, each row a key and the
 * document (`id text COLLATE "C" PRIMARY KEY, doc jsonb`), the manifest in `ecommerce_meta`.
 * Keys are "C"-collated so that id order is byte order on any server, whatever its default.
 *
 * Indexes, expression indexes built after the load (then ANALYZE, so the planner knows the data):
 *   customers  ((doc->'address'->>'country'), id)  (paginationindex=country-id, the default): the
 *                                                   country's page in id order straight from
 *                                                   the index, as MongoDB's {address.country, _id}
 *              ((doc->'address'->>'country'))      (paginationindex=country) Altoros 2022's own
 *              ((doc->'address'->>'zip'))          the JOIN's filter
 *   orders     the primary key: the JOIN follows each customer's order_list by key
 *
 * Operations
 *   pagination  SELECT id … WHERE (doc->'address'->>'country') = $1 ORDER BY id OFFSET $2 LIMIT $3
 *               (ordered=false: no ORDER BY, as Altoros 2022)
 *   join        SELECT month, zip, sum(sale_price) FROM customers c
 *               CROSS JOIN LATERAL jsonb_array_elements_text(c.doc->'order_list')
 *               JOIN orders o ON o.id = the element WHERE zip = $1 AND month = $2
 *               GROUP BY month, zip ORDER BY the sum: the JOIN of Altoros 2022 §4.4 in SQL, the
 *               sum in numeric (exact)
 *   insert      INSERT (a duplicate key, 23505, is an error)
 *   update      UPDATE … SET doc = doc || $2 (the changed fields); the row count says whether it existed
 *   read        SELECT doc WHERE id = $1
 * Without indexes every statement is named: each pooled connection prepares it once. With them,
 * each query runs with `SET LOCAL enable_seqscan = off` in the same round trip (its values written
 * as literals, the simple protocol taking no parameters): documents of ~4 KB live in TOAST, so at a
 * test's size the table looks tiny and the planner would read it rather than the index; the
 * setting gives every size the plan a large dataset gets.
 * YCSB-JSON's other queries and their indexes: postgres-soe.ts.
 * Without `--indexes` no expression index is built: every query reads the whole table.
 * One server, no replica in the path: a query sees every committed write.
 * Plans: EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the same statement.
 */
import { quoteIdent, type PostgresHandle } from '../../../src/stores/postgres/handle.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  CustomerKey,
  EcommerceContext,
  EcommerceDialect,
  EcommerceDialectDefinition,
  ExplainRequest,
  IndexBuilder,
  Manifest,
  PaginationIndex,
  QueryExplainer,
  QueryVariant,
  SeedBatch,
} from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { Customer, CustomerPatch, Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import { EXPR, explainRun, PostgresSoe, runStatement, SOE_INDEXES, SOE_VARIANTS } from './postgres-soe.ts';

const MANIFEST_ID = 'manifest';
const C = quoteIdent(NAMES.customers);
const O = quoteIdent(NAMES.orders);
const M = quoteIdent(NAMES.meta);

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'sql',
      description:
        "SELECT id WHERE (doc->'address'->>'country') = $1 ORDER BY id OFFSET LIMIT on an expression index (ordered=false: no ORDER BY, as Altoros 2022)",
    },
  ],
  join: [
    {
      name: 'join',
      description:
        'SELECT month, zip, sum(sale_price) FROM customers JOIN LATERAL order_list JOIN orders ON o.id WHERE zip, month GROUP BY month, zip ORDER BY the sum',
    },
  ],
};

const SQL = {
  pageOrdered: `SELECT id FROM ${C} WHERE ${EXPR.country} = $1 ORDER BY id OFFSET $2 LIMIT $3`,
  pageUnordered: `SELECT id FROM ${C} WHERE ${EXPR.country} = $1 OFFSET $2 LIMIT $3`,
  join:
    `SELECT (o.doc->>'month')::int AS month, c.doc->'address'->>'zip' AS zip, sum((o.doc->>'sale_price')::numeric) AS sale_price ` +
    `FROM ${C} c CROSS JOIN LATERAL jsonb_array_elements_text(c.doc->'order_list') AS l(order_id) JOIN ${O} o ON o.id = l.order_id ` +
    `WHERE (c.doc->'address'->>'zip') = $1 AND (o.doc->'month') = to_jsonb($2::int) ` +
    `GROUP BY 1, 2 ORDER BY 3`,
  readCustomer: `SELECT doc FROM ${C} WHERE id = $1`,
  readOrder: `SELECT doc FROM ${O} WHERE id = $1`,
  insertCustomer: `INSERT INTO ${C} (id, doc) VALUES ($1, $2::jsonb)`,
  updateCustomer: `UPDATE ${C} SET doc = doc || $2::jsonb WHERE id = $1`,
} as const;

function countryIndex(pagination: PaginationIndex): { name: string; on: string } {
  return pagination === 'country'
    ? { name: 'ecommerce_country', on: `${C} (${EXPR.country})` }
    : { name: 'ecommerce_country_id', on: `${C} (${EXPR.country}, id)` };
}

function layout(indexes: boolean, pagination: PaginationIndex): string[] {
  return [
    `postgres: tables ${NAMES.customers} and ${NAMES.orders} (id text COLLATE "C" PRIMARY KEY, doc jsonb); the manifest in ${NAMES.meta}`,
    indexes
      ? `postgres: expression indexes ${countryIndex(pagination).on.slice(C.length + 1)} (the pagination's), (${EXPR.zip}), ${SOE_INDEXES.map((i) => i.name).join(', ')} on customers; orders by primary key; built after the load, then ANALYZE`
      : 'postgres: no expression index (indexes=false): every query reads the whole table',
    'postgres: one server: queries see every committed write',
  ];
}

class PostgresDialect implements EcommerceDialect, IndexBuilder, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout: readonly string[];
  readonly readsOwnWrites = true;
  readonly soe: PostgresSoe;
  private readonly indexes: boolean;
  private readonly paginationIndex: PaginationIndex;

  constructor(
    private readonly handle: PostgresHandle,
    context: EcommerceContext,
  ) {
    this.indexes = context.indexes ?? true;
    this.paginationIndex = context.paginationIndex ?? 'country-id';
    this.layout = layout(this.indexes, this.paginationIndex);
    this.soe = new PostgresSoe(handle, this.indexes);
  }

  async drop(): Promise<void> {
    await this.handle.query(`DROP TABLE IF EXISTS ${C}, ${O}, ${M}`);
  }

  async prepare(): Promise<void> {
    for (const t of [C, O, M])
      await this.handle.query(`CREATE TABLE IF NOT EXISTS ${t} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`);
  }

  async insertMany(batch: SeedBatch): Promise<void> {
    await this.insertRows(C, batch.customers);
    await this.insertRows(O, batch.orders);
  }

  private async insertRows(table: string, docs: readonly (Customer | Order)[]): Promise<void> {
    if (docs.length === 0) return;
    await this.handle.query(`INSERT INTO ${table} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])`, [
      docs.map((d) => d._id),
      docs.map((d) => JSON.stringify(d)),
    ]);
  }

  async buildIndexes(): Promise<string[]> {
    if (this.indexes) {
      for (const index of [
        countryIndex(this.paginationIndex),
        { name: 'ecommerce_zip', on: `${C} (${EXPR.zip})` },
        ...SOE_INDEXES,
      ])
        await this.handle.query(`CREATE INDEX IF NOT EXISTS ${index.name} ON ${index.on}`);
    }
    // Statistics of the loaded data (autovacuum would take them later): the planner's estimates.
    await this.handle.query(`ANALYZE ${C}, ${O}`);
    return this.indexes
      ? [
          `postgres: built ${countryIndex(this.paginationIndex).name}, ecommerce_zip and YCSB-JSON's query indexes (${SOE_INDEXES.map((i) => i.name).join(', ')}) on customers (CREATE INDEX), then ANALYZE`,
        ]
      : ['postgres: no expression index built (indexes=false); ANALYZE'];
  }

  async readManifest(): Promise<Manifest | null> {
    try {
      const rows = await this.handle.query<{ doc: Manifest }>(`SELECT doc FROM ${M} WHERE id = $1`, [MANIFEST_ID]);
      return rows[0]?.doc ?? null;
    } catch (error) {
      // 42P01: no such table: nothing seeded.
      if ((error as { code?: string }).code === '42P01') return null;
      throw error;
    }
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.handle.query(
      `INSERT INTO ${M} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [MANIFEST_ID, JSON.stringify(manifest)],
    );
  }

  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    if (customers.length === 0) return;
    await this.handle.query(`DELETE FROM ${C} WHERE id = ANY($1::text[])`, [customers.map((c) => c.id)]);
  }

  private pageStatement(params: PageParams) {
    return params.ordered === false
      ? {
          name: 'ecommerce_page_unordered',
          text: SQL.pageUnordered,
          values: [params.country, params.offset, params.limit],
        }
      : { name: 'ecommerce_page', text: SQL.pageOrdered, values: [params.country, params.offset, params.limit] };
  }

  async pagination(variant: string, params: PageParams): Promise<string[]> {
    checkVariant('pagination', variant);
    if (params.limit <= 0) return [];
    const rows = await runStatement<{ id: string }>(this.handle, this.indexes, this.pageStatement(params));
    return rows.map((r) => r.id);
  }

  async join(variant: string, params: JoinParams): Promise<JoinRow[]> {
    checkVariant('join', variant);
    const rows = await runStatement<{ month: number; zip: string; sale_price: string }>(
      this.handle,
      this.indexes,
      this.joinStatement(params),
    );
    // numeric arrives as text (node-postgres keeps its precision); the sum has two decimals.
    return rows.map((r) => ({ month: r.month, zip: r.zip, sale_price: Number(r.sale_price) }));
  }

  private joinStatement(params: JoinParams) {
    return { name: 'ecommerce_join', text: SQL.join, values: [params.zip, params.month] };
  }

  explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    checkVariant(request.kind, variant);
    if (request.kind === 'pagination') return explainRun(this.handle, this.indexes, this.pageStatement(request.params));
    if (request.kind === 'join') return explainRun(this.handle, this.indexes, this.joinStatement(request.params));
    return this.soe.explain(request);
  }

  async readCustomer(id: string): Promise<Customer | null> {
    const rows = await this.handle.query<{ doc: Customer }>({
      name: 'ecommerce_read_customer',
      text: SQL.readCustomer,
      values: [id],
    });
    return rows[0]?.doc ?? null;
  }

  async readOrder(id: string): Promise<Order | null> {
    const rows = await this.handle.query<{ doc: Order }>({
      name: 'ecommerce_read_order',
      text: SQL.readOrder,
      values: [id],
    });
    return rows[0]?.doc ?? null;
  }

  async insertCustomer(customer: Customer): Promise<void> {
    await this.handle.query({
      name: 'ecommerce_insert_customer',
      text: SQL.insertCustomer,
      values: [customer._id, JSON.stringify(customer)],
    });
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    const result = await this.handle.result({
      name: 'ecommerce_update_customer',
      text: SQL.updateCustomer,
      values: [id, JSON.stringify(patch)],
    });
    return (result.rowCount ?? 0) === 1;
  }
}

function checkVariant(kind: QueryKind, variant: string): void {
  if (!VARIANTS[kind].some((v) => v.name === variant))
    throw new Error(`postgres: unknown ${kind} variant "${variant}"`);
}

export const dialect: EcommerceDialectDefinition<'postgres'> = {
  store: 'postgres',
  create: (handle, context) => new PostgresDialect(handle, context),
};
