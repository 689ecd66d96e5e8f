/**
 * CouchDB: YCSB-JSON's other queries, and the views of the e-commerce design document.
 *
 * A filter on plain fields is a Mango `_find` on a JSON index over those fields (CouchDB's query
 * for filtering with paging); a condition on an array element is a view, since a Mango JSON index
 * cannot index array elements: the map function emits one row per element, and a view read by
 * key returns the rows of equal keys in document-id order, which is the ORDER BY id those
 * queries ask for.
 *
 *   soe-search        _find {address.country, age_group, dob in the year} sorted by those three,
 *                     skip, limit      Mango index [address.country, age_group, dob]
 *   soe-page          _find {address.zip}, skip, limit, no sort      the JOIN's [address.zip]
 *   soe-nestscan      _find {address.prev_address.zip}, limit         [address.prev_address.zip]
 *   soe-arrayscan     view customers_by_device, key = device, include_docs, limit
 *   soe-arraydeepscan view customers_by_place, key = [country, city] (each pair once per
 *                     customer: a visited place's cities), include_docs, limit
 *   soe-report        view report_by_zip, key = zip, include_docs: the customers themselves and,
 *                     as linked documents, their orders, in one request
 *
 * Without `--indexes` no Mango index is built: `_find` reads every document, and a sorted
 * `_find` (soe_search, the id-ordered page) is refused by CouchDB, so those are UNSUPPORTED.
 * The views are the only way CouchDB answers the array and join questions: they are always built.
 */
import type nano from 'nano';
import { explainView } from '../../../src/stores/couchdb/explain.ts';
import type { HandleOf } from '../../../src/stores/stores.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { ReportParams, ReportRow, SoeKind } from '../queries.ts';

export const DESIGN = 'ecommerce';

/** Mango indexes of the SOE queries (the JOIN's zip index serves soe_page). */
export const SOE_MANGO = {
  search: { ddoc: 'ecommerce-search', name: 'search', fields: ['address.country', 'age_group', 'dob'] },
  prevZip: { ddoc: 'ecommerce-by-prev-zip', name: 'by-prev-zip', fields: ['address.prev_address.zip'] },
} as const;
export const ZIP_INDEX = { ddoc: 'ecommerce-by-zip', name: 'by-zip' } as const;

/** Map functions (ES5 for CouchDB's JavaScript engines); customers are the documents with an address. */
export const SOE_VIEWS = {
  customers_by_device: `function (doc) {
  if (!doc.address || !Array.isArray(doc.devices)) return;
  for (var i = 0; i < doc.devices.length; i++) emit(doc.devices[i], null);
}`,
  customers_by_place: `function (doc) {
  if (!doc.address || !Array.isArray(doc.visited_places)) return;
  var seen = {};
  for (var i = 0; i < doc.visited_places.length; i++) {
    var place = doc.visited_places[i];
    for (var j = 0; j < place.cities.length; j++) {
      var key = place.country + '\\u0000' + place.cities[j];
      if (seen[key]) continue;
      seen[key] = true;
      emit([place.country, place.cities[j]], null);
    }
  }
}`,
  report_by_zip: `function (doc) {
  if (!doc.address || !Array.isArray(doc.order_list)) return;
  emit(doc.address.zip, null);
  for (var i = 0; i < doc.order_list.length; i++) emit(doc.address.zip, { _id: doc.order_list[i] });
}`,
} as const;

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': [
    {
      name: 'mango',
      description:
        '_find {address.country, age_group, dob range} sorted by [address.country, age_group, dob], skip, limit, on the Mango index of those fields',
    },
  ],
  'soe-page': [
    { name: 'mango', description: '_find {address.zip}, skip, limit, no sort, on the Mango index ["address.zip"]' },
  ],
  'soe-nestscan': [
    {
      name: 'mango',
      description: '_find {address.prev_address.zip}, limit, on the Mango index ["address.prev_address.zip"]',
    },
  ],
  'soe-arrayscan': [
    { name: 'view', description: 'view customers_by_device (one row per device), key = device, include_docs, limit' },
  ],
  'soe-arraydeepscan': [
    {
      name: 'view',
      description:
        'view customers_by_place (one row per visited (country, city)), key = [country, city], include_docs, limit',
    },
  ],
  'soe-report': [
    {
      name: 'view-linked',
      description:
        'view report_by_zip, key = zip, include_docs: the customers and, linked, their orders in one request',
    },
  ],
};

