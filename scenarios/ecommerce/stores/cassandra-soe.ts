/**
 * Cassandra: YCSB-JSON's other queries, modelled the way the scenario's other questions are:
 * a query table per question, written with the customer, clustered by customer id; then the
 * whole customers read by id (YCSB-JSON selects every field), a bounded number in flight.
 *
 *   ecommerce_customers_by_search   PRIMARY KEY ((country, age_group, dob_year), customer_id)
 *                                   soe_search: one partition, LIMIT offset+limit, the offset
 *                                   skipped in the client (CQL has no OFFSET)
 *   ecommerce_customers_by_zip      (the JOIN's) soe_page and soe_report
 *   ecommerce_customers_by_prev_zip PRIMARY KEY ((prev_zip), customer_id)      soe_nestscan
 *   ecommerce_customers_by_place    PRIMARY KEY ((country, city), customer_id): one row per city
 *                                   of a visited_places element              soe_arraydeepscan,
 *                                   a partition in id order, as its ORDER BY id asks
 *   SAI on VALUES(devices) of ecommerce_customers                          soe_arrayscan:
 *                                   `WHERE devices CONTAINS ?` returns the whole row; a device
 *                                   belongs to one customer, so SAI's token order is no order
 *   soe_report                      customers_by_zip, their rows, then their orders by id
 *
 * These tables are the data model (as the others are): `indexes=false` changes nothing here.
 */
import cassandra from 'cassandra-driver';
import type { CassandraHandle } from '../../../src/stores/cassandra/handle.ts';
import { waitFor } from '../../../src/stores/wait.ts';
import { notYetOnTimeout } from '../../shared/cassandra-poll.ts';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { QueryVariant, SoeIdsRequest, SoeQueries, SoeRequest } from '../dialect.ts';
import type { Customer } from '../model.ts';
import type { ArrayScanParams, ReportParams, ReportRow, SoeKind } from '../queries.ts';

/** Rows read by id at once. */
const FETCH_CONCURRENCY = 32;
const DEVICE_INDEX = 'ecommerce_devices_sai';

/** The kinds answered from a query table. */
type KeyRead = Exclude<SoeIdsRequest, { kind: 'soe-arrayscan' }>;

export interface Statement {
  query: string;
  params: unknown[];
}

/** What a customer's query-table rows are made from. */
export type IndexedFields = Pick<Customer, '_id' | 'address' | 'age_group' | 'dob' | 'visited_places'>;

export const SOE_VARIANTS: Record<SoeKind, QueryVariant[]> = {
  'soe-search': [
    {
      name: 'query-table',
      description:
        'one partition of customers_by_search ((country, age_group, dob_year), customer_id), LIMIT offset+limit, offset skipped in the client; rows by id',
    },
  ],
  'soe-page': [
    {
      name: 'query-table',
      description: 'one partition of customers_by_zip, LIMIT offset+limit, offset skipped in the client; rows by id',
    },
  ],
  'soe-nestscan': [{ name: 'query-table', description: 'one partition of customers_by_prev_zip, LIMIT; rows by id' }],
  'soe-arrayscan': [
    {
      name: 'sai',
      description: 'SELECT * FROM customers WHERE devices CONTAINS ? LIMIT ? on a SAI index of the list values',
    },
  ],
  'soe-arraydeepscan': [
    {
      name: 'query-table',
      description: 'one partition of customers_by_place ((country, city), customer_id) in id order, LIMIT; rows by id',
    },
  ],
  'soe-report': [
    {
      name: 'app-join',
      description: 'customers_by_zip, then the customers and their orders by id (concurrent); pairs in the client',
    },
  ],
};

export const SOE_LAYOUT =
  'cassandra: YCSB-JSON query tables customers_by_search, customers_by_prev_zip, customers_by_place (clustered by id) and a SAI index on VALUES(devices)';

export class CassandraSoe implements SoeQueries {
  private readonly client: cassandra.Client;
  private readonly q: Record<string, string>;

