/**
 * Couchbase Server 7.x (the official `couchbase` SDK 4): the e-commerce scenario with Altoros 2022's
 * own GSI indexes and SQL++ (§4.3.2, §4.4.2, §6.3–6.4), written for the real server. Documents
 * are read and written through the KV service, queried through the query service.
 *
 * Where the documents live. With `couchbase.management` and `couchbase.query` on (the defaults),
 * customers and orders get collections of their own in the configured scope
 * (`ecommerce_customers`, `ecommerce_orders`: Couchbase 7's unit for one kind of document, as
 * Altoros 2022's buckets were before collections), created and dropped with SQL++ DDL; the manifest
 * is the customers collection's document `ecommerce:manifest`. With either off (no DDL rights,
 * a KV-only cluster, the local stand-in) both kinds go to the configured collection: their ids
 * (`customer:…`, `order:…`) keep them apart, and the queries' predicates match one kind only.
 *
 * Indexes (GSI, created deferred, built with one BUILD INDEX, waited for until online):
 *   primary index on each collection   Altoros 2022 §6.3; the ANSI JOIN's inner side looks orders up
 *                                      by META().id through it
 *   (address.country, META().id)       paginationindex=country-id (the default): Altoros 2022's
 *                                      `query1` plus the key: docbench orders a page by id, and with
 *                                      the id in the index the ORDER BY is index order
 *   (address.country)                  paginationindex=country: Altoros 2022's `query1` itself, for
 *                                      its unordered page (an ordered one then sorts)
 *   (address.zip, order_list)          Altoros 2022's `query2` on the customer side: covers the JOIN's
 *                                      filter and the keys it follows
 *   (month, sale_price)                orders: the JOIN's month filter and the summed field
 *
 * Operations (prepared statements, positional parameters)
 *   pagination  SELECT RAW META(c).id FROM customers AS c WHERE c.address.country = $1
 *               ORDER BY META(c).id OFFSET $2 LIMIT $3 (`ordered=false`: Altoros 2022's own, without
 *               the ORDER BY)
 *   join        both of Altoros 2022's JOINs, measured separately:
 *               `ansi`     INNER JOIN orders AS o ON META(o).id IN c.order_list
 *               `on-keys`  INNER JOIN orders AS o ON KEYS c.order_list (index join)
 *               … WHERE c.address.zip = $1 AND o.month = $2 GROUP BY o.month, c.address.zip
 *               ORDER BY SUM(o.sale_price)
 *   insert/read/update  KV insert (an existing key is an error), get, subdocument upsert of the
 *               changed fields (a missing document: false)
 * Queries run with the SDK's default scan consistency (not_bounded): a sign-up may reach the
 * index after its insert was acknowledged, so this store does not read its own writes in queries
 * (the oracle allows that, and still requires every seeded customer). After the index build, one
 * query of each kind runs with request_plus, so the indexes have caught up with the whole load.
 *
 * YCSB-JSON's other queries and their indexes: couchbase-soe.ts. Without `--indexes` only the
 * primary indexes exist, and every query is a primary scan.
 *
 * Plans: EXPLAIN of the same statement, and one run with profile=phases (index entries scanned,
 * documents fetched).
 *
 * Without SQL++ (`couchbase.query=false`, the KV-only local stand-in) pagination, JOIN and their
 * plans are UNSUPPORTED; seeding and the key-value operations run, and `drop` removes the manifest's
 * documents one key at a time, since nothing else can find them.
 */
