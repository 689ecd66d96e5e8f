/**
 * Cassandra: the e-commerce scenario modelled query-first, as Cassandra's data-modelling guide
 * teaches: one table per question, the data written to each, joins and aggregates in the
 * application. (SAI indexes could filter `address.country`, but they cannot return a page in
 * customer-id order across partitions, which the pagination needs; query tables can.)
 *
 * Tables (in the store's keyspace):
 *   ecommerce_customers         the customer by id; nested parts as user-defined types
 *                               (address, prev_address, owner, child, visited_place)
 *   ecommerce_orders            the order by id
 *   ecommerce_customers_by_country  PRIMARY KEY ((country), customer_id): a country's customers
 *                               in one partition, clustered by id, so a page is a slice of it
 *   ecommerce_customers_by_zip  PRIMARY KEY ((zip), customer_id)
 *   ecommerce_orders_by_customer    PRIMARY KEY ((customer_id), month, order_id), sale_price
 *   ecommerce_orders_by_zip_month   PRIMARY KEY ((zip, month), order_id), sale_price: the
 *                               report's table, the customer's zip copied onto each order at write
 *   ecommerce_meta              the manifest
 *
 * Operations
 *   pagination  SELECT customer_id FROM customers_by_country WHERE country = ? LIMIT offset+limit,
 *               the first `offset` rows skipped in the client (CQL has no OFFSET; for offsets
 *               up to 5 that is what an application does).
 *   join        two variants, both summed in the client:
 *               `zip-month-table`  one partition read of orders_by_zip_month: the join was done
 *                                  when the orders were written (the Cassandra way);
 *               `app-join`         customers_by_zip, then orders_by_customer WHERE customer_id = ?
 *                                  AND month = ? for each customer, concurrently.
 *   insert      a LOGGED BATCH over customers, customers_by_country and customers_by_zip, so a
 *               customer never exists in one table and not the others.
 *   update      UPDATE … SET the four changed columns. Like every Cassandra write it is an upsert
 *               (it cannot tell a missing customer without a lightweight transaction); the
 *               workloads only update seeded customers.
 * Pagination without ORDER BY (`ordered=false`) reads the same slice: a partition has one order.
 * YCSB-JSON's other queries and their tables: cassandra-soe.ts. All these tables are the data
 * model (CQL has no other way to answer the questions): `indexes=false` changes nothing here.
 * Seeding writes every table with the driver's executeConcurrent (unlogged, bounded concurrency).
 * The keyspace is the store's, created when missing with the store's `cassandra.replication`.
 * Plans: each statement executed once more with query tracing (which table and partition it
 * read; `app-join` traces the zip's customers and the first customer's orders).
 *
 *
 * Trade-off, stated plainly: a country is one partition (about 30% of all customers for the
 * largest), fine at this benchmark's sizes; at tens of millions a production model would add a
 * bucket to the partition key and page across buckets.
 */
import cassandra from 'cassandra-driver';
import { cqlIdentifier, type CassandraHandle } from '../../../src/stores/cassandra/handle.ts';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  CustomerKey,
  EcommerceDialect,
  ExplainRequest,
  IndexBuilder,
  Manifest,
  QueryExplainer,
  QueryVariant,
  SeedBatch,
  EcommerceDialectDefinition,
} from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { Customer, CustomerPatch, Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import { CassandraSoe, SOE_LAYOUT, SOE_VARIANTS, type Statement } from './cassandra-soe.ts';

/** In-flight statements while seeding (the driver allows 2048 per connection; stay well below). */
const SEED_CONCURRENCY = 128;
/** In-flight order queries of one application-side JOIN. */
const JOIN_CONCURRENCY = 32;

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'query-table',
      description:
        'customers_by_country (partition country, clustered by customer_id): LIMIT offset+limit, first offset rows skipped in the client',
    },
  ],
  join: [
    {
      name: 'zip-month-table',
      description: 'one partition of orders_by_zip_month (zip copied onto each order when written); SUM in the client',
    },
    {
      name: 'app-join',
      description:
        'customers_by_zip, then orders_by_customer WHERE customer_id = ? AND month = ? per customer (concurrent); SUM in the client',
    },
  ],
};

const LAYOUT = [
  'cassandra: query-first tables: customers/orders by id, customers_by_country and customers_by_zip (clustered by id), orders_by_customer (clustered by month), orders_by_zip_month',
  'cassandra: nested customer parts as user-defined types; a sign-up is one LOGGED BATCH over its three tables',
  'cassandra: no OFFSET in CQL: LIMIT offset+limit and skip in the client; JOIN and SUM in the client',
  SOE_LAYOUT,
];

