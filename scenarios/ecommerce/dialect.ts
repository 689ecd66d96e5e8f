/**
 * What each store implements for the e-commerce scenario: how it keeps customers and orders and
 * how it runs the operations of queries.ts in its own idiom. One file per store under `stores/`,
 * each exporting `createDialect(store)` (the same name everywhere, so two stores read side by
 * side).
 *
 * The scenario owns the data (generator.ts), the operations and their parameters (queries.ts)
 * and the right answers (oracle.ts); a dialect only translates. It never touches the clock
 * (run.ts times every call) and never judges an answer (run.ts checks each against the oracle).
 * An operation a store (or its local stand-in) cannot run throws `UnsupportedError`: it is
 * counted as UNSUPPORTED, never as a success.
 */
import type { StoreName } from '../../src/stores/stores.ts';
import type { DialectDefinition } from '../shared/dialects.ts';
import type { ScenarioPlan } from '../shared/plans.ts';
import type { Customer, CustomerPatch, Order } from './model.ts';
import type { JoinParams, JoinRow, PageParams, QueryKind, QueryParams, ReportParams, ReportRow } from './queries.ts';

/** Names every store derives its collections, tables, databases or key prefixes from. */
export const NAMES = {
  customers: 'ecommerce_customers',
  orders: 'ecommerce_orders',
  /** Where the manifest lives, on stores that keep it apart from the documents. */
  meta: 'ecommerce_meta',
  /** Key prefix on key-value stores. */
  prefix: 'ecommerce',
} as const;

/**
 * The index that serves the pagination's filter on stores with optional secondary indexes
 * (MongoDB, CouchDB's Mango, Couchbase GSI): `country-id`, (address.country, id), gives an
 * id-ordered page straight from the index (docbench's ordered page); `country`, address.country
 * alone, is Altoros 2022's own (its `query1` and `{"address.country": 1}`), which its unordered
 * page ran on. Cassandra's query table and Redis's sorted sets hold one order either way.
 */
export const PAGINATION_INDEXES = ['country-id', 'country'] as const;
export type PaginationIndex = (typeof PAGINATION_INDEXES)[number];

/** What a store holds: written last by seeding, read first by every run. */
export interface Manifest {
  scenario: 'ecommerce';
  generatorVersion: number;
  seed: number;
  customers: number;
  ordersPerCustomer: number;
  /** Customers per zip the pool was made for (geography.ts). */
  customersPerZip: number;
  /** Whether the secondary indexes were built (`--indexes`); the query tables of Cassandra and the index sets of Redis always are. */
  indexes: boolean;
  /** The pagination's index (absent in datasets seeded before it could be chosen: `country-id`). */
  paginationIndex?: PaginationIndex;
  /** Sign-ups (customers inserted by runs) may exist at indexes [customers, signupsUpTo). */
  signupsUpTo: number;
  seededAt: string;
}

/** One way a store runs a query, e.g. MongoDB's JOIN as `lookup` or `two-phase`. */
export interface QueryVariant {
  name: string;
  /** One line: what runs, in the store's terms (kept in the result's notes). */
  description: string;
}

/** A batch of the seeded data: customers and all their orders, written together. */
export interface SeedBatch {
  customers: readonly Customer[];
  orders: readonly Order[];
}

/** What removing a customer needs on stores that maintain their own index entries. */
export interface CustomerKey {
  id: string;
  country: string;
  zip: string;
}

/** What a dialect is told when it is made. */
export interface EcommerceContext {
  /**
   * Build and use secondary indexes (MongoDB, CouchDB's Mango indexes, Couchbase's GSI), or
   * leave the queries to scan, as an unindexed database would. Where the index is the data model
   * (Cassandra's query tables, Redis's index sets, CouchDB's views) it is always there.
   * Default: true.
   */
  readonly indexes?: boolean;
  /** Which index serves the pagination (see PaginationIndex); default `country-id`. */
  readonly paginationIndex?: PaginationIndex;
}

/**
 * YCSB-JSON's other queries (queries.ts), each in the store's idiom; every document fetched whole.
 * The five that answer customer ids take the request (kind and parameters) whole, so a store
 * switches on its kind once, and its explain reads the same request.
 */
