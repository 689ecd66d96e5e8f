/**
 * MongoDB (the official `mongodb` driver): the e-commerce scenario as Altoros 2022 ran it on Atlas and
 * as a MongoDB developer writes it: two collections in the store's database,
 * `ecommerce_customers` and `ecommerce_orders`, documents keyed by `_id`, and the manifest in
 * `ecommerce_meta`.
 *
 * Indexes, built after the load with one `createIndexes` per collection:
 *   customers  {"address.country": 1, _id: 1}  (paginationindex=country-id, the default) Altoros
 *                                               2022's country index plus `_id`: docbench orders a
 *                                               page by id (Altoros 2022 did not order it), and
 *                                               with `_id` in the key the sort is index order and
 *                                               the query is covered (no document fetched),
 *                                               MongoDB's equality-sort rule;
 *              {"address.country": 1}          (paginationindex=country) Altoros 2022's own, for
 *                                               its unordered page (an ordered one then sorts);
 *              {"address.zip": 1}              the JOIN's filter (Altoros 2022 §6.4);
 *   orders     {month: 1}                      Altoros 2022 §6.4.
 *
 * Operations
 *   pagination  find({"address.country": c}, {projection: {_id: 1}}).sort({_id: 1}).skip(o).limit(l)
 *   join        two variants, both measured (Altoros 2022 §4.4):
 *               `lookup`     one aggregation: $match zip, $lookup the orders by order_list,
 *                            $unwind, $match month, $group by month and zip with $sum, $sort;
 *                            the server coalesces $lookup + $unwind + $match into one lookup;
 *               `two-phase`  Altoros 2022 Table 4.4.2: find the zip's customers (order_list only),
 *                            then aggregate the orders {_id: {$in: ids}, month} with $group $sum.
 *   insert      insertOne (a duplicate _id is an error, E11000)
 *   update      updateOne({_id}, {$set: changed fields}); matchedCount says whether it existed
 *   read        findOne({_id})
 * Pagination without ORDER BY (`-p ordered=false`): the same find without the sort, as Altoros 2022.
 * YCSB-JSON's other queries and their indexes: mongodb-soe.ts.
 * Without `--indexes` no secondary index is built: every query is a collection scan.
 * Reads go to the primary (the driver's default), so a query sees every acknowledged write.
 * Plans: `explain("executionStats")` of the same find or aggregation (both steps of `two-phase`).
 */
import type { Collection, Document, FindCursor } from 'mongodb';
import { mongoPlan } from '../../../src/stores/mongodb/explain.ts';
import type { MongodbHandle } from '../../../src/stores/mongodb/handle.ts';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
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
import type { Customer, CustomerPatch, Order } from '../model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind } from '../queries.ts';
import { MongodbSoe, SOE_INDEXES, SOE_VARIANTS } from './mongodb-soe.ts';

const MANIFEST_ID = 'manifest';

type CustomerDoc = Customer & Document;
type OrderDoc = Order & Document;
type ManifestDoc = Manifest & { _id: string };

const VARIANTS: Record<QueryKind, QueryVariant[]> = {
  ...SOE_VARIANTS,
  pagination: [
    {
      name: 'find',
      description:
        'find({address.country}, projection _id).sort({_id: 1}).skip().limit() on the country index (ordered=false: no sort, as Altoros 2022)',
    },
  ],
  join: [
    {
      name: 'lookup',
      description:
        'aggregate: $match address.zip, $lookup orders by order_list, $unwind, $match month, $group $sum sale_price, $sort',
    },
    {
      name: 'two-phase',
      description:
        "Altoros 2022 Table 4.4.2: find the zip's customers (order_list), then aggregate orders {_id: {$in}, month} with $group $sum",
    },
  ],
};

/** The pagination's index (PaginationIndex). */
function countryIndex(pagination: PaginationIndex): { key: Document; name: string } {
  return pagination === 'country'
    ? { key: { 'address.country': 1 }, name: 'ecommerce_country' }
    : { key: { 'address.country': 1, _id: 1 }, name: 'ecommerce_country_id' };
}

const keyText = (key: Document) =>
  `{${Object.keys(key)
    .map((k) => `${k}: 1`)
    .join(', ')}}`;