const CUSTOMER_COLUMNS = [
  'id',
  'doc_id',
  'gid',
  'first_name',
  'middle_name',
  'last_name',
  'ballance_current',
  'dob',
  'email',
  'is_active',
  'linear_score',
  'weighted_score',
  'phone_country',
  'phone_by_country',
  'age_group',
  'age_by_group',
  'url_protocol',
  'url_site',
  'url_domain',
  'url',
  'devices',
  'linked_devices',
  'address',
  'children',
  'visited_places',
  'order_list',
] as const;

const ORDER_COLUMNS = [
  'id',
  'customer_id',
  'year',
  'month',
  'day',
  'weekday',
  'quantity',
  'list_price',
  'discount_amount_percent',
  'sale_price',
  'tax',
  'coupon',
  'department',
  'product_name',
] as const;

class CassandraDialect implements EcommerceDialect, IndexBuilder, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout = LAYOUT;
  readonly readsOwnWrites = true;
  readonly soe: CassandraSoe;
  private readonly client: cassandra.Client;
  private readonly keyspace: string;
  private readonly ks: string;
  private readonly q: Record<string, string>;

  constructor(private readonly handle: CassandraHandle) {
    this.client = handle.client;
    this.keyspace = handle.keyspace;
    this.ks = cqlIdentifier(this.keyspace);
    const t = (name: string) => `${this.ks}.${name}`;
    const c = t(NAMES.customers);
    const o = t(NAMES.orders);
    this.soe = new CassandraSoe(handle, t, c);
    this.q = {
      insertCustomer: `INSERT INTO ${c} (${CUSTOMER_COLUMNS.join(', ')}) VALUES (${CUSTOMER_COLUMNS.map(() => '?').join(', ')})`,
      insertOrder: `INSERT INTO ${o} (${ORDER_COLUMNS.join(', ')}) VALUES (${ORDER_COLUMNS.map(() => '?').join(', ')})`,
      insertByCountry: `INSERT INTO ${t('ecommerce_customers_by_country')} (country, customer_id) VALUES (?, ?)`,
      insertByZip: `INSERT INTO ${t('ecommerce_customers_by_zip')} (zip, customer_id) VALUES (?, ?)`,
      insertByCustomer: `INSERT INTO ${t('ecommerce_orders_by_customer')} (customer_id, month, order_id, sale_price) VALUES (?, ?, ?, ?)`,
      insertByZipMonth: `INSERT INTO ${t('ecommerce_orders_by_zip_month')} (zip, month, order_id, sale_price) VALUES (?, ?, ?, ?)`,
      page: `SELECT customer_id FROM ${t('ecommerce_customers_by_country')} WHERE country = ? LIMIT ?`,
      zipMonth: `SELECT sale_price FROM ${t('ecommerce_orders_by_zip_month')} WHERE zip = ? AND month = ?`,
      customersByZip: `SELECT customer_id FROM ${t('ecommerce_customers_by_zip')} WHERE zip = ?`,
      ordersOfCustomerInMonth: `SELECT sale_price FROM ${t('ecommerce_orders_by_customer')} WHERE customer_id = ? AND month = ?`,
      readCustomer: `SELECT * FROM ${c} WHERE id = ?`,
      readOrder: `SELECT * FROM ${o} WHERE id = ?`,
      update: `UPDATE ${c} SET ballance_current = ?, linear_score = ?, weighted_score = ?, is_active = ? WHERE id = ?`,
      deleteCustomer: `DELETE FROM ${c} WHERE id = ?`,
      deleteByCountry: `DELETE FROM ${t('ecommerce_customers_by_country')} WHERE country = ? AND customer_id = ?`,
      deleteByZip: `DELETE FROM ${t('ecommerce_customers_by_zip')} WHERE zip = ? AND customer_id = ?`,
      readManifest: `SELECT manifest FROM ${t(NAMES.meta)} WHERE name = 'manifest'`,
      writeManifest: `INSERT INTO ${t(NAMES.meta)} (name, manifest) VALUES ('manifest', ?)`,
    };
  }

  /** Types before tables, inner types before outer ones. */
  private ddl(): string[] {
    const ks = this.ks;
    return [
      `CREATE TYPE IF NOT EXISTS ${ks}.ecommerce_owner (first_name text, middle_name text, last_name text, phone text)`,
      `CREATE TYPE IF NOT EXISTS ${ks}.ecommerce_prev_address (street text, city text, country text, zip text, property_current_owner frozen<ecommerce_owner>)`,
      `CREATE TYPE IF NOT EXISTS ${ks}.ecommerce_address (street text, city text, zip text, country text, geo_region text, prev_address frozen<ecommerce_prev_address>)`,
      `CREATE TYPE IF NOT EXISTS ${ks}.ecommerce_child (first_name text, gender text, age int)`,
      `CREATE TYPE IF NOT EXISTS ${ks}.ecommerce_visited_place (country text, cities list<text>)`,
      `CREATE TABLE IF NOT EXISTS ${ks}.${NAMES.customers} (id text PRIMARY KEY, doc_id bigint, gid text, first_name text, middle_name text, last_name text,
        ballance_current text, dob text, email text, is_active boolean, linear_score int, weighted_score int, phone_country text,
        phone_by_country text, age_group text, age_by_group int, url_protocol text, url_site text, url_domain text, url text,
        devices list<text>, linked_devices list<frozen<list<text>>>, address frozen<ecommerce_address>, children list<frozen<ecommerce_child>>,
        visited_places list<frozen<ecommerce_visited_place>>, order_list list<text>)`,
      `CREATE TABLE IF NOT EXISTS ${ks}.${NAMES.orders} (id text PRIMARY KEY, customer_id text, year int, month int, day int, weekday text,
        quantity int, list_price double, discount_amount_percent int, sale_price double, tax double, coupon text, department text, product_name text)`,
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_customers_by_country (country text, customer_id text, PRIMARY KEY ((country), customer_id)) WITH CLUSTERING ORDER BY (customer_id ASC)`,
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_customers_by_zip (zip text, customer_id text, PRIMARY KEY ((zip), customer_id))`,
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_orders_by_customer (customer_id text, month int, order_id text, sale_price double, PRIMARY KEY ((customer_id), month, order_id))`,
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_orders_by_zip_month (zip text, month int, order_id text, sale_price double, PRIMARY KEY ((zip, month), order_id))`,
      `CREATE TABLE IF NOT EXISTS ${ks}.${NAMES.meta} (name text PRIMARY KEY, manifest text)`,
      ...this.soe.ddl(ks),
    ];
  }

  async drop(): Promise<void> {
    const tables = [
      NAMES.customers,
      NAMES.orders,
      'ecommerce_customers_by_country',
      'ecommerce_customers_by_zip',
      'ecommerce_orders_by_customer',
      'ecommerce_orders_by_zip_month',
      NAMES.meta,
      ...this.soe.tables,
    ];
    if (!(await this.keyspaceExists())) return;
    for (const table of tables) await this.client.execute(`DROP TABLE IF EXISTS ${this.ks}.${table}`);
    for (const type of [
      'ecommerce_address',
      'ecommerce_prev_address',
      'ecommerce_owner',
      'ecommerce_child',
      'ecommerce_visited_place',
    ]) {
      await this.client.execute(`DROP TYPE IF EXISTS ${this.ks}.${type}`);
    }
  }

  private async keyspaceExists(): Promise<boolean> {
    const rows = await this.client.execute(
      'SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?',
      [this.keyspace],
      { prepare: true },
    );
    return rows.rowLength > 0;
  }

  async prepare(): Promise<void> {
    // The store's keyspace when it exists; otherwise created with `cassandra.replication`, as the YCSB tables are.
    await this.handle.ensureKeyspace();
    for (const statement of this.ddl()) await this.client.execute(statement);
  }

  private customerRow(c: Customer): unknown[] {
    return [
      c._id,
      c.doc_id,
      c.gid,
      c.first_name,
      c.middle_name,
      c.last_name,
      c.ballance_current,
      c.dob,
      c.email,
      c.isActive,
      c.linear_score,
      c.weighted_score,
      c.phone_country,
      c.phone_by_country,
      c.age_group,
      c.age_by_group,
      c.url_protocol,
      c.url_site,
      c.url_domain,
      c.url,
      c.devices,
      c.linked_devices,
      c.address,
      c.children,
      c.visited_places,
      c.order_list,
    ];
  }

  private customerStatements(c: Customer): Statement[] {
    return [
      { query: this.q.insertCustomer, params: this.customerRow(c) },
      { query: this.q.insertByCountry, params: [c.address.country, c._id] },
      { query: this.q.insertByZip, params: [c.address.zip, c._id] },
      ...this.soe.statements(c),
    ];
  }

  async buildIndexes(): Promise<string[]> {
    return [await this.soe.buildIndexes()];
  }

  async insertMany(batch: SeedBatch): Promise<void> {
    const zipOf = new Map(batch.customers.map((c) => [c._id, c.address.zip]));
    const statements: Statement[] = batch.customers.flatMap((c) => this.customerStatements(c));
    for (const o of batch.orders) {
      const zip = zipOf.get(o.customer_id);
      if (zip === undefined) throw new Error(`order ${o._id} came without its customer ${o.customer_id} in the batch`);
      statements.push(
        { query: this.q.insertOrder, params: ORDER_COLUMNS.map((col) => (col === 'id' ? o._id : o[col])) },
        { query: this.q.insertByCustomer, params: [o.customer_id, o.month, o._id, o.sale_price] },
        { query: this.q.insertByZipMonth, params: [zip, o.month, o._id, o.sale_price] },
      );
    }
    await cassandra.concurrent.executeConcurrent(this.client, statements as { query: string; params: any[] }[], {
      concurrencyLevel: SEED_CONCURRENCY,
    });
  }

  async readManifest(): Promise<Manifest | null> {
    if (!(await this.keyspaceExists())) return null;
    try {
      const row = (await this.client.execute(this.q.readManifest)).first();
      return row ? (JSON.parse(row.get('manifest') as string) as Manifest) : null;
    } catch (error) {
      if (error instanceof cassandra.errors.ResponseError && error.code === cassandra.types.responseErrorCodes.invalid)
        return null; // no table yet
      throw error;
    }
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.client.execute(this.q.writeManifest, [JSON.stringify(manifest)], { prepare: true });
  }

  /** The rows of YCSB-JSON's query tables are made from the customer's fields: read first, then everything deleted. */
  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    const stored = await this.soe.indexedFields(customers.map((c) => c.id));
    const statements: Statement[] = [
      ...stored.flatMap((c) => this.soe.statements(c, true)),
      ...customers.flatMap((c) => [
        { query: this.q.deleteCustomer!, params: [c.id] },
        { query: this.q.deleteByCountry!, params: [c.country, c.id] },
        { query: this.q.deleteByZip!, params: [c.zip, c.id] },
      ]),
    ];
    if (statements.length > 0)
      await cassandra.concurrent.executeConcurrent(this.client, statements as { query: string; params: any[] }[], {
        concurrencyLevel: SEED_CONCURRENCY,
      });
  }

  async pagination(_variant: string, params: PageParams): Promise<string[]> {
    // One page of offset+limit rows (the driver's default page of 5,000 would cut a deep page short).
    const rows = await this.client.execute(this.q.page, [params.country, params.offset + params.limit], {
      prepare: true,
      fetchSize: params.offset + params.limit,
    });
    return rows.rows.slice(params.offset).map((r) => r.get('customer_id') as string);
  }

  async join(variant: string, params: JoinParams): Promise<JoinRow[]> {
    let sum = 0;
    let matched = 0;
    if (variant === 'zip-month-table') {
      // Auto-paging iteration: a busy zip's partition may span several pages.
      for await (const row of await this.client.execute(this.q.zipMonth, [params.zip, params.month], {
        prepare: true,
      })) {
        sum += row.get('sale_price') as number;
        matched++;
      }
    } else if (variant === 'app-join') {
      for (const price of (await this.appJoin(params)).prices) {
        sum += price;
        matched++;
      }
    } else {
      throw new Error(`unknown join variant "${variant}"`);
    }
    return matched === 0 ? [] : [{ month: params.month, zip: params.zip, sale_price: sum }];
  }

  /** `app-join`'s reads: the zip's customers, then each one's orders of the month. */
  private async appJoin(params: JoinParams): Promise<{ customers: string[]; prices: number[] }> {
    const customers = (
      await this.client.execute(this.q.customersByZip, [params.zip], { prepare: true, fetchSize: 100_000 })
    ).rows.map((r) => r.get('customer_id') as string);
    // One query per customer of the zip, a bounded number in flight: a busy zip times the
    // runner's workers must stay below the driver's in-flight limit per connection.
    const perCustomer = await cassandra.concurrent.executeConcurrent(
      this.client,
      this.q.ordersOfCustomerInMonth,
      customers.map((id) => [id, params.month]),
      { concurrencyLevel: JOIN_CONCURRENCY, collectResults: true },
    );
    return {
      customers,
      prices: perCustomer.resultItems.flatMap((result) =>
        result.rows.map((row: cassandra.types.Row) => row.get('sale_price') as number),
      ),
    };
  }

  async explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    if (request.kind !== 'pagination' && request.kind !== 'join') return this.soe.explain(request);
    if (request.kind === 'pagination') {
      const { country, offset, limit } = request.params;
      return {
        ...(await this.handle.trace(this.q.page, [country, offset + limit], offset + limit)),
        indexExpected: true,
      };
    }
    const { zip, month } = request.params;
    if (variant === 'zip-month-table')
      return { ...(await this.handle.trace(this.q.zipMonth, [zip, month])), indexExpected: true };
    if (variant !== 'app-join') throw new Error(`unknown join variant "${variant}"`);
    const { customers, prices } = await this.appJoin(request.params);
    const steps = [
      { label: "the zip's customers", plan: await this.handle.trace(this.q.customersByZip, [zip], 100_000) },
    ];
    if (customers.length > 0) {
      const first = await this.handle.trace(this.q.ordersOfCustomerInMonth, [customers[0], month]);
      // One partition read per customer, all alike: the first one traced stands for the others.
      steps.push({
        label: `orders of each of ${customers.length} customers (the first traced)`,
        plan: { ...first, used: first.used.map((u) => `${u} ×${customers.length}`) },
      });
    }
    // Rows read: the zip's customers, and every customer's orders of the month (all of them, not only the traced one's).
    return {
      ...combineEvidence(steps),
      documentsExamined: customers.length + prices.length,
      returned: prices.length,
      indexExpected: true,
    };
  }

  async readCustomer(id: string): Promise<Customer | null> {
    const row = (await this.client.execute(this.q.readCustomer, [id], { prepare: true })).first();
    return row ? customerFromRow(row) : null;
  }

  async readOrder(id: string): Promise<Order | null> {
    const row = (await this.client.execute(this.q.readOrder, [id], { prepare: true })).first();
    if (!row) return null;
    const order: Record<string, unknown> = { _id: row.get('id') };
    for (const col of ORDER_COLUMNS) if (col !== 'id') order[col] = row.get(col);
    return order as unknown as Order;
  }

  async insertCustomer(customer: Customer): Promise<void> {
    await this.client.batch(this.customerStatements(customer) as { query: string; params: any[] }[], {
      prepare: true,
      logged: true,
    });
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    await this.client.execute(
      this.q.update,
      [patch.ballance_current, patch.linear_score, patch.weighted_score, patch.isActive, id],
      { prepare: true },
    );
    return true;
  }
}

