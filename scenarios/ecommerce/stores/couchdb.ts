/**
 * CouchDB (HTTP API through nano): the e-commerce scenario as a CouchDB developer builds it.
 * CouchDB has no collections, and its docs recommend one database per application with the kind
 * of document in the id or a field; a view can then follow links between documents of the one
 * database. So customers and orders share the database `ecommerce` (ids `customer:…`,
 * `order:…`), and the manifest is its document `ecommerce:manifest`.
 *
 * Indexes (built after the load, each by a first query, since CouchDB builds an index lazily):
 *   Mango JSON index ["address.country", "_id"]  pagination (paginationindex=country-id, the
 *                                                 default): equality on the country, then id
 *                                                 order, so skip/limit walk the index in order;
 *                                                 ["address.country"] with paginationindex=country
 *                                                 (Altoros 2022's), on which Mango cannot sort
 *                                                 by id: the ordered page is then UNSUPPORTED
 *   Mango JSON index ["address.zip"]              the `mango-keys` JOIN's first step
 *   view _design/ecommerce/orders_by_zip          map over customers: for each id in order_list
 *                                                 emit(zip, {_id: order id}), a linked document
 *   view _design/ecommerce/sales_by_zip_month     map over orders: emit([customer_zip, month],
 *                                                 sale_price), reduce `_sum`
 *   and the views and indexes of YCSB-JSON's other queries (couchdb-soe.ts)
 *
 * Orders carry `customer_zip`, their customer's zip, written with them: the reduce view needs it
 * (a map function sees one document), the denormalisation a CouchDB developer makes for it, as
 * Cassandra's orders_by_zip_month does. It is this dialect's own field: reads leave it out, as
 * they leave out `_rev`.
 *
 * Operations
 *   pagination  POST /ecommerce/_find {selector: {address.country: c}, fields: [_id],
 *               sort: [{address.country: asc}, {_id: asc}], skip, limit}; `ordered=false`: the
 *               same without sort (the study's query)
 *   join        CouchDB cannot join across documents on the server; three ways a CouchDB
 *               developer writes it, all measured:
 *               `view-linked`  one request: GET the view with key = zip and include_docs=true;
 *                              CouchDB returns the linked order documents themselves; month
 *                              filter and SUM in the client;
 *               `mango-keys`   _find the zip's customers (order_list only), then
 *                              POST _all_docs {keys: order ids} with include_docs=true; month
 *                              filter and SUM in the client;
 *               `reduce`       GET sales_by_zip_month with key = [zip, month], group=true: the
 *                              sum comes from the view's reduce, maintained as orders are written.
 *   insert      PUT without _rev (an existing id is a 409 conflict: an error)
 *   update      GET the customer, PUT it back with its _rev and the changed fields; a conflict
 *               (another writer in between) is an error, counted, never retried
 *   read        GET, `_rev` stripped
 * Views and Mango indexes are brought up to date on read (CouchDB's default update=true), so a
 * query sees every acknowledged write. Without `--indexes` no Mango index is built: `_find`
 * reads every document, and the id-ordered page (a sorted `_find`, which CouchDB refuses without
 * an index) is UNSUPPORTED; the views are built either way. The design document is written idempotently (left alone
 * when it holds this view, else updated with its revision).
 * Plans: `_explain` and `_find` with execution_stats for Mango, the view read for `view-linked`,
 * and the `_all_docs` key lookups of `mango-keys`'s second step.
 */
