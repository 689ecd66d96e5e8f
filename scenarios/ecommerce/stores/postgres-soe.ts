/**
 * PostgreSQL: YCSB-JSON's other queries in SQL over the JSONB documents, whole documents fetched,
 * each with the index a PostgreSQL developer adds for it:
 *
 *   soe-search        WHERE country = $1 AND age_group = $2 AND dob BETWEEN the year's first
 *                     and last day ORDER BY country, age_group, dob OFFSET LIMIT
 *                                     btree ((address->>country), (age_group), (dob) COLLATE "C")
 *                     (dob is a YYYY-MM-DD string: the range and the order are on text, byte order)
 *   soe-page          WHERE zip = $1 OFFSET LIMIT, no ORDER BY   btree ((address->>zip)), the JOIN's
 *   soe-nestscan      WHERE prev_address zip = $1 LIMIT          btree ((address->prev_address->>zip))
 *   soe-arrayscan     WHERE doc->'devices' @> [d] ORDER BY id LIMIT
 *                                                                 GIN ((doc->'devices') jsonb_path_ops)
 *   soe-arraydeepscan WHERE doc->'visited_places' @> [{country, cities: [city]}] ORDER BY id LIMIT
 *                     (containment of one element holding both: MongoDB's $elemMatch)
 *                                                                 GIN ((doc->'visited_places') jsonb_path_ops)
 *   soe-report        the zip's customers JOIN LATERAL their order_list JOIN orders by key: every
 *                     (customer, order) pair, both documents whole
 * Without `--indexes` none of these is built: every query reads the whole table.
 */
import {
  explainPreferringIndexes,
  explainStatement,
  queryPreferringIndexes,
} from '../../../src/stores/postgres/explain.ts';
import { quoteIdent, type PostgresHandle } from '../../../src/stores/postgres/handle.ts';
import type { QueryResultRow } from 'pg';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import { NAMES } from '../dialect.ts';
import type { ReportParams, ReportRow, SoeKind } from '../queries.ts';

const C = quoteIdent(NAMES.customers);
const O = quoteIdent(NAMES.orders);

/** The expressions the queries filter and sort on, written once so each index matches its query's text. */
export const EXPR = {
  country: `(doc->'address'->>'country')`,
  zip: `(doc->'address'->>'zip')`,
  prevZip: `(doc->'address'->'prev_address'->>'zip')`,
  ageGroup: `(doc->>'age_group')`,
  dob: `((doc->>'dob') COLLATE "C")`,
} as const;

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': [
    {
      name: 'sql',
      description:
        'SELECT … WHERE country, age_group, dob BETWEEN ORDER BY country, age_group, dob OFFSET LIMIT on a btree expression index',
    },
  ],
  'soe-page': [{ name: 'sql', description: 'SELECT … WHERE address zip = $1 OFFSET LIMIT, no ORDER BY, on (zip)' }],
  'soe-nestscan': [{ name: 'sql', description: 'SELECT … WHERE prev_address zip = $1 LIMIT on (prev_address zip)' }],
  'soe-arrayscan': [
    {
      name: 'sql',
      description: "SELECT … WHERE doc->'devices' @> [d] ORDER BY id LIMIT on a GIN jsonb_path_ops index",
    },
  ],
  'soe-arraydeepscan': [
    {
      name: 'sql',
      description:
        "SELECT … WHERE doc->'visited_places' @> [{country, cities: [city]}] ORDER BY id LIMIT on a GIN jsonb_path_ops index",
    },
  ],
  'soe-report': [
    {
      name: 'join',
      description:
        'SELECT c.doc, o.doc FROM customers c JOIN LATERAL jsonb_array_elements_text(order_list) JOIN orders o ON o.id: every (customer, order) pair',
    },
  ],
};

/** The indexes of the SOE queries on the customers table. */
export const SOE_INDEXES = [
  { name: 'ecommerce_search', on: `${C} (${EXPR.country}, ${EXPR.ageGroup}, ${EXPR.dob})` },
  { name: 'ecommerce_prev_zip', on: `${C} (${EXPR.prevZip})` },
  { name: 'ecommerce_devices', on: `${C} USING gin ((doc->'devices') jsonb_path_ops)` },
  { name: 'ecommerce_visited', on: `${C} USING gin ((doc->'visited_places') jsonb_path_ops)` },
] as const;

