/**
 * The scenario's operations, defined once: what each one asks and how its parameters are drawn.
 * Every store dialect runs these in its own idiom; the oracle answers them from the generator.
 *
 *   pagination  Altoros 2022 §4.3 (YCSB-JSON's Pagination workload): customers whose
 *               `address.country` = $country, OFFSET $offset LIMIT $limit, ids only.
 *               Altoros 2022's SQL++ has no ORDER BY, so its pages are whatever order the index
 *               yields. docbench runs it both ways: ordered by customer id (the default: a page
 *               is then one exact list the oracle compares) or, with `-p ordered=false`, as the
 *               study wrote it, checked as a set (every id of the country, none twice, as many
 *               as min(limit, customers of the country - offset)).
 *   join        Altoros 2022 §4.4 (YCSB-JSON's soe_report2): customers with `address.zip` = $zip
 *               joined to their orders (`order_list` holds the order ids) with `month` = $month,
 *               SUM(sale_price) grouped by month and zip, ordered by that sum. One zip and one
 *               month make at most one group: the answer is that group or nothing.
 *   soe-search  YCSB-JSON's soe_search: `address.country` = $1 AND `age_group` = $2 AND the year
 *               of `dob` = $3, ORDER BY those three (all equal within the answer, so the order
 *               is the store's), OFFSET LIMIT; checked as a set.
 *   soe-page    soe_page: `address.zip` = $1 OFFSET LIMIT, no ORDER BY; checked as a set.
 *   soe-nestscan  soe_nestscan: `address.prev_address.zip` = $1 LIMIT; checked as a set.
 *   soe-arrayscan soe_arrayscan: ANY v IN `devices` SATISFIES v = $1, ORDER BY id LIMIT (a
 *               device id belongs to one customer, so the answer is that customer).
 *   soe-arraydeepscan soe_arraydeepscan: ANY place IN `visited_places` SATISFIES place.country
 *               = $1 AND $2 IN place.cities, ORDER BY id LIMIT: an exact list.
 *   soe-report  soe_report: customers with `address.zip` = $1 INNER JOIN their orders ON KEYS
 *               order_list, every pair (whole documents fetched); checked as a set of pairs.
 *   customer-read / customer-update / customer-insert / order-read
 *               key-value operations on the same documents, so workloads can mix them
 *               (YCSB-JSON's pagination mix inserts and updates customers).
 *
 * Every document these queries fetch is fetched whole (YCSB-JSON selects every field); the
 * answers compared are the ids, and documents are checked field by field by the reads and the
 * read-backs of written documents.
 *
 * Parameters are drawn from values that exist, as YCSB-JSON draws them from documents it saw
 * while loading. With `-p parameters=correlated` (the default) the values of one query come
 * from one seeded customer (a zip and the month of one of its orders; a country, age group and
 * birth year; a visited country and one of its cities), so every query has an answer. YCSB-JSON
 * draws each value from another stored document (`-p parameters=independent`): a zip's
 * customers may then have no order in the month, and a search's three values may match nobody.
 */
import type { NumberGenerator } from '../../src/workload/generators/number-generator.ts';
import { ScrambledZipfianGenerator } from '../../src/workload/generators/scrambled-zipfian.ts';
import { UniformGenerator } from '../../src/workload/generators/uniform.ts';
import type { Random } from '../../src/workload/random.ts';
import { deviceId } from './devices.ts';
import {
  ageGroup,
  CITY_NAMES,
  customerCore,
  deviceCount,
  orderCore,
  REFERENCE_YEAR,
  visitedCore,
  type CustomerCore,
  type PlaceCore,
} from './generator.ts';
import { COUNTRIES } from './geography.ts';
import type { Dataset } from './model.ts';

export const OPERATIONS = [
  'pagination',
  'join',
  'customer-read',
  'customer-update',
  'customer-insert',
  'order-read',
  'soe-search',
  'soe-page',
  'soe-nestscan',
  'soe-arrayscan',
  'soe-arraydeepscan',
  'soe-report',
] as const;
export type OperationName = (typeof OPERATIONS)[number];

/** Row names in results, YCSB style (upper case). */
export function operationRow(operation: OperationName): string {
  return operation.toUpperCase();
}