import type nano from 'nano';
import { explainKeys, explainView } from '../../../src/stores/couchdb/explain.ts';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { HandleOf } from '../../../src/stores/stores.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
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
import type { Customer, CustomerPatch, Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import { CouchdbSoe, DESIGN, SOE_MANGO, SOE_VARIANTS, SOE_VIEWS, ZIP_INDEX } from './couchdb-soe.ts';

const JOIN_VIEW = 'orders_by_zip';
const SALES_VIEW = 'sales_by_zip_month';
/** The pagination's Mango index (PaginationIndex), named after its fields. */
function countryIndex(pagination: PaginationIndex): { ddoc: string; name: string; fields: string[] } {
  return pagination === 'country'
    ? { ddoc: 'ecommerce-by-country-only', name: 'by-country-only', fields: ['address.country'] }
    : { ddoc: 'ecommerce-by-country', name: 'by-country', fields: ['address.country', '_id'] };
}
const MANIFEST_ID = `${NAMES.prefix}:manifest`;
/** This dialect's own field on orders (see the header). */
const ORDER_ZIP = 'customer_zip';

/** The view's map function (ES5 for CouchDB's JavaScript engines): customers only. */
export const ORDERS_BY_ZIP_MAP = `function (doc) {
  if (!doc.address || !Array.isArray(doc.order_list)) return;
  for (var i = 0; i < doc.order_list.length; i++) emit(doc.address.zip, { _id: doc.order_list[i] });
}`;

/** The reduce JOIN's map function: orders only (they carry their customer's zip). */
export const SALES_BY_ZIP_MONTH_MAP = `function (doc) {
  if (typeof doc.${ORDER_ZIP} !== 'string' || typeof doc.sale_price !== 'number') return;
  emit([doc.${ORDER_ZIP}, doc.month], doc.sale_price);
}`;

/** The design document: every view of the scenario. */
const DESIGN_DOCUMENT = {
  language: 'javascript',
  views: {
    [JOIN_VIEW]: { map: ORDERS_BY_ZIP_MAP },
    [SALES_VIEW]: { map: SALES_BY_ZIP_MONTH_MAP, reduce: '_sum' },
    ...Object.fromEntries(Object.entries(SOE_VIEWS).map(([name, map]) => [name, { map }])),
  },
};

type Doc = Record<string, unknown> & { _id: string; _rev?: string };

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'mango',
      description:
        '_find {address.country} sorted by [address.country, _id] with skip/limit on the country index (ordered=false: no sort, as Altoros 2022)',
    },
  ],
  join: [
    {
      name: 'view-linked',
      description: `view ${JOIN_VIEW} (zip -> linked order ids) read with include_docs=true in one request; month filter and SUM in the client`,
    },
    {
      name: 'mango-keys',
      description:
        "_find the zip's customers (order_list), then _all_docs {keys} include_docs=true for their orders; month filter and SUM in the client",
    },
    {
      name: 'reduce',
      description: `view ${SALES_VIEW} ([customer_zip, month] -> sale_price, reduce _sum) read with key = [zip, month], group=true: the sum from the view`,
    },
  ],
};

function layout(indexes: boolean, pagination: PaginationIndex): string[] {
  return [
    'couchdb: one database "ecommerce" for customers and orders (ids customer:…, order:…), as CouchDB recommends; manifest document ecommerce:manifest; orders carry customer_zip for the reduce view',
    indexes
      ? `couchdb: Mango JSON indexes ${JSON.stringify(countryIndex(pagination).fields)} (the pagination's), ["address.zip"], [${SOE_MANGO.search.fields.join(', ')}], [${SOE_MANGO.prevZip.fields.join(', ')}]; views ${Object.keys(DESIGN_DOCUMENT.views).join(', ')}; each built by a first query after the load`
      : `couchdb: no Mango index (indexes=false): _find reads every document, sorted _find is UNSUPPORTED; views ${Object.keys(DESIGN_DOCUMENT.views).join(', ')} built after the load`,
    'couchdb: no server-side join across documents: JOIN month filter and SUM in the client, or from a _sum reduce view; updates carry _rev, conflicts are errors',
  ];
}

function withoutRev<T>(doc: Doc): T {
  const { _rev, ...rest } = doc;
  return rest as T;
}

/** The pagination's `_find`: the country's customers in id order (or any order), on the country index when built. */
function pageQuery(params: PageParams, indexes: boolean, pagination: PaginationIndex): nano.MangoQuery {
  const ordered = params.ordered !== false;
  if (ordered && !indexes)
    throw new UnsupportedError(
      'PAGINATION',
      'CouchDB sorts a _find only on an index, and indexes=false built none (ordered=false runs the unsorted page)',
    );
  if (ordered && pagination === 'country')
    throw new UnsupportedError(
      'PAGINATION',
      'CouchDB sorts a _find only on an index holding the sort fields, and this dataset was seeded with paginationindex=country (address.country alone)',
    );
  const index = countryIndex(pagination);
  return {
    selector: { 'address.country': { $eq: params.country } },
    fields: ['_id'],
    ...(ordered ? { sort: [{ 'address.country': 'asc' as const }, { _id: 'asc' as const }] } : {}),
    ...(indexes ? { use_index: [index.ddoc, index.name] as [string, string] } : {}),
    skip: params.offset,
    limit: params.limit,
  };
}