/** A row as the scenario's document: column names back to field names, empty collections back to []. */
function customerFromRow(row: cassandra.types.Row): Customer {
  // Cassandra stores an empty collection as no value at all.
  const list = <T>(value: unknown): T[] => (value === null || value === undefined ? [] : (value as T[]));
  const address = row.get('address') as Customer['address'];
  return {
    _id: row.get('id'),
    doc_id: (row.get('doc_id') as cassandra.types.Long).toNumber(),
    gid: row.get('gid'),
    first_name: row.get('first_name'),
    middle_name: row.get('middle_name'),
    last_name: row.get('last_name'),
    ballance_current: row.get('ballance_current'),
    dob: row.get('dob'),
    email: row.get('email'),
    isActive: row.get('is_active'),
    linear_score: row.get('linear_score'),
    weighted_score: row.get('weighted_score'),
    phone_country: row.get('phone_country'),
    phone_by_country: row.get('phone_by_country'),
    age_group: row.get('age_group'),
    age_by_group: row.get('age_by_group'),
    url_protocol: row.get('url_protocol'),
    url_site: row.get('url_site'),
    url_domain: row.get('url_domain'),
    url: row.get('url'),
    devices: list(row.get('devices')),
    linked_devices: list<string[] | null>(row.get('linked_devices')).map((group) => list(group)),
    address,
    children: list(row.get('children')),
    visited_places: list<{ country: string; cities: string[] | null }>(row.get('visited_places')).map((p) => ({
      country: p.country,
      cities: list(p.cities),
    })),
    order_list: list(row.get('order_list')),
  };
}

export const dialect: EcommerceDialectDefinition<'cassandra'> = {
  store: 'cassandra',
  create: (handle) => new CassandraDialect(handle),
};