  constructor(
    private readonly handle: CassandraHandle,
    table: (name: string) => string,
    private readonly customersTable: string,
  ) {
    this.client = handle.client;
    const t = table;
    this.q = {
      insertSearch: `INSERT INTO ${t('ecommerce_customers_by_search')} (country, age_group, dob_year, customer_id) VALUES (?, ?, ?, ?)`,
      insertPrevZip: `INSERT INTO ${t('ecommerce_customers_by_prev_zip')} (prev_zip, customer_id) VALUES (?, ?)`,
      insertPlace: `INSERT INTO ${t('ecommerce_customers_by_place')} (country, city, customer_id) VALUES (?, ?, ?)`,
      deleteSearch: `DELETE FROM ${t('ecommerce_customers_by_search')} WHERE country = ? AND age_group = ? AND dob_year = ? AND customer_id = ?`,
      deletePrevZip: `DELETE FROM ${t('ecommerce_customers_by_prev_zip')} WHERE prev_zip = ? AND customer_id = ?`,
      deletePlace: `DELETE FROM ${t('ecommerce_customers_by_place')} WHERE country = ? AND city = ? AND customer_id = ?`,
      search: `SELECT customer_id FROM ${t('ecommerce_customers_by_search')} WHERE country = ? AND age_group = ? AND dob_year = ? LIMIT ?`,
      zip: `SELECT customer_id FROM ${t('ecommerce_customers_by_zip')} WHERE zip = ? LIMIT ?`,
      allOfZip: `SELECT customer_id FROM ${t('ecommerce_customers_by_zip')} WHERE zip = ?`,
      prevZip: `SELECT customer_id FROM ${t('ecommerce_customers_by_prev_zip')} WHERE prev_zip = ? LIMIT ?`,
      place: `SELECT customer_id FROM ${t('ecommerce_customers_by_place')} WHERE country = ? AND city = ? LIMIT ?`,
      device: `SELECT * FROM ${customersTable} WHERE devices CONTAINS ? LIMIT ?`,
      customer: `SELECT * FROM ${customersTable} WHERE id = ?`,
      order: `SELECT id FROM ${t('ecommerce_orders')} WHERE id = ?`,
      indexed: `SELECT id, address, age_group, dob, visited_places FROM ${customersTable} WHERE id = ?`,
    };
  }