function layout(indexes: boolean, pagination: PaginationIndex): string[] {
  return [
    `mongodb: collections ${NAMES.customers} and ${NAMES.orders}, documents keyed by _id; the manifest in ${NAMES.meta}`,
    indexes
      ? `mongodb: indexes ${keyText(countryIndex(pagination).key)} (the pagination's), {address.zip: 1}, ${SOE_INDEXES.map((i) => `{${Object.keys(i.key).join(', ')}}`).join(', ')} on customers, {month: 1} on orders, built after the load`
      : 'mongodb: no secondary index (indexes=false): every query is a collection scan',
    'mongodb: reads from the primary (driver default): queries see every acknowledged write',
  ];
}

/** The `lookup` variant's pipeline on the customers collection. */
export function lookupPipeline(params: JoinParams): Document[] {
  return [
    { $match: { 'address.zip': params.zip } },
    { $project: { _id: 0, zip: '$address.zip', order_list: 1 } },
    { $lookup: { from: NAMES.orders, localField: 'order_list', foreignField: '_id', as: 'order' } },
    { $unwind: '$order' },
    { $match: { 'order.month': params.month } },
    { $group: { _id: { month: '$order.month', zip: '$zip' }, sale_price: { $sum: '$order.sale_price' } } },
    { $sort: { sale_price: 1 } },
  ];
}

/** The `two-phase` variant's second step on the orders collection. */
function ordersSumPipeline(orderIds: readonly string[], month: number): Document[] {
  return [
    { $match: { _id: { $in: [...orderIds] }, month } },
    { $group: { _id: null, sale_price: { $sum: '$sale_price' }, count: { $sum: 1 } } },
  ];
}

class MongodbDialect implements EcommerceDialect, IndexBuilder, QueryExplainer {
  readonly variants = VARIANTS;
  readonly layout: readonly string[];
  readonly readsOwnWrites = true;
  readonly soe: MongodbSoe;
  private readonly indexes: boolean;
  private readonly paginationIndex: PaginationIndex;
  private readonly customers: Collection<CustomerDoc>;
  private readonly orders: Collection<OrderDoc>;
  private readonly meta: Collection<ManifestDoc>;

  constructor(
    private readonly handle: MongodbHandle,
    context: EcommerceContext,
  ) {
    this.indexes = context.indexes ?? true;
    this.paginationIndex = context.paginationIndex ?? 'country-id';
    this.layout = layout(this.indexes, this.paginationIndex);
    this.customers = handle.collection<CustomerDoc>(NAMES.customers);
    this.orders = handle.collection<OrderDoc>(NAMES.orders);
    this.meta = handle.collection<ManifestDoc>(NAMES.meta);
    this.soe = new MongodbSoe(this.customers, this.indexes);
  }

  async drop(): Promise<void> {
    for (const name of [NAMES.customers, NAMES.orders, NAMES.meta]) await this.handle.dropCollection(name);
  }

  async prepare(): Promise<void> {
    for (const name of [NAMES.customers, NAMES.orders, NAMES.meta]) await this.handle.createCollection(name);
  }

  async insertMany(batch: SeedBatch): Promise<void> {
    if (batch.customers.length > 0) {
      const r = await this.customers.insertMany(
        batch.customers.map((c) => ({ ...c })),
        { ordered: false },
      );
      if (r.insertedCount !== batch.customers.length)
        throw new Error(`insertMany stored ${r.insertedCount} of ${batch.customers.length} customers`);
    }
    if (batch.orders.length > 0) {
      const r = await this.orders.insertMany(
        batch.orders.map((o) => ({ ...o })),
        { ordered: false },
      );
      if (r.insertedCount !== batch.orders.length)
        throw new Error(`insertMany stored ${r.insertedCount} of ${batch.orders.length} orders`);
    }
  }

  async buildIndexes(): Promise<string[]> {
    if (!this.indexes) return ['mongodb: no secondary index built (indexes=false)'];
    // createIndexes returns once the indexes are built (the load is over: nothing else writes).
    const country = countryIndex(this.paginationIndex);
    await this.customers.createIndexes([
      country,
      { key: { 'address.zip': 1 }, name: 'ecommerce_zip' },
      ...SOE_INDEXES.map((i) => ({ key: { ...i.key }, name: i.name })),
    ]);
    await this.orders.createIndexes([{ key: { month: 1 }, name: 'ecommerce_month' }]);
    return [
      `mongodb: built ${keyText(country.key)}, {address.zip: 1} and YCSB-JSON's query indexes (${SOE_INDEXES.map((i) => i.name).join(', ')}) on customers, {month: 1} on orders (createIndexes)`,
    ];
  }