/** Row of the read-backs of written documents (readback.ts): not an operation of the mix, so OVERALL does not count them. */
export const READBACK_ROW = 'READBACK';

/** The operations whose way of running differs per store and that are measured per variant. */
export const QUERY_KINDS = [
  'pagination',
  'join',
  'soe-search',
  'soe-page',
  'soe-nestscan',
  'soe-arrayscan',
  'soe-arraydeepscan',
  'soe-report',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];
export type SoeKind = Exclude<QueryKind, 'pagination' | 'join'>;

export function isQueryKind(operation: string): operation is QueryKind {
  return (QUERY_KINDS as readonly string[]).includes(operation);
}

export interface PageParams {
  country: string;
  offset: number;
  limit: number;
  /** Ordered by customer id (the default), or the study's query without ORDER BY. */
  ordered?: boolean;
}

export interface JoinParams {
  zip: string;
  month: number;
}

/** One row of the JOIN's answer: a (month, zip) group and its summed sale price. */
export interface JoinRow {
  month: number;
  zip: string;
  sale_price: number;
}

export interface SearchParams {
  country: string;
  age_group: string;
  /** The year of `dob`. */
  year: number;
  offset: number;
  limit: number;
}

export interface ZipPageParams {
  zip: string;
  offset: number;
  limit: number;
}

export interface NestScanParams {
  /** `address.prev_address.zip`. */
  zip: string;
  limit: number;
}

export interface ArrayScanParams {
  device: string;
  limit: number;
}

export interface DeepScanParams {
  country: string;
  city: string;
  limit: number;
}

export interface ReportParams {
  zip: string;
}

/** One row of soe_report: a customer of the zip and one of its orders. */
export interface ReportRow {
  customer: string;
  order: string;
}

/** The parameters of each query kind. */
export interface QueryParams {
  pagination: PageParams;
  join: JoinParams;
  'soe-search': SearchParams;
  'soe-page': ZipPageParams;
  'soe-nestscan': NestScanParams;
  'soe-arrayscan': ArrayScanParams;
  'soe-arraydeepscan': DeepScanParams;
  'soe-report': ReportParams;
}

/** What each query kind answers. */
export interface QueryAnswers {
  pagination: string[];
  join: JoinRow[];
  'soe-search': string[];
  'soe-page': string[];
  'soe-nestscan': string[];
  'soe-arrayscan': string[];
  'soe-arraydeepscan': string[];
  'soe-report': ReportRow[];
}

export type ParameterDraws = 'correlated' | 'independent';

/** How pagination pages and key choices are drawn (YCSB-JSON's defaults unless told otherwise). */
export interface ChooserSettings {
  /** OFFSET is uniform in [0, maxoffset] (Altoros 2022: at most 5). */
  maxoffset: number;
  /** LIMIT is uniform in [minlimit, maxlimit] (Altoros 2022: at most 100). */
  minlimit: number;
  maxlimit: number;
  /** Which customers key-value operations pick: uniform or YCSB's scrambled zipfian. */
  requestdistribution: 'uniform' | 'zipfian';
  /** Pages ordered by id (default) or not (the study's query). */
  ordered?: boolean;
  /** The values of one query from one customer (default) or each from another (YCSB-JSON). */
  parameters?: ParameterDraws;
}

/**
 * Draws every operation's parameters from one seeded generator, shared by all workers of a run
 * (as YCSB's workload object is), so a seed gives the same parameter sequence.
 */
export class ParameterChooser {
  private readonly anyCustomer: UniformGenerator;
  private readonly keyCustomer: NumberGenerator;
  private readonly offset: UniformGenerator;
  private readonly limit: UniformGenerator;
  private readonly order: UniformGenerator | undefined;
  private readonly ordered: boolean;
  private readonly independent: boolean;