import {
  DocumentExistsError,
  DocumentNotFoundError,
  MutateInSpec,
  QueryScanConsistency,
  type Collection,
} from 'couchbase';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { HandleOf } from '../../../src/stores/stores.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  CustomerKey,
  EcommerceContext,
  EcommerceDialect,
  ExplainRequest,
  IndexBuilder,
  Manifest,
  PaginationIndex,
  QueryExplainer,
  QueryVariant,
  SeedBatch,
  EcommerceDialectDefinition,
} from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import { customerId, orderId, type Customer, type CustomerPatch, type Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import { CouchbaseSoe, soeIndexStatements, SOE_VARIANTS } from './couchbase-soe.ts';

const MANIFEST_KEY = `${NAMES.prefix}:manifest`;
/** Concurrent KV removals when dropping without SQL++. */
const REMOVE_CONCURRENCY = 64;

export type JoinVariant = 'ansi' | 'on-keys';

/** Altoros 2022 §4.3.2 with an ORDER BY on the key, so a page is one exact list (or as Altoros 2022 wrote it, without). */
export function paginationStatement(customers: string, ordered = true): string {
  return `SELECT RAW META(c).id FROM ${customers} AS c WHERE c.address.country = $1 ${ordered ? 'ORDER BY META(c).id ' : ''}OFFSET $2 LIMIT $3`;
}

/** Altoros 2022 Table 4.4.2 as ANSI JOIN or as index join (ON KEYS). */
export function joinStatement(variant: JoinVariant, customers: string, orders: string): string {
  const on = variant === 'ansi' ? `ON META(o).id IN c.order_list` : `ON KEYS c.order_list`;
  return (
    `SELECT o.month, c.address.zip, SUM(o.sale_price) AS sale_price FROM ${customers} AS c INNER JOIN ${orders} AS o ${on} ` +
    `WHERE c.address.zip = $1 AND o.month = $2 GROUP BY o.month, c.address.zip ORDER BY SUM(o.sale_price)`
  );
}

export interface IndexDefinition {
  name: string;
  statement: string;
}

/** The GSI indexes, all deferred (built together by one BUILD INDEX per keyspace). */
export function indexStatements(
  customers: string,
  orders: string,
  pagination: PaginationIndex = 'country-id',
): { customers: IndexDefinition[]; orders: IndexDefinition[] } {
  const deferred = 'WITH {"defer_build": true}';
  const country =
    pagination === 'country'
      ? {
          name: 'ecommerce_country',
          statement: `CREATE INDEX \`ecommerce_country\` IF NOT EXISTS ON ${customers}(address.country) ${deferred}`,
        }
      : {
          name: 'ecommerce_country_id',
          statement: `CREATE INDEX \`ecommerce_country_id\` IF NOT EXISTS ON ${customers}(address.country, META().id) ${deferred}`,
        };
  return {
    customers: [
      country,
      {
        name: 'ecommerce_zip_orders',
        statement: `CREATE INDEX \`ecommerce_zip_orders\` IF NOT EXISTS ON ${customers}(address.zip, order_list) ${deferred}`,
      },
      ...soeIndexStatements(customers),
    ],
    orders: [
      {
        name: 'ecommerce_month_sale',
        statement: `CREATE INDEX \`ecommerce_month_sale\` IF NOT EXISTS ON ${orders}(month, sale_price) ${deferred}`,
      },
    ],
  };
}

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'sqlpp',
      description:
        'SQL++ WHERE c.address.country = $1 ORDER BY META(c).id OFFSET $2 LIMIT $3 on the GSI country index (ordered=false: no ORDER BY, as Altoros 2022)',
    },
  ],
  join: [
    {
      name: 'ansi',
      description:
        'SQL++ ANSI JOIN ON META(o).id IN c.order_list, GROUP BY month, zip, SUM(sale_price) (Altoros 2022 Table 4.4.2)',
    },
    { name: 'on-keys', description: 'SQL++ index join ON KEYS c.order_list, GROUP BY month, zip, SUM(sale_price)' },
  ],
};

