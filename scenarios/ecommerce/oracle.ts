/**
 * The right answers, computed from the generator alone (never from a store):
 *   - the page of customer ids for (country, offset, limit): in ascending id order, or, for the
 *     study's unordered query, any ids of the country, each once, as many as there should be;
 *   - the JOIN's group for (zip, month): the exact sum of the matching orders' sale prices;
 *   - YCSB-JSON's other queries (query-checks.ts);
 *   - any customer or order document, field by field, and a written document read back.
 *
 * Start-up cost is one pass over the dataset's core values (oracle-tables.ts: a few microseconds
 * per customer, no faker, typed arrays), after which every check is a lookup, a comparison and
 * the core values of the ids returned: cheap enough to check every answer of a run without
 * making the client the bottleneck.
 *
 * Sums are kept in integer cents; a store's floating-point sum is rounded to cents before it is
 * compared, so the order a store adds in cannot fail a check, and a wrong row always does.
 */
import { checkOrdered, checkUnordered } from './answer-checks.ts';
import { customerCore, customerPatch, generateCustomer, generateOrder, PATCH_VERSIONS } from './generator.ts';
import { COUNTRIES } from './geography.ts';
import {
  CUSTOMER_MUTABLE_FIELDS,
  customerId,
  type Customer,
  type CustomerPatch,
  type Dataset,
  type Order,
} from './model.ts';
import { OracleTables } from './oracle-tables.ts';
import type { JoinParams, JoinRow, PageParams } from './queries.ts';
import { NO_SIGNUP_COUNT, NO_SIGNUPS, type SignupCount, type SignupView } from './signups.ts';

export interface OracleOptions {
  /** The largest LIMIT an ordered list (soe_arraydeepscan) is checked for; default 100. */
  listLimit?: number;
}

const COUNTRY_INDEX = new Map(COUNTRIES.map((c, i) => [c.name, i]));

export class EcommerceOracle {
  readonly tables: OracleTables;

  constructor(
    readonly dataset: Dataset,
    options: OracleOptions = {},
  ) {
    this.tables = new OracleTables(dataset, options.listLimit ?? 100);
  }

  countryIndex(country: string): number | undefined {
    return COUNTRY_INDEX.get(country);
  }

  /** Seeded customers of a country (for tests and table notes). */
  countryCount(country: string): number {
    const k = this.countryIndex(country);
    return k === undefined ? 0 : this.tables.countryStart[k + 1]! - this.tables.countryStart[k]!;
  }

  /** The id-ordered page of seeded customers. */
  page(params: PageParams): string[] {
    const k = this.countryIndex(params.country);
    if (k === undefined) return [];
    const start = this.tables.countryStart[k]!;
    const end = this.tables.countryStart[k + 1]!;
    const ids: string[] = [];
    for (let at = start + params.offset; at < end && ids.length < params.limit; at++)
      ids.push(customerId(this.tables.byCountry[at]!));
    return ids;
  }

  /** The JOIN's answer: one group, or none when no order matches. */
  join(params: JoinParams): JoinRow[] {
    const slot = this.tables.pool.slotOf(params.zip);
    if (slot === undefined || params.month < 1 || params.month > 12 || !Number.isInteger(params.month)) return [];
    // Every sale price is at least 50 cents: a zero sum means no order, so no group.
    const cents = this.tables.joinCents[slot * 12 + params.month - 1]!;
    return cents === 0 ? [] : [{ month: params.month, zip: params.zip, sale_price: cents / 100 }];
  }

  /**
   * Check a page; returns what is wrong, or undefined. Ordered: exactly the oracle's page of
   * seeded customers, then possibly sign-ups (see answer-checks.ts). Unordered (the study's
   * query): customers of the country, each once, as many as the page holds.
   */
  checkPage(
    params: PageParams,
    got: readonly string[],
    signups: SignupView | SignupCount = params.ordered === false ? NO_SIGNUP_COUNT : NO_SIGNUPS,
  ): string | undefined {
    const k = this.countryIndex(params.country);
    const seededMatches = this.countryCount(params.country);
    const what = `a customer of ${params.country}`;
    const matches = (index: number) => k !== undefined && customerCore(this.dataset, index).countryIndex === k;
    const common = {
      seededMatches,
      offset: params.offset,
      limit: params.limit,
      got,
      customers: this.dataset.customers,
      what,
    };
    if (params.ordered === false) return checkUnordered({ ...common, matches, signups: signups as SignupCount });
    return checkOrdered({ ...common, head: this.page(params), signupMatches: matches, signups: signups as SignupView });
  }

