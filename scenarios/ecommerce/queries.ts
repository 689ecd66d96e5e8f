/**
 * The scenario's operations, defined once: what each one asks and how its parameters are drawn.
 * Every store dialect runs these in its own idiom; the oracle answers them from the generator.
 *
 *   pagination  Altoros 2022 §4.3 (YCSB-JSON's Pagination workload): customers whose
 *               `address.country` = $country, OFFSET $offset LIMIT $limit, ids only.
 *               Altoros 2022's SQL++ has no ORDER BY, so its pages are whatever order the index
 *               yields; docbench orders by customer id (`_id` / `META().id`, the same string on
 *               every store) so a page is one exact list the oracle can compare.
 *   join        Altoros 2022 §4.4 (YCSB-JSON's JOIN workload): customers with `address.zip` = $zip
 *               joined to their orders (`order_list` holds the order ids) with `month` = $month,
 *               SUM(sale_price) grouped by month and zip, ordered by that sum. One zip and one
 *               month make at most one group: the answer is that group or nothing.
 *   customer-read / customer-update / customer-insert / order-read
 *               key-value operations on the same documents, so workloads can mix them
 *               (YCSB-JSON's pagination mix inserts and updates customers).
 *
 * Parameters are drawn from values that exist, as YCSB-JSON draws them from documents it saw
 * while loading: docbench picks a seeded customer and takes its country (pagination) or its zip
 * and the month of one of its orders (join), computed from the generator, never read back.
 */
import type { NumberGenerator } from '../../src/workload/generators/number-generator.ts';
import { ScrambledZipfianGenerator } from '../../src/workload/generators/scrambled-zipfian.ts';
import { UniformGenerator } from '../../src/workload/generators/uniform.ts';
import type { Random } from '../../src/workload/random.ts';
import { customerCore, orderCore } from './generator.ts';
import type { Dataset } from './model.ts';

export const OPERATIONS = ['pagination', 'join', 'customer-read', 'customer-update', 'customer-insert', 'order-read'] as const;
export type OperationName = (typeof OPERATIONS)[number];

/** Row names in results, YCSB style (upper case). */
export function operationRow(operation: OperationName): string {
  return operation.toUpperCase();
}

/** The operations whose way of running differs per store and that are measured per variant. */
export type QueryKind = 'pagination' | 'join';

export interface PageParams {
  country: string;
  offset: number;
  limit: number;
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

/** How pagination pages and key choices are drawn (YCSB-JSON's defaults unless told otherwise). */
export interface ChooserSettings {
  /** OFFSET is uniform in [0, maxoffset] (Altoros 2022: at most 5). */
  maxoffset: number;
  /** LIMIT is uniform in [minlimit, maxlimit] (Altoros 2022: at most 100). */
  minlimit: number;
  maxlimit: number;
  /** Which customers key-value operations pick: uniform or YCSB's scrambled zipfian. */
  requestdistribution: 'uniform' | 'zipfian';
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

  constructor(
    private readonly dataset: Dataset,
    random: Random,
    settings: ChooserSettings,
  ) {
    const last = dataset.customers - 1;
    this.anyCustomer = new UniformGenerator(random, 0, last);
    this.keyCustomer = settings.requestdistribution === 'zipfian' ? new ScrambledZipfianGenerator(random, 0, last) : new UniformGenerator(random, 0, last);
    this.offset = new UniformGenerator(random, 0, settings.maxoffset);
    this.limit = new UniformGenerator(random, settings.minlimit, settings.maxlimit);
    this.order = dataset.ordersPerCustomer > 0 ? new UniformGenerator(random, 0, dataset.ordersPerCustomer - 1) : undefined;
  }

  page(): PageParams {
    const country = customerCore(this.dataset.seed, this.anyCustomer.nextValue()).country;
    return { country, offset: this.offset.nextValue(), limit: this.limit.nextValue() };
  }

  join(): JoinParams {
    if (this.order === undefined) throw new Error('the JOIN needs orders: this dataset was seeded with 0 orders per customer');
    const customer = this.anyCustomer.nextValue();
    const zip = customerCore(this.dataset.seed, customer).zip;
    return { zip, month: orderCore(this.dataset.seed, customer, this.order.nextValue()).month };
  }

  /** A seeded customer for a key-value read or update. */
  customerIndex(): number {
    return this.keyCustomer.nextValue();
  }

  /** One of a seeded customer's orders, for an order read. */
  orderOf(): { customer: number; order: number } {
    if (this.order === undefined) throw new Error('order reads need orders: this dataset was seeded with 0 orders per customer');
    return { customer: this.keyCustomer.nextValue(), order: this.order.nextValue() };
  }
}