  constructor(
    private readonly dataset: Dataset,
    private readonly random: Random,
    settings: ChooserSettings,
  ) {
    const last = dataset.customers - 1;
    this.anyCustomer = new UniformGenerator(random, 0, last);
    this.keyCustomer =
      settings.requestdistribution === 'zipfian'
        ? new ScrambledZipfianGenerator(random, 0, last)
        : new UniformGenerator(random, 0, last);
    this.offset = new UniformGenerator(random, 0, settings.maxoffset);
    this.limit = new UniformGenerator(random, settings.minlimit, settings.maxlimit);
    this.order =
      dataset.ordersPerCustomer > 0 ? new UniformGenerator(random, 0, dataset.ordersPerCustomer - 1) : undefined;
    this.ordered = settings.ordered ?? true;
    this.independent = settings.parameters === 'independent';
  }

  /** The customer the next value comes from: the query's one customer, or a new one per value. */
  private source(first: number): () => number {
    return () => (this.independent ? this.anyCustomer.nextValue() : first);
  }

  private core(index: number): CustomerCore {
    return customerCore(this.dataset, index);
  }

  page(): PageParams {
    const country = this.core(this.anyCustomer.nextValue()).country;
    const params: PageParams = { country, offset: this.offset.nextValue(), limit: this.limit.nextValue() };
    return this.ordered ? params : { ...params, ordered: false };
  }

  join(): JoinParams {
    if (this.order === undefined)
      throw new Error('the JOIN needs orders: this dataset was seeded with 0 orders per customer');
    const customer = this.anyCustomer.nextValue();
    const zip = this.core(customer).zip;
    const next = this.source(customer);
    return { zip, month: orderCore(this.dataset.seed, next(), this.order.nextValue()).month };
  }

  search(): SearchParams {
    const first = this.anyCustomer.nextValue();
    const next = this.source(first);
    const country = this.core(first).country;
    const group = ageGroup(this.core(next()).age);
    const year = REFERENCE_YEAR - this.core(next()).age;
    return { country, age_group: group, year, offset: this.offset.nextValue(), limit: this.limit.nextValue() };
  }

  zipPage(): ZipPageParams {
    return {
      zip: this.core(this.anyCustomer.nextValue()).zip,
      offset: this.offset.nextValue(),
      limit: this.limit.nextValue(),
    };
  }

  nestScan(): NestScanParams {
    return { zip: this.core(this.anyCustomer.nextValue()).prevZip, limit: this.limit.nextValue() };
  }

  arrayScan(): ArrayScanParams {
    const customer = this.anyCustomer.nextValue();
    const slot = this.random.nextInt(deviceCount(this.dataset.seed, customer));
    return { device: deviceId(this.dataset.seed, customer, slot), limit: this.limit.nextValue() };
  }

  deepScan(): DeepScanParams {
    const first = this.anyCustomer.nextValue();
    const places = visitedCore(this.dataset.seed, first);
    const place = places[this.random.nextInt(places.length)]!;
    const cityPlace = this.independent ? this.pickPlace(this.anyCustomer.nextValue()) : place;
    const city = cityPlace.cities[this.random.nextInt(cityPlace.cities.length)]!;
    return { country: COUNTRIES[place.country]!.name, city: CITY_NAMES[city]!, limit: this.limit.nextValue() };
  }

  private pickPlace(customer: number): PlaceCore {
    const places = visitedCore(this.dataset.seed, customer);
    return places[this.random.nextInt(places.length)]!;
  }

  report(): ReportParams {
    return { zip: this.core(this.anyCustomer.nextValue()).zip };
  }

  /** The parameters of a query kind. */
  draw<K extends QueryKind>(kind: K): QueryParams[K] {
    const draws: { [Q in QueryKind]: () => QueryParams[Q] } = {
      pagination: () => this.page(),
      join: () => this.join(),
      'soe-search': () => this.search(),
      'soe-page': () => this.zipPage(),
      'soe-nestscan': () => this.nestScan(),
      'soe-arrayscan': () => this.arrayScan(),
      'soe-arraydeepscan': () => this.deepScan(),
      'soe-report': () => this.report(),
    };
    return draws[kind]();
  }

  /** A seeded customer for a key-value read or update. */
  customerIndex(): number {
    return this.keyCustomer.nextValue();
  }

  /** One of a seeded customer's orders, for an order read. */
  orderOf(): { customer: number; order: number } {
    if (this.order === undefined)
      throw new Error('order reads need orders: this dataset was seeded with 0 orders per customer');
    return { customer: this.keyCustomer.nextValue(), order: this.order.nextValue() };
  }
}