type Doc = Record<string, unknown> & { _id: string };
type Mango = Exclude<SoeIdsRequest, { kind: 'soe-arrayscan' | 'soe-arraydeepscan' }>;
type ViewRead = Exclude<SoeRequest, Mango>;

export class CouchdbSoe implements SoeQueries {
  constructor(
    private readonly couch: HandleOf<'couchdb'>,
    private readonly db: nano.DocumentScope<Doc>,
    private readonly indexes: boolean,
  ) {}

  /** The `_find` of a Mango query: whole documents (no `fields`), the index named when built. */
  mangoQuery(request: Mango): nano.MangoQuery {
    const use = (index: { ddoc: string; name: string }) =>
      this.indexes ? { use_index: [index.ddoc, index.name] as [string, string] } : {};
    switch (request.kind) {
      case 'soe-search': {
        const p = request.params;
        if (!this.indexes)
          throw new UnsupportedError(
            'SOE-SEARCH',
            'CouchDB sorts a _find only on an index, and indexes=false built none',
          );
        return {
          selector: {
            'address.country': { $eq: p.country },
            age_group: { $eq: p.age_group },
            dob: { $gte: `${p.year}-01-01`, $lte: `${p.year}-12-31` },
          },
          sort: SOE_MANGO.search.fields.map((f) => ({ [f]: 'asc' as const })),
          ...use(SOE_MANGO.search),
          skip: p.offset,
          limit: p.limit,
        };
      }
      case 'soe-page':
        return {
          selector: { 'address.zip': { $eq: request.params.zip } },
          ...use(ZIP_INDEX),
          skip: request.params.offset,
          limit: request.params.limit,
        };
      case 'soe-nestscan':
        return {
          selector: { 'address.prev_address.zip': { $eq: request.params.zip } },
          ...use(SOE_MANGO.prevZip),
          limit: request.params.limit,
        };
    }
  }

  private viewRead(request: ViewRead): { view: keyof typeof SOE_VIEWS; params: nano.DocumentViewParams } {
    switch (request.kind) {
      case 'soe-arrayscan':
        return {
          view: 'customers_by_device',
          params: { key: request.params.device, include_docs: true, limit: request.params.limit },
        };
      case 'soe-arraydeepscan':
        return {
          view: 'customers_by_place',
          params: {
            key: [request.params.country, request.params.city],
            include_docs: true,
            limit: request.params.limit,
          },
        };
      case 'soe-report':
        return { view: 'report_by_zip', params: { key: request.params.zip, include_docs: true } };
    }
  }

  private async find(request: Mango): Promise<string[]> {
    if (request.params.limit <= 0) return [];
    return (await this.db.find(this.mangoQuery(request))).docs.map((d) => d._id);
  }

  private async view(request: Exclude<ViewRead, { kind: 'soe-report' }>): Promise<string[]> {
    if (request.params.limit <= 0) return [];
    const { view, params } = this.viewRead(request);
    return (await this.db.view(DESIGN, view, params)).rows.filter((r) => r.doc).map((r) => r.id);
  }

  /** The array scans read views; the others are Mango `_find`s. */
  ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    return request.kind === 'soe-arrayscan' || request.kind === 'soe-arraydeepscan'
      ? this.view(request)
      : this.find(request);
  }

  /** Customer rows carry no value; order rows carry the link, and `id` is their customer's. */
  async report(_variant: string, params: ReportParams): Promise<ReportRow[]> {
    const { view, params: read } = this.viewRead({ kind: 'soe-report', params });
    const rows = (await this.db.view<{ _id: string } | null>(DESIGN, view, read)).rows;
    return rows.filter((r) => r.value !== null && r.doc).map((r) => ({ customer: r.id, order: (r.doc as Doc)._id }));
  }

  async explain(request: SoeRequest): Promise<ScenarioPlan> {
    if (request.kind === 'soe-search' || request.kind === 'soe-page' || request.kind === 'soe-nestscan') {
      return { ...(await this.couch.explainFind(NAMES.prefix, this.mangoQuery(request))), indexExpected: this.indexes };
    }
    const { view, params } = this.viewRead(request);
    return { ...(await explainView(this.db, DESIGN, view, params)), indexExpected: true };
  }
}