  async readManifest(): Promise<Manifest | null> {
    const doc = await this.meta.findOne({ _id: MANIFEST_ID });
    if (doc === null) return null;
    const { _id, ...manifest } = doc;
    return manifest as Manifest;
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.meta.replaceOne({ _id: MANIFEST_ID }, { ...manifest }, { upsert: true });
  }

  async removeCustomers(customers: readonly CustomerKey[]): Promise<void> {
    if (customers.length === 0) return;
    await this.customers.deleteMany({ _id: { $in: customers.map((c) => c.id) } });
  }

  async pagination(variant: string, params: PageParams): Promise<string[]> {
    checkVariant('pagination', variant);
    if (params.limit <= 0) return [];
    const docs = await this.page(params).toArray();
    return docs.map((d) => d._id);
  }

  private page(params: PageParams): FindCursor<CustomerDoc> {
    const find = this.customers.find({ 'address.country': params.country }, { projection: { _id: 1 } });
    return (params.ordered === false ? find : find.sort({ _id: 1 })).skip(params.offset).limit(params.limit);
  }

  private customersOfZip(params: JoinParams): FindCursor<CustomerDoc> {
    return this.customers.find({ 'address.zip': params.zip }, { projection: { _id: 0, order_list: 1 } });
  }

  async explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan> {
    checkVariant(request.kind, variant);
    if (request.kind === 'pagination')
      return { ...mongoPlan(await this.page(request.params).explain('executionStats')), indexExpected: this.indexes };
    if (request.kind !== 'join') return this.soe.explain(request);
    const params = request.params;
    const returned = (await this.join(variant, params)).length;
    if (variant === 'lookup') {
      return {
        ...mongoPlan(await this.customers.aggregate(lookupPipeline(params)).explain('executionStats'), returned),
        indexExpected: this.indexes,
      };
    }
    const orderIds = (await this.customersOfZip(params).toArray()).flatMap((c) => c.order_list ?? []);
    const steps = [
      { label: 'customers of the zip', plan: mongoPlan(await this.customersOfZip(params).explain('executionStats')) },
    ];
    if (orderIds.length > 0)
      steps.push({
        label: 'orders of the month',
        plan: mongoPlan(
          await this.orders.aggregate(ordersSumPipeline(orderIds, params.month)).explain('executionStats'),
          returned,
        ),
      });
    return { ...combineEvidence(steps), returned, indexExpected: this.indexes };
  }

  async join(variant: string, params: JoinParams): Promise<JoinRow[]> {
    checkVariant('join', variant);
    if (variant === 'lookup') {
      const groups = await this.customers
        .aggregate<{ _id: { month: number; zip: string }; sale_price: number }>(lookupPipeline(params))
        .toArray();
      return groups.map((g) => ({ month: g._id.month, zip: g._id.zip, sale_price: g.sale_price }));
    }
    const customers = await this.customersOfZip(params).toArray();
    const orderIds = customers.flatMap((c) => c.order_list ?? []);
    if (orderIds.length === 0) return [];
    const sums = await this.orders
      .aggregate<{ sale_price: number; count: number }>(ordersSumPipeline(orderIds, params.month))
      .toArray();
    const sum = sums[0];
    return sum === undefined || sum.count === 0
      ? []
      : [{ month: params.month, zip: params.zip, sale_price: sum.sale_price }];
  }

  async readCustomer(id: string): Promise<Customer | null> {
    return (await this.customers.findOne({ _id: id })) as Customer | null;
  }

  async readOrder(id: string): Promise<Order | null> {
    return (await this.orders.findOne({ _id: id })) as Order | null;
  }

  async insertCustomer(customer: Customer): Promise<void> {
    await this.customers.insertOne({ ...customer });
  }

  async updateCustomer(id: string, patch: CustomerPatch): Promise<boolean> {
    const result = await this.customers.updateOne({ _id: id }, { $set: { ...patch } });
    return result.matchedCount === 1;
  }
}

function checkVariant(kind: QueryKind, variant: string): void {
  if (!VARIANTS[kind].some((v) => v.name === variant)) throw new Error(`mongodb: unknown ${kind} variant "${variant}"`);
}

export const dialect: EcommerceDialectDefinition<'mongodb'> = {
  store: 'mongodb',
  create: (handle, context) => new MongodbDialect(handle, context),
};