  /** Check a JOIN answer; returns what is wrong, or undefined. */
  checkJoin(params: JoinParams, got: readonly JoinRow[]): string | undefined {
    const expected = this.join(params);
    const problem = () => `expected ${describeRows(expected)}, got ${describeRows(got)}`;
    if (got.length !== expected.length) return problem();
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i]!;
      const g = got[i]!;
      if (g.month !== e.month || g.zip !== e.zip || Math.round(g.sale_price * 100) !== Math.round(e.sale_price * 100))
        return problem();
    }
    return undefined;
  }

  /**
   * Check a customer read back: every field as generated, except the fields updates change
   * (any value of the right type is fine there: which update won is not this check's business;
   * the read-back of an update checks the values, see readback.ts).
   */
  checkCustomer(index: number, got: Customer | null): string | undefined {
    if (got === null) return `expected ${customerId(index)}, got nothing`;
    const expected: Record<string, unknown> = { ...generateCustomer(this.dataset, index) };
    const actual: Record<string, unknown> = { ...got };
    for (const field of CUSTOMER_MUTABLE_FIELDS) {
      if (typeof actual[field] !== typeof expected[field])
        return `field ${field}: expected a ${typeof expected[field]}, got ${JSON.stringify(actual[field])}`;
      delete expected[field];
      delete actual[field];
    }
    return firstDifference(expected, actual, '');
  }

  /**
   * Check a customer whose mutable fields must hold one of the given patches (the read-back of an
   * update); undefined: any update's values (every version's patch, the seeded one included).
   */
  checkUpdated(index: number, got: Customer | null, given: readonly CustomerPatch[] | undefined): string | undefined {
    const rest = this.checkCustomer(index, got);
    if (rest !== undefined || got === null) return rest;
    const allowed =
      given ?? Array.from({ length: PATCH_VERSIONS }, (_, v) => customerPatch(this.dataset.seed, index, v));
    const written = Object.fromEntries(CUSTOMER_MUTABLE_FIELDS.map((f) => [f, got[f]]));
    if (allowed.some((patch) => firstDifference(patch, written, '') === undefined)) return undefined;
    const shown = allowed.length === 1 ? JSON.stringify(allowed[0]) : `one of ${allowed.length} updates sent`;
    return `updated fields: expected ${shown}, got ${JSON.stringify(written)}`;
  }

  /** Check a sign-up read back: the document exactly as generated, every field. */
  checkInserted(index: number, got: Customer | null): string | undefined {
    if (got === null) return `expected ${customerId(index)}, got nothing`;
    return firstDifference(generateCustomer(this.dataset, index), got, '');
  }

  /** Check an order read back, field by field. */
  checkOrder(customerIndex: number, order: number, got: Order | null): string | undefined {
    const expected = generateOrder(this.dataset, customerIndex, order);
    if (got === null) return `expected ${expected._id}, got nothing`;
    return firstDifference(expected, got, '');
  }
}

function describeRows(rows: readonly JoinRow[]): string {
  if (rows.length === 0) return 'no group';
  return rows.map((r) => `{month ${r.month}, zip ${r.zip}, sale_price ${r.sale_price}}`).join(', ');
}

/** The path and values of the first difference between two JSON-like values, or undefined. */
export function firstDifference(expected: unknown, got: unknown, path: string): string | undefined {
  const where = path === '' ? 'document' : path;
  if (Array.isArray(expected)) {
    if (!Array.isArray(got)) return `${where}: expected an array, got ${JSON.stringify(got)}`;
    if (got.length !== expected.length) return `${where}: expected ${expected.length} elements, got ${got.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], got[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got))
      return `${where}: expected an object, got ${JSON.stringify(got)}`;
    const e = expected as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      const d = firstDifference(e[key], g[key], path === '' ? key : `${path}.${key}`);
      if (d !== undefined) return d;
    }
    const extra = Object.keys(g).find((key) => !(key in e));
    return extra === undefined ? undefined : `${where}: unexpected field ${extra}`;
  }
  return Object.is(expected, got)
    ? undefined
    : `${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
}