const SQL = {
  search: `SELECT id, doc FROM ${C} WHERE ${EXPR.country} = $1 AND ${EXPR.ageGroup} = $2 AND ${EXPR.dob} BETWEEN $3 AND $4 ORDER BY ${EXPR.country}, ${EXPR.ageGroup}, ${EXPR.dob} OFFSET $5 LIMIT $6`,
  page: `SELECT id, doc FROM ${C} WHERE ${EXPR.zip} = $1 OFFSET $2 LIMIT $3`,
  nestscan: `SELECT id, doc FROM ${C} WHERE ${EXPR.prevZip} = $1 LIMIT $2`,
  arrayscan: `SELECT id, doc FROM ${C} WHERE doc->'devices' @> jsonb_build_array($1::text) ORDER BY id LIMIT $2`,
  deepscan: `SELECT id, doc FROM ${C} WHERE doc->'visited_places' @> jsonb_build_array(jsonb_build_object('country', $1::text, 'cities', jsonb_build_array($2::text))) ORDER BY id LIMIT $3`,
  report: `SELECT c.id AS customer, o.id AS "order", c.doc AS customer_doc, o.doc AS order_doc FROM ${C} c CROSS JOIN LATERAL jsonb_array_elements_text(c.doc->'order_list') AS l(order_id) JOIN ${O} o ON o.id = l.order_id WHERE (c.doc->'address'->>'zip') = $1`,
} as const;

/** A query kind's statement and parameters (named: each pooled connection prepares it once). */
function statement(request: SoeIdsRequest): { name: string; text: string; values: unknown[] } {
  switch (request.kind) {
    case 'soe-search': {
      const p = request.params;
      return {
        name: 'ecommerce_soe_search',
        text: SQL.search,
        values: [p.country, p.age_group, `${p.year}-01-01`, `${p.year}-12-31`, p.offset, p.limit],
      };
    }
    case 'soe-page': {
      const p = request.params;
      return { name: 'ecommerce_soe_page', text: SQL.page, values: [p.zip, p.offset, p.limit] };
    }
    case 'soe-nestscan':
      return {
        name: 'ecommerce_soe_nestscan',
        text: SQL.nestscan,
        values: [request.params.zip, request.params.limit],
      };
    case 'soe-arrayscan':
      return {
        name: 'ecommerce_soe_arrayscan',
        text: SQL.arrayscan,
        values: [request.params.device, request.params.limit],
      };
    case 'soe-arraydeepscan': {
      const p = request.params;
      return { name: 'ecommerce_soe_deepscan', text: SQL.deepscan, values: [p.country, p.city, p.limit] };
    }
  }
}

/**
 * How a statement runs: prepared (named) without indexes; with them, in one round trip with the
 * planner told to prefer them (explain.ts `preferIndexes`: on a test-sized table it would read
 * the table instead).
 */
export async function runStatement<R extends QueryResultRow>(
  handle: PostgresHandle,
  indexes: boolean,
  s: { name: string; text: string; values: unknown[] },
): Promise<R[]> {
  return indexes ? queryPreferringIndexes<R>(handle, s.text, s.values) : handle.query<R>(s);
}

/** Its plan, under the same setting. */
export async function explainRun(
  handle: PostgresHandle,
  indexes: boolean,
  s: { text: string; values: unknown[] },
): Promise<ScenarioPlan> {
  const plan = indexes
    ? await explainPreferringIndexes(handle, s.text, s.values)
    : await explainStatement(handle, s.text, s.values);
  return { ...plan, indexExpected: indexes };
}

export class PostgresSoe implements SoeQueries {
  constructor(
    private readonly handle: PostgresHandle,
    private readonly indexes: boolean,
  ) {}

  async ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    const rows = await runStatement<{ id: string }>(this.handle, this.indexes, statement(request));
    return rows.map((r) => r.id);
  }

  private reportStatement(p: ReportParams) {
    return { name: 'ecommerce_soe_report', text: SQL.report, values: [p.zip] };
  }

  async report(_variant: string, p: ReportParams): Promise<ReportRow[]> {
    const rows = await runStatement<{ customer: string; order: string }>(
      this.handle,
      this.indexes,
      this.reportStatement(p),
    );
    return rows.map((r) => ({ customer: r.customer, order: r.order }));
  }

  explain(request: SoeRequest): Promise<ScenarioPlan> {
    return explainRun(
      this.handle,
      this.indexes,
      request.kind === 'soe-report' ? this.reportStatement(request.params) : statement(request),
    );
  }
}
