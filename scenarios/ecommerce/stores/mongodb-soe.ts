/**
 * MongoDB: YCSB-JSON's other queries as YCSB-JSON's MongoDB binding runs them (find with a
 * filter, the whole document returned), with the indexes a MongoDB developer adds for each:
 *
 *   soe-search        find({address.country, age_group, dob in the year}).sort({address.country,
 *                     age_group, dob}).skip().limit()      index {address.country, age_group, dob}
 *                     (the binding compares dob with the year's first and last day; here dob is
 *                     a YYYY-MM-DD string, so the range is on strings)
 *   soe-page          find({address.zip}).skip().limit()   index {address.zip} (the JOIN's)
 *   soe-nestscan      find({address.prev_address.zip}).limit()
 *                                                          index {address.prev_address.zip}
 *   soe-arrayscan     find({devices: d}).sort({_id}).limit()
 *                                                          multikey index {devices, _id}
 *   soe-arraydeepscan find({visited_places: {$elemMatch: {country, cities}}}).sort({_id}).limit()
 *                     ($elemMatch: both in the same element, as YCSB-JSON's SQL++ asks; the
 *                     binding's two separate conditions could match across elements)
 *                                                          multikey index {visited_places.country,
 *                                                          visited_places.cities}; allowDiskUse
 *                     for the sort of a popular place's visitors
 *   soe-report        aggregate: $match zip, $lookup the orders by order_list, $unwind
 * Without `--indexes` none of these is built: every query is a collection scan.
 */
import type { Collection, Document, FindCursor } from 'mongodb';
import { mongoPlan } from '../../../src/stores/mongodb/explain.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { Customer } from '../model.ts';
import type { ReportParams, ReportRow, SearchParams, SoeKind } from '../queries.ts';

type CustomerDoc = Customer & Document;

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': [
    {
      name: 'find',
      description:
        'find({address.country, age_group, dob range}).sort({address.country, age_group, dob}).skip().limit() on {address.country, age_group, dob}',
    },
  ],
  'soe-page': [{ name: 'find', description: 'find({address.zip}).skip().limit(), no sort, on {address.zip}' }],
  'soe-nestscan': [
    { name: 'find', description: 'find({address.prev_address.zip}).limit() on {address.prev_address.zip}' },
  ],
  'soe-arrayscan': [
    { name: 'find', description: 'find({devices: d}).sort({_id: 1}).limit() on the multikey index {devices, _id}' },
  ],
  'soe-arraydeepscan': [
    {
      name: 'find',
      description:
        'find({visited_places: {$elemMatch: {country, cities}}}).sort({_id: 1}).limit() on {visited_places.country, visited_places.cities}',
    },
  ],
  'soe-report': [
    {
      name: 'lookup',
      description:
        'aggregate: $match address.zip, $lookup orders by order_list, $unwind: every (customer, order) pair, whole documents',
    },
  ],
};

/** The indexes of the SOE queries on the customers collection. */
export const SOE_INDEXES = [
  { key: { 'address.country': 1, age_group: 1, dob: 1 }, name: 'ecommerce_search' },
  { key: { 'address.prev_address.zip': 1 }, name: 'ecommerce_prev_zip' },
  { key: { devices: 1, _id: 1 }, name: 'ecommerce_devices' },
  { key: { 'visited_places.country': 1, 'visited_places.cities': 1 }, name: 'ecommerce_visited' },
] as const;

export function searchFilter(p: SearchParams): Document {
  return {
    'address.country': p.country,
    age_group: p.age_group,
    dob: { $gte: `${p.year}-01-01`, $lte: `${p.year}-12-31` },
  };
}

export function reportPipeline(p: ReportParams): Document[] {
  return [
    { $match: { 'address.zip': p.zip } },
    { $lookup: { from: NAMES.orders, localField: 'order_list', foreignField: '_id', as: 'order' } },
    { $unwind: '$order' },
  ];
}

export class MongodbSoe implements SoeQueries {
  constructor(
    private readonly customers: Collection<CustomerDoc>,
    private readonly indexes: boolean,
  ) {}

  /** The find of a query kind (every one but the report, an aggregation). */
  private cursor(request: SoeIdsRequest): FindCursor<CustomerDoc> {
    const c = this.customers;
    switch (request.kind) {
      case 'soe-search': {
        const p = request.params;
        return c
          .find(searchFilter(p))
          .sort({ 'address.country': 1, age_group: 1, dob: 1 })
          .skip(p.offset)
          .limit(p.limit);
      }
      case 'soe-page':
        return c.find({ 'address.zip': request.params.zip }).skip(request.params.offset).limit(request.params.limit);
      case 'soe-nestscan':
        return c.find({ 'address.prev_address.zip': request.params.zip }).limit(request.params.limit);
      case 'soe-arrayscan':
        return c.find({ devices: request.params.device }).sort({ _id: 1 }).limit(request.params.limit);
      case 'soe-arraydeepscan': {
        const p = request.params;
        return c
          .find({ visited_places: { $elemMatch: { country: p.country, cities: p.city } } })
          .sort({ _id: 1 })
          .limit(p.limit)
          .allowDiskUse(true);
      }
    }
  }

  /** Run a find: whole documents fetched, their ids answered. */
  async ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    return (await this.cursor(request).toArray()).map((d) => d._id);
  }

  async report(_variant: string, p: ReportParams): Promise<ReportRow[]> {
    const rows = await this.customers.aggregate<{ _id: string; order: { _id: string } }>(reportPipeline(p)).toArray();
    return rows.map((r) => ({ customer: r._id, order: r.order._id }));
  }

  async explain(request: SoeRequest): Promise<ScenarioPlan> {
    if (request.kind === 'soe-report') {
      const returned = (await this.report('lookup', request.params)).length;
      return {
        ...mongoPlan(
          await this.customers.aggregate(reportPipeline(request.params)).explain('executionStats'),
          returned,
        ),
        indexExpected: this.indexes,
      };
    }
    return { ...mongoPlan(await this.cursor(request).explain('executionStats')), indexExpected: this.indexes };
  }
}