class CouchbaseDialect implements EcommerceDialect, IndexBuilder, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout: readonly string[];
  readonly readsOwnWrites = false;
  readonly soe: CouchbaseSoe;
  private readonly indexes: boolean;
  private readonly paginationIndex: PaginationIndex;
  private readonly caps: ReturnType<HandleOf<'couchbase'>['capabilities']>;
  /** The dialect creates and drops its own collections (needs management and SQL++). */
  private readonly ownCollections: boolean;
  private readonly customerCollection: string;
  private readonly orderCollection: string;
  private readonly customersKeyspace: string;
  private readonly ordersKeyspace: string;

  constructor(
    private readonly handle: HandleOf<'couchbase'>,
    context: EcommerceContext,
  ) {
    this.indexes = context.indexes ?? true;
    this.paginationIndex = context.paginationIndex ?? 'country-id';
    this.caps = handle.capabilities();
    this.ownCollections = this.caps.management && this.caps.query;
    this.customerCollection = this.ownCollections ? NAMES.customers : this.caps.collection;
    this.orderCollection = this.ownCollections ? NAMES.orders : this.caps.collection;
    this.customersKeyspace = handle.keyspace(this.customerCollection);
    this.ordersKeyspace = handle.keyspace(this.orderCollection);
    this.soe = new CouchbaseSoe(handle, this.customersKeyspace, this.ordersKeyspace, this.indexes);
    this.layout = [
      this.ownCollections
        ? `couchbase: collections ${this.customersKeyspace} and ${this.ordersKeyspace}, written through KV, queried with SQL++`
        : `couchbase: customers and orders both in ${this.customersKeyspace} (no DDL: management or query off), written through KV`,
      !this.caps.query
        ? 'couchbase: no query service (couchbase.query=false): every query is UNSUPPORTED, key-value operations run'
        : this.indexes
          ? `couchbase: GSI primary indexes, ${this.paginationIndex === 'country' ? '(address.country)' : '(address.country, META().id)'} (the pagination's), (address.zip, order_list), orders (month, sale_price) and the indexes of YCSB-JSON's other queries; queries not_bounded`
          : 'couchbase: primary indexes only (indexes=false): every query is a primary scan; queries not_bounded',
    ];
  }

  private customers(): Collection {
    return this.handle.collection(this.customerCollection);
  }

  private orders(): Collection {
    return this.handle.collection(this.orderCollection);
  }

  async drop(): Promise<void> {
    if (this.ownCollections) {
      await this.handle.queryRows(`DROP COLLECTION ${this.customersKeyspace} IF EXISTS`);
      await this.handle.queryRows(`DROP COLLECTION ${this.ordersKeyspace} IF EXISTS`);
      return;
    }
    if (this.caps.query) {
      await this.handle.queryRows(
        `DELETE FROM ${this.customersKeyspace} WHERE META().id LIKE "customer:%" OR META().id LIKE "order:%" OR META().id = $1`,
        {
          parameters: [MANIFEST_KEY],
          scanConsistency: QueryScanConsistency.RequestPlus,
        },
      );
      return;
    }
    // KV only: the manifest says which keys a previous seed (and its runs' sign-ups) wrote.
    const manifest = await this.readManifest();
    if (manifest === null) return;
    const keys: string[] = [MANIFEST_KEY];
    for (let i = 0; i < manifest.signupsUpTo; i++) {
      keys.push(customerId(i));
      if (i < manifest.customers) for (let j = 0; j < manifest.ordersPerCustomer; j++) keys.push(orderId(i, j));
    }
    // The manifest goes last: if this is interrupted, the next drop still knows what to remove.
    await this.removeKeys(this.customers(), keys.slice(1));
    await this.removeKeys(this.customers(), [MANIFEST_KEY]);
  }

  private async removeKeys(collection: Collection, keys: readonly string[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        try {
          await collection.remove(key);
        } catch (error) {
          if (!(error instanceof DocumentNotFoundError)) throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(REMOVE_CONCURRENCY, keys.length) }, worker));
  }

  async prepare(): Promise<void> {
    if (!this.ownCollections) return;
    await this.handle.createCollection(this.customerCollection);
    await this.handle.createCollection(this.orderCollection);
  }

  async insertMany(batch: SeedBatch): Promise<void> {
    const customers = this.customers();
    const orders = this.orders();
    await this.handle.writeAll([
      ...batch.customers.map((c) => ({ collection: customers, key: c._id, value: c })),
      ...batch.orders.map((o) => ({ collection: orders, key: o._id, value: o })),
    ]);
  }

  async buildIndexes(): Promise<string[]> {
    this.handle.requireQuery('INDEX-BUILD');
    if (!this.caps.management)
      throw new UnsupportedError(
        'INDEX-BUILD',
        'couchbase.management=false: docbench creates no index; create them yourself',
      );
    if (!this.ownCollections) throw new UnsupportedError('INDEX-BUILD', 'no collections of its own');
    const indexes = indexStatements(this.customersKeyspace, this.ordersKeyspace, this.paginationIndex);
    const built: string[] = [];
    for (const [keyspace, collection, list] of [
      [this.customersKeyspace, this.customerCollection, indexes.customers],
      [this.ordersKeyspace, this.orderCollection, indexes.orders],
    ] as const) {
      if (!this.indexes) break;
      await this.handle.buildDeferredIndexes(keyspace, collection, list);
      const names = list.map((i) => i.name);
      built.push(`couchbase: GSI ${names.join(', ')} on ${keyspace}, created deferred, one BUILD INDEX`);
    }
    if (!this.indexes) built.push('couchbase: primary indexes only (indexes=false)');
    // Let the indexes catch up with the whole load before the first timed (not_bounded) query.
    const consistent = { scanConsistency: QueryScanConsistency.RequestPlus, readOnly: true };
    await this.handle.queryRows(paginationStatement(this.customersKeyspace), { ...consistent, parameters: ['', 0, 1] });
    await this.handle.queryRows(joinStatement('ansi', this.customersKeyspace, this.ordersKeyspace), {
      ...consistent,
      parameters: ['', 1],
    });
    return built;
  }

  async readManifest(): Promise<Manifest | null> {
    try {
      return (await this.customers().get(MANIFEST_KEY)).content as Manifest;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return null;
      throw error;
    }
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.customers().upsert(MANIFEST_KEY, manifest);
  }

  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    await this.removeKeys(
      this.customers(),
      customers.map((c) => c.id),
    );
    // Queries run not_bounded (see readsOwnWrites): wait once, here, until the GSI index has
    // seen the removals, so the next run's pages cannot show sign-ups that are gone.
    if (this.caps.query && customers.length > 0) {
      await this.handle.queryRows(paginationStatement(this.customersKeyspace), {
        parameters: [customers[0]!.country, 0, 1],
        scanConsistency: QueryScanConsistency.RequestPlus,
        readOnly: true,
      });
    }
  }

  async pagination(variant: string, params: PageParams): Promise<string[]> {
    checkVariant('pagination', variant);
    this.handle.requireQuery('PAGINATION');
    return this.handle.queryRows<string>(paginationStatement(this.customersKeyspace, params.ordered !== false), {
      parameters: [params.country, params.offset, params.limit],
      adhoc: false,
      readOnly: true,
    });
  }

  async join(variant: string, params: JoinParams): Promise<JoinRow[]> {
    checkVariant('join', variant);
    this.handle.requireQuery('JOIN');
    const rows = await this.handle.queryRows<JoinRow>(
      joinStatement(variant as JoinVariant, this.customersKeyspace, this.ordersKeyspace),
      {
        parameters: [params.zip, params.month],
        adhoc: false,
        readOnly: true,
      },
    );
    return rows.map((r) => ({ month: r.month, zip: r.zip, sale_price: r.sale_price }));
  }

  async explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    checkVariant(request.kind, variant);
    if (request.kind !== 'pagination' && request.kind !== 'join') return this.soe.explain(request);
    const plan =
      request.kind === 'pagination'
        ? await this.handle.explain(paginationStatement(this.customersKeyspace, request.params.ordered !== false), [
            request.params.country,
            request.params.offset,
            request.params.limit,
          ])
        : await this.handle.explain(
            joinStatement(variant as JoinVariant, this.customersKeyspace, this.ordersKeyspace),
            [request.params.zip, request.params.month],
          );
    return { ...plan, indexExpected: this.indexes };
  }

  async readCustomer(id: string): Promise<Customer | null> {
    return this.getOrNull<Customer>(this.customers(), id);
  }

  async readOrder(id: string): Promise<Order | null> {
    return this.getOrNull<Order>(this.orders(), id);
  }

  private async getOrNull<T>(collection: Collection, id: string): Promise<T | null> {
    try {
      return (await collection.get(id)).content as T;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return null;
      throw error;
    }
  }

  async insertCustomer(customer: Customer): Promise<void> {
    try {
      await this.customers().insert(customer._id, customer);
    } catch (error) {
      if (error instanceof DocumentExistsError) throw new Error(`customer ${customer._id} exists`, { cause: error });
      throw error;
    }
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    try {
      await this.customers().mutateIn(
        id,
        Object.entries(patch).map(([field, value]) => MutateInSpec.upsert(field, value)),
      );
      return true;
    } catch (error) {
      if (error instanceof DocumentNotFoundError) return false;
      throw error;
    }
  }
}

function checkVariant(kind: QueryKind, variant: string): void {
  if (!VARIANTS[kind].some((v) => v.name === variant))
    throw new Error(`couchbase: unknown ${kind} variant "${variant}"`);
}

export const dialect: EcommerceDialectDefinition<'couchbase'> = {
  store: 'couchbase',
  create: (handle, context) => new CouchbaseDialect(handle, context),
};
