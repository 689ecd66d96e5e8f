/**
 * Couchbase: YCSB-JSON's other queries as its Couchbase binding writes them in SQL++ (every
 * field selected, positional parameters, prepared), with a GSI index for each:
 *
 *   soe-search        WHERE c.address.country = $1 AND c.age_group = $2 AND
 *                     DATE_PART_STR(c.dob, "year") = $3 ORDER BY those three OFFSET $4 LIMIT $5
 *                     index (address.country, age_group, DATE_PART_STR(dob, "year"))
 *   soe-page          WHERE c.address.zip = $1 OFFSET $2 LIMIT $3  (the JOIN's (address.zip, …))
 *   soe-nestscan      WHERE c.address.prev_address.zip = $1 LIMIT $2
 *                     index (address.prev_address.zip)
 *   soe-arrayscan     WHERE ANY v IN c.devices SATISFIES v = $1 END ORDER BY META(c).id LIMIT $2
 *                     array index (DISTINCT ARRAY v FOR v IN devices END)
 *   soe-arraydeepscan WHERE ANY p IN c.visited_places SATISFIES ANY x IN p.cities SATISFIES
 *                     (p.country || "." || x) = $1 END END ORDER BY META(c).id LIMIT $2
 *                     (YCSB-JSON's concatenation: country and city of the same element)
 *                     array index over the same expression
 *   soe-report        SELECT … FROM customers c INNER JOIN orders o ON KEYS c.order_list
 *                     WHERE c.address.zip = $1: every (customer, order) pair, both documents
 * Without `--indexes` only the primary indexes exist: each query is a primary scan.
 */
import type { HandleOf } from '../../../src/stores/stores.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import type { ReportParams, ReportRow, SoeKind } from '../queries.ts';

const DEFER = 'WITH {"defer_build": true}';

/** The GSI indexes of the SOE queries on the customers keyspace (soe_page uses the JOIN's zip index). */
export function soeIndexStatements(customers: string): { name: string; statement: string }[] {
  const index = (name: string, keys: string) => ({
    name,
    statement: `CREATE INDEX \`${name}\` IF NOT EXISTS ON ${customers}(${keys}) ${DEFER}`,
  });
  return [
    index('ecommerce_search', 'address.country, age_group, DATE_PART_STR(dob, "year")'),
    index('ecommerce_prev_zip', 'address.prev_address.zip'),
    index('ecommerce_devices', 'DISTINCT ARRAY v FOR v IN devices END'),
    index(
      'ecommerce_visited',
      'DISTINCT ARRAY (DISTINCT ARRAY (p.country || "." || x) FOR x IN p.cities END) FOR p IN visited_places END',
    ),
  ];
}

const SELECT = 'SELECT META(c).id AS id, c AS customer';

/** The statement and parameters of a query kind. */
export function soeStatement(
  request: SoeRequest,
  customers: string,
  orders: string,
): { statement: string; parameters: unknown[] } {
  switch (request.kind) {
    case 'soe-search': {
      const p = request.params;
      const year = 'DATE_PART_STR(c.dob, "year")';
      return {
        statement: `${SELECT} FROM ${customers} AS c WHERE c.address.country = $1 AND c.age_group = $2 AND ${year} = $3 ORDER BY c.address.country, c.age_group, ${year} OFFSET $4 LIMIT $5`,
        parameters: [p.country, p.age_group, p.year, p.offset, p.limit],
      };
    }
    case 'soe-page':
      return {
        statement: `${SELECT} FROM ${customers} AS c WHERE c.address.zip = $1 OFFSET $2 LIMIT $3`,
        parameters: [request.params.zip, request.params.offset, request.params.limit],
      };
    case 'soe-nestscan':
      return {
        statement: `${SELECT} FROM ${customers} AS c WHERE c.address.prev_address.zip = $1 LIMIT $2`,
        parameters: [request.params.zip, request.params.limit],
      };
    case 'soe-arrayscan':
      return {
        statement: `${SELECT} FROM ${customers} AS c WHERE ANY v IN c.devices SATISFIES v = $1 END ORDER BY META(c).id LIMIT $2`,
        parameters: [request.params.device, request.params.limit],
      };
    case 'soe-arraydeepscan':
      return {
        statement: `${SELECT} FROM ${customers} AS c WHERE ANY p IN c.visited_places SATISFIES ANY x IN p.cities SATISFIES (p.country || "." || x) = $1 END END ORDER BY META(c).id LIMIT $2`,
        parameters: [`${request.params.country}.${request.params.city}`, request.params.limit],
      };
    case 'soe-report':
      return {
        statement: `SELECT META(c).id AS customer_id, META(o).id AS order_id, c AS customer, o AS \`order\` FROM ${customers} AS c INNER JOIN ${orders} AS o ON KEYS c.order_list WHERE c.address.zip = $1`,
        parameters: [request.params.zip],
      };
  }
}

const sqlpp = (description: string): QueryVariant[] => [{ name: 'sqlpp', description }];

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': sqlpp(
    'SQL++ country, age_group, DATE_PART_STR(dob, "year") ORDER BY those OFFSET LIMIT on GSI (address.country, age_group, DATE_PART_STR(dob, "year"))',
  ),
  'soe-page': sqlpp('SQL++ WHERE c.address.zip = $1 OFFSET LIMIT, no ORDER BY, on GSI (address.zip, order_list)'),
  'soe-nestscan': sqlpp('SQL++ WHERE c.address.prev_address.zip = $1 LIMIT on GSI (address.prev_address.zip)'),
  'soe-arrayscan': sqlpp('SQL++ ANY v IN c.devices SATISFIES v = $1 END ORDER BY META(c).id LIMIT on an array index'),
  'soe-arraydeepscan': sqlpp(
    'SQL++ ANY p IN visited_places SATISFIES ANY x IN p.cities SATISFIES (p.country || "." || x) = $1 END END ORDER BY META(c).id LIMIT on an array index',
  ),
  'soe-report': [
    {
      name: 'on-keys',
      description: 'SQL++ customers INNER JOIN orders ON KEYS c.order_list WHERE c.address.zip = $1, both documents',
    },
  ],
};

export class CouchbaseSoe implements SoeQueries {
  constructor(
    private readonly handle: HandleOf<'couchbase'>,
    private readonly customers: string,
    private readonly orders: string,
    private readonly indexes: boolean,
  ) {}

  private async rows<T>(request: SoeRequest): Promise<T[]> {
    this.handle.requireQuery(request.kind.toUpperCase());
    const { statement, parameters } = soeStatement(request, this.customers, this.orders);
    return this.handle.queryRows<T>(statement, { parameters, adhoc: false, readOnly: true });
  }

  async ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    return (await this.rows<{ id: string }>(request)).map((r) => r.id);
  }

  async report(_variant: string, params: ReportParams): Promise<ReportRow[]> {
    return (await this.rows<{ customer_id: string; order_id: string }>({ kind: 'soe-report', params })).map((r) => ({
      customer: r.customer_id,
      order: r.order_id,
    }));
  }

  async explain(request: SoeRequest): Promise<ScenarioPlan> {
    const { statement, parameters } = soeStatement(request, this.customers, this.orders);
    return { ...(await this.handle.explain(statement, parameters)), indexExpected: this.indexes };
  }
}