export interface SoeQueries {
  /** The customer ids of a search, a zip page, a nested scan or an array scan. */
  ids(variant: string, request: SoeIdsRequest): Promise<string[]>;
  report(variant: string, params: ReportParams): Promise<ReportRow[]>;
}

export interface EcommerceDialect {
  /** The ways this store runs each query kind, in the order they are measured. */
  readonly variants: Readonly<Record<QueryKind, readonly QueryVariant[]>>;
  /** How this store keeps and indexes the data, one line per choice (kept in the result's notes). */
  readonly layout: readonly string[];
  /** Whether a query sees every acknowledged write at once (false for eventually consistent indexes). */
  readonly readsOwnWrites: boolean;
  /** Remove everything the scenario created; fine when there is nothing. */
  drop(): Promise<void>;
  /** Create collections / tables (and whatever must exist before the first write). */
  prepare(): Promise<void>;
  /** Write one batch of seeded customers and their orders with the store's bulk API. */
  insertMany(batch: SeedBatch): Promise<void>;
  readManifest(): Promise<Manifest | null>;
  writeManifest(manifest: Manifest): Promise<void>;
  /** Delete customers (and their index entries); ids that do not exist are fine. */
  removeCustomers(customers: readonly CustomerKey[]): Promise<void>;

  /** Customer ids of the page, in ascending id order. */
  pagination(variant: string, params: PageParams): Promise<string[]>;
  /** The JOIN's groups, ordered by sale price (one zip and month: one group or none). */
  join(variant: string, params: JoinParams): Promise<JoinRow[]>;
  /** The whole customer, without store metadata (`_rev` and the like); null when absent. */
  readCustomer(id: string): Promise<Customer | null>;
  readOrder(id: string): Promise<Order | null>;
  /** Insert a new customer with its index entries; an existing id is an error. */
  insertCustomer(customer: Customer): Promise<void>;
  /** Change the fields of `patch` only; false when the customer does not exist. */
  updateCustomer(id: string, patch: CustomerPatch): Promise<boolean>;
  /** YCSB-JSON's search, page, nested scan, array scans and report. */
  readonly soe: SoeQueries;
}

/** Optional ability: secondary indexes built after the load (timed as INDEX-BUILD while seeding). */
export interface IndexBuilder {
  /** Build the indexes and resolve when queries can use them; one line per index built. */
  buildIndexes(): Promise<string[]>;
}

/** A query to explain, with its parameters. */
export type ExplainRequest = { [K in QueryKind]: { kind: K; params: QueryParams[K] } }[QueryKind];

/** One of YCSB-JSON's other queries (every kind but the pagination and the JOIN), with its parameters. */
export type SoeRequest = Exclude<ExplainRequest, { kind: 'pagination' | 'join' }>;

/** One of YCSB-JSON's other queries that answer customer ids (all but the report). */
export type SoeIdsRequest = Exclude<SoeRequest, { kind: 'soe-report' }>;

/**
 * Optional ability: how the store runs a query in a variant (its plan, from the store's own
 * evidence) and whether an index was meant to serve it. Called once per query kind and variant,
 * after the variant's timed run; it may run the query again. Throws UnsupportedError where the
 * store (or its stand-in) cannot say.
 */
export interface QueryExplainer {
  explain(variant: string, request: ExplainRequest): Promise<ScenarioPlan>;
}

export function canExplain(d: EcommerceDialect): d is EcommerceDialect & QueryExplainer {
  return typeof (d as Partial<QueryExplainer>).explain === 'function';
}

export function canBuildIndexes(d: EcommerceDialect): d is EcommerceDialect & IndexBuilder {
  return typeof (d as Partial<IndexBuilder>).buildIndexes === 'function';
}

/** Each store file's one export: `export const dialect: EcommerceDialectDefinition<'redis'> = { store: 'redis', create: … }`. */
export type EcommerceDialectDefinition<K extends StoreName> = DialectDefinition<K, EcommerceContext, EcommerceDialect>;