  /** Tables (after the customers table exists). */
  ddl(ks: string): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_customers_by_search (country text, age_group text, dob_year int, customer_id text, PRIMARY KEY ((country, age_group, dob_year), customer_id))`,
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_customers_by_prev_zip (prev_zip text, customer_id text, PRIMARY KEY ((prev_zip), customer_id))`,
      `CREATE TABLE IF NOT EXISTS ${ks}.ecommerce_customers_by_place (country text, city text, customer_id text, PRIMARY KEY ((country, city), customer_id))`,
    ];
  }

  readonly tables = [
    'ecommerce_customers_by_search',
    'ecommerce_customers_by_prev_zip',
    'ecommerce_customers_by_place',
  ];

  /** The SAI index of soe_arrayscan, waited for until queryable. */
  async buildIndexes(): Promise<string> {
    await this.client.execute(
      `CREATE INDEX IF NOT EXISTS ${DEVICE_INDEX} ON ${this.customersTable} (VALUES(devices)) USING 'sai'`,
    );
    await waitFor(
      'the SAI index on devices to become queryable',
      notYetOnTimeout(async () => {
        const rows = (
          await this.client.execute(
            'SELECT is_queryable FROM system_views.sai_column_indexes WHERE keyspace_name = ? AND index_name = ? ALLOW FILTERING',
            [this.handle.keyspace, DEVICE_INDEX],
            { prepare: true },
          )
        ).rows;
        return rows.length > 0 && rows.every((r) => r.get('is_queryable') === true);
      }),
      { store: 'cassandra', intervalMs: 250 },
    );
    return `cassandra: SAI index ${DEVICE_INDEX} on VALUES(devices), built after the load`;
  }

  /** A customer's query-table rows (inserts, or deletes). */
  statements(c: IndexedFields, remove = false): Statement[] {
    const year = Number(c.dob.slice(0, 4));
    const places = new Map<string, [string, string]>();
    for (const p of c.visited_places)
      for (const city of p.cities) places.set(`${p.country}\u0000${city}`, [p.country, city]);
    return [
      {
        query: remove ? this.q.deleteSearch! : this.q.insertSearch!,
        params: [c.address.country, c.age_group, year, c._id],
      },
      { query: remove ? this.q.deletePrevZip! : this.q.insertPrevZip!, params: [c.address.prev_address.zip, c._id] },
      ...[...places.values()].map(([country, city]) => ({
        query: remove ? this.q.deletePlace! : this.q.insertPlace!,
        params: [country, city, c._id],
      })),
    ];
  }

  /** The fields of the customers the removal of their query-table rows needs (absent ones skipped). */
  async indexedFields(ids: readonly string[]): Promise<IndexedFields[]> {
    const found = await this.readAll(this.q.indexed!, ids);
    return found.map((row) => ({
      _id: row.get('id'),
      address: row.get('address'),
      age_group: row.get('age_group'),
      dob: row.get('dob'),
      visited_places: ((row.get('visited_places') ?? []) as { country: string; cities: string[] | null }[]).map(
        (p) => ({ country: p.country, cities: p.cities ?? [] }),
      ),
    }));
  }

  /** Rows by id, a bounded number in flight; the ones that exist. */
  private async readAll(query: string, ids: readonly string[]): Promise<cassandra.types.Row[]> {
    if (ids.length === 0) return [];
    const result = await cassandra.concurrent.executeConcurrent(
      this.client,
      query,
      ids.map((id) => [id]),
      { concurrencyLevel: FETCH_CONCURRENCY, collectResults: true },
    );
    return result.resultItems.flatMap((r) => r.rows);
  }

  /** The query-table read of a kind: statement, parameters, how many rows to skip. */
  private keyRead(request: KeyRead): {
    query: string;
    params: unknown[];
    skip: number;
  } {
    switch (request.kind) {
      case 'soe-search': {
        const p = request.params;
        return { query: this.q.search!, params: [p.country, p.age_group, p.year, p.offset + p.limit], skip: p.offset };
      }
      case 'soe-page':
        return {
          query: this.q.zip!,
          params: [request.params.zip, request.params.offset + request.params.limit],
          skip: request.params.offset,
        };
      case 'soe-nestscan':
        return { query: this.q.prevZip!, params: [request.params.zip, request.params.limit], skip: 0 };
      case 'soe-arraydeepscan':
        return {
          query: this.q.place!,
          params: [request.params.country, request.params.city, request.params.limit],
          skip: 0,
        };
    }
  }

  private async keyIds(request: KeyRead): Promise<string[]> {
    if (request.params.limit <= 0) return [];
    const { query, params, skip } = this.keyRead(request);
    const limit = params[params.length - 1] as number;
    const rows = (await this.client.execute(query, params, { prepare: true, fetchSize: limit })).rows;
    return rows.slice(skip).map((r) => r.get('customer_id') as string);
  }

  /** Ids from the query table, then the whole rows by id: the ids of the rows that exist, in the table's order. */
  private async answer(request: KeyRead): Promise<string[]> {
    const ids = await this.keyIds(request);
    const found = new Set((await this.readAll(this.q.customer!, ids)).map((r) => r.get('id') as string));
    return ids.filter((id) => found.has(id));
  }

  /** The array scan reads the SAI index of the customers table; the others a query table. */
  ids(_variant: string, request: SoeIdsRequest): Promise<string[]> {
    return request.kind === 'soe-arrayscan' ? this.arrayScan(request.params) : this.answer(request);
  }

  private async arrayScan(params: ArrayScanParams): Promise<string[]> {
    if (params.limit <= 0) return [];
    const rows = (
      await this.client.execute(this.q.device!, [params.device, params.limit], {
        prepare: true,
        fetchSize: params.limit,
      })
    ).rows;
    return rows.map((r) => r.get('id') as string).sort();
  }

  async report(_variant: string, params: ReportParams): Promise<ReportRow[]> {
    return (await this.reportReads(params)).rows;
  }

  private async reportReads(params: ReportParams): Promise<{ customers: number; rows: ReportRow[] }> {
    const ids = (
      await this.client.execute(this.q.allOfZip!, [params.zip], { prepare: true, fetchSize: 100_000 })
    ).rows.map((r) => r.get('customer_id') as string);
    const customers = await this.readAll(this.q.customer!, ids);
    const pairs = customers.flatMap((row) =>
      ((row.get('order_list') ?? []) as string[]).map((order) => ({ customer: row.get('id') as string, order })),
    );
    const orders = new Set(
      (
        await this.readAll(
          this.q.order!,
          pairs.map((p) => p.order),
        )
      ).map((r) => r.get('id') as string),
    );
    return { customers: ids.length, rows: pairs.filter((p) => orders.has(p.order)) };
  }

  async explain(request: SoeRequest): Promise<ScenarioPlan> {
    if (request.kind === 'soe-arrayscan') {
      return {
        ...(await this.handle.trace(
          this.q.device!,
          [request.params.device, request.params.limit],
          request.params.limit,
        )),
        indexExpected: true,
      };
    }
    if (request.kind === 'soe-report') {
      const { customers, rows } = await this.reportReads(request.params);
      const step = await this.handle.trace(this.q.allOfZip!, [request.params.zip], 100_000);
      return {
        ...step,
        documentsExamined: customers + rows.length,
        returned: rows.length,
        raw: `${step.raw}\n(then ${customers} customers and ${rows.length} orders read by id)`,
        indexExpected: true,
      };
    }
    const { query, params } = this.keyRead(request);
    const ids = await this.keyIds(request);
    const steps = [
      { label: 'the query table', plan: await this.handle.trace(query, params, params[params.length - 1] as number) },
    ];
    if (ids.length > 0)
      steps.push({
        label: `${ids.length} customers by id (the first traced)`,
        plan: await this.handle.trace(this.q.customer!, [ids[0]]),
      });
    return { ...combineEvidence(steps), documentsExamined: ids.length, returned: ids.length, indexExpected: true };
  }
}