/** The `mango-keys` JOIN's first step: every customer of the zip (Mango's default limit is 25, so the limit is explicit). */
function zipQuery(params: JoinParams, indexes: boolean): nano.MangoQuery {
  return {
    selector: { 'address.zip': { $eq: params.zip } },
    fields: ['order_list'],
    ...(indexes ? { use_index: [ZIP_INDEX.ddoc, ZIP_INDEX.name] as [string, string] } : {}),
    limit: Number.MAX_SAFE_INTEGER,
  };
}

class CouchdbDialect implements EcommerceDialect, IndexBuilder, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout: readonly string[];
  readonly readsOwnWrites = true;
  readonly soe: CouchdbSoe;
  private readonly indexes: boolean;
  private readonly paginationIndex: PaginationIndex;
  private readonly name: string;
  private readonly db: nano.DocumentScope<Doc>;

  constructor(
    private readonly couch: HandleOf<'couchdb'>,
    context: EcommerceContext,
  ) {
    this.indexes = context.indexes ?? true;
    this.paginationIndex = context.paginationIndex ?? 'country-id';
    this.layout = layout(this.indexes, this.paginationIndex);
    this.name = couch.databaseName(NAMES.prefix);
    this.db = couch.database<Doc>(NAMES.prefix);
    this.soe = new CouchdbSoe(couch, this.db, this.indexes);
  }

  async drop(): Promise<void> {
    await this.couch.destroyDatabase(this.name);
  }

  async prepare(): Promise<void> {
    await this.couch.createDatabase(this.name);
  }

  async insertMany(batch: SeedBatch): Promise<void> {
    const zipOf = new Map(batch.customers.map((c) => [c._id, c.address.zip]));
    const orders = batch.orders.map((o) => ({ ...o, [ORDER_ZIP]: zipOf.get(o.customer_id) }));
    await this.couch.bulkDocs(this.db, [...batch.customers, ...orders] as unknown as Doc[]);
  }

  async buildIndexes(): Promise<string[]> {
    const built: string[] = [];
    if (this.indexes) {
      const mango = [
        countryIndex(this.paginationIndex),
        { fields: ['address.zip'], ...ZIP_INDEX },
        { ...SOE_MANGO.search, fields: [...SOE_MANGO.search.fields] },
        { ...SOE_MANGO.prevZip, fields: [...SOE_MANGO.prevZip.fields] },
      ];
      for (const index of mango) {
        await this.db.createIndex({
          index: { fields: index.fields },
          ddoc: index.ddoc,
          name: index.name,
          type: 'json',
        });
        // A first query builds the index, so a run's queries are reads of built indexes.
        await this.db.find({
          selector: { [index.fields[0]!]: { $gte: null } },
          use_index: [index.ddoc, index.name],
          limit: 1,
        });
      }
      built.push(
        `couchdb: built Mango indexes ${mango.map((i) => `[${i.fields.join(', ')}]`).join(', ')} (each by a first query)`,
      );
    }
    await this.couch.putDesignDocument(this.db, `_design/${DESIGN}`, DESIGN_DOCUMENT);
    // One read builds every view of the design document.
    await this.db.view(DESIGN, JOIN_VIEW, { limit: 0 });
    built.push(
      `couchdb: built views ${Object.keys(DESIGN_DOCUMENT.views).join(', ')} of _design/${DESIGN} (by a first read)`,
    );
    return built;
  }

  async readManifest(): Promise<Manifest | null> {
    const doc = await this.getOrNull(MANIFEST_ID);
    if (doc === null) return null;
    const { _id, ...manifest } = withoutRev<Doc>(doc);
    return manifest as unknown as Manifest;
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    const existing = await this.getOrNull(MANIFEST_ID);
    await this.db.insert({ ...manifest, _id: MANIFEST_ID, ...(existing?._rev ? { _rev: existing._rev } : {}) } as Doc);
  }

  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    if (customers.length === 0) return;
    const found = await this.db.fetchRevs({ keys: customers.map((c) => c.id) });
    const deletions: Doc[] = [];
    for (const row of found.rows) {
      if ('value' in row && row.value && !(row.value as { deleted?: boolean }).deleted)
        deletions.push({ _id: row.id, _rev: row.value.rev, _deleted: true });
    }
    await this.couch.bulkDocs(this.db, deletions);
  }

  async pagination(variant: string, params: PageParams): Promise<string[]> {
    checkVariant('pagination', variant);
    if (params.limit <= 0) return [];
    const response = await this.db.find(pageQuery(params, this.indexes, this.paginationIndex));
    return response.docs.map((d) => d._id);
  }

  async explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    checkVariant(request.kind, variant);
    if (request.kind === 'pagination')
      return {
        ...(await this.couch.explainFind(NAMES.prefix, pageQuery(request.params, this.indexes, this.paginationIndex))),
        indexExpected: this.indexes,
      };
    if (request.kind !== 'join') return this.soe.explain(request);
    const params = request.params;
    if (variant === 'view-linked')
      return {
        ...(await explainView(this.db, DESIGN, JOIN_VIEW, { key: params.zip, include_docs: true })),
        indexExpected: true,
      };
    if (variant === 'reduce')
      return { ...(await explainView(this.db, DESIGN, SALES_VIEW, salesRead(params))), indexExpected: true };
    const keys = await this.orderIdsOfZip(params);
    const steps = [
      {
        label: "the zip's customers",
        plan: await this.couch.explainFind(NAMES.prefix, zipQuery(params, this.indexes)),
      },
    ];
    if (keys.length > 0) steps.push({ label: 'their orders', plan: await explainKeys(this.db, keys) });
    return { ...combineEvidence(steps), indexExpected: this.indexes };
  }

  /** The ids in the order lists of the zip's customers. */
  private async orderIdsOfZip(params: JoinParams): Promise<string[]> {
    const customers = await this.db.find(zipQuery(params, this.indexes));
    return customers.docs.flatMap((c) => (c as unknown as { order_list?: string[] }).order_list ?? []);
  }

  async join(variant: string, params: JoinParams): Promise<JoinRow[]> {
    checkVariant('join', variant);
    if (variant === 'reduce') {
      const rows = (await this.db.view<number>(DESIGN, SALES_VIEW, salesRead(params))).rows;
      return rows.length === 0 ? [] : [{ month: params.month, zip: params.zip, sale_price: rows[0]!.value }];
    }
    let orders: (Doc | null | undefined)[];
    if (variant === 'view-linked') {
      const response = await this.db.view<{ _id: string }>(DESIGN, JOIN_VIEW, { key: params.zip, include_docs: true });
      orders = response.rows.map((r) => r.doc as Doc | null | undefined);
    } else {
      const keys = await this.orderIdsOfZip(params);
      if (keys.length === 0) return [];
      const response = await this.db.fetch({ keys });
      orders = response.rows.map((r) => ('doc' in r ? (r.doc as Doc | null | undefined) : undefined));
    }
    return sumMonth(orders, params);
  }

  async readCustomer(id: string): Promise<Customer | null> {
    const doc = await this.getOrNull(id);
    return doc === null ? null : withoutRev<Customer>(doc);
  }

  async readOrder(id: string): Promise<Order | null> {
    const doc = await this.getOrNull(id);
    if (doc === null) return null;
    const { [ORDER_ZIP]: _zip, ...order } = withoutRev<Doc>(doc);
    return order as unknown as Order;
  }

  async insertCustomer(customer: Customer): Promise<void> {
    await this.db.insert({ ...customer } as unknown as Doc);
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    const doc = await this.getOrNull(id);
    if (doc === null) return false;
    await this.db.insert({ ...doc, ...patch });
    return true;
  }

  private getOrNull(id: string): Promise<Doc | null> {
    return this.couch.getOrNull(this.db, id);
  }
}

/** The reduce JOIN's read: the group of (zip, month). */
function salesRead(params: JoinParams): nano.DocumentViewParams {
  return { key: [params.zip, params.month], reduce: true, group: true };
}

/** The JOIN's group from the joined order documents: the month's orders summed, or no group. */
function sumMonth(orders: readonly (Doc | null | undefined)[], params: JoinParams): JoinRow[] {
  let sum = 0;
  let matched = 0;
  for (const order of orders) {
    if (!order || order.month !== params.month || typeof order.sale_price !== 'number') continue;
    sum += order.sale_price;
    matched++;
  }
  return matched === 0 ? [] : [{ month: params.month, zip: params.zip, sale_price: sum }];
}

function checkVariant(kind: QueryKind, variant: string): void {
  if (!VARIANTS[kind].some((v) => v.name === variant)) throw new Error(`couchdb: unknown ${kind} variant "${variant}"`);
}

export const dialect: EcommerceDialectDefinition<'couchdb'> = {
  store: 'couchdb',
  create: (couch, context) => new CouchdbDialect(couch, context),
};
