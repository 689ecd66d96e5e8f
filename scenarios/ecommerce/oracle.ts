/**
 * The right answers, computed from the generator alone (never from a store):
 *   - the page of customer ids for (country, offset, limit), customers in ascending id order;
 *   - the JOIN's group for (zip, month): the exact sum of the matching orders' sale prices;
 *   - any customer or order document, field by field.
 *
 * Start-up cost is one pass over the dataset's core values (a few microseconds per customer
 * and order, no faker), after which every check is a lookup and a comparison: cheap enough to
 * check every answer of a run without making the client the bottleneck.
 *
 * Sums are kept in integer cents; a store's floating-point sum is rounded to cents before it is
 * compared, so the order a store adds in cannot fail a check, and a wrong row always does.
 */
import { customerCore, generateCustomer, generateOrder, orderCore } from './generator.ts';
import { CUSTOMER_MUTABLE_FIELDS, customerId, customerIndexOf, type Customer, type Dataset, type Order } from './model.ts';
import type { JoinParams, JoinRow, PageParams } from './queries.ts';

/** What a page may contain beyond the seeded customers: sign-ups inserted during the run. */
export interface SignupView {
  /** Sign-ups of the page's country acknowledged before the query was sent, ascending. */
  acknowledged: readonly string[];
  /** Whether an id is a sign-up that was sent (acknowledged or not) before the answer came back. */
  possible(id: string): boolean;
  /** The store's query sees every acknowledged write (false for eventually consistent indexes). */
  readsOwnWrites: boolean;
}

const NO_SIGNUPS: SignupView = { acknowledged: [], possible: () => false, readsOwnWrites: true };

const SHOWN_IDS = 8;

export class EcommerceOracle {
  /** Seeded customer ids per country, ascending. */
  private readonly idsByCountry = new Map<string, string[]>();
  /** `${zip} ${month}` -> summed sale price of the matching orders, in cents. */
  private readonly joinCents = new Map<string, number>();

  constructor(readonly dataset: Dataset) {
    const { seed, customers, ordersPerCustomer } = dataset;
    for (let i = 0; i < customers; i++) {
      const core = customerCore(seed, i);
      let ids = this.idsByCountry.get(core.country);
      if (ids === undefined) this.idsByCountry.set(core.country, (ids = []));
      ids.push(customerId(i)); // ascending: i ascends and ids are zero-padded
      for (let j = 0; j < ordersPerCustomer; j++) {
        const order = orderCore(seed, i, j);
        const key = joinKey(core.zip, order.month);
        this.joinCents.set(key, (this.joinCents.get(key) ?? 0) + order.saleCents);
      }
    }
  }

  /** Seeded customers of a country (for tests and table notes). */
  countryCount(country: string): number {
    return this.idsByCountry.get(country)?.length ?? 0;
  }

  /** The page of seeded customers, ascending by id. */
  page(params: PageParams): string[] {
    return (this.idsByCountry.get(params.country) ?? []).slice(params.offset, params.offset + params.limit);
  }

  /** The JOIN's answer: one group, or none when no order matches. */
  join(params: JoinParams): JoinRow[] {
    const cents = this.joinCents.get(joinKey(params.zip, params.month));
    return cents === undefined ? [] : [{ month: params.month, zip: params.zip, sale_price: cents / 100 }];
  }

  /**
   * Check a page; returns what is wrong, or undefined. Seeded customers must be exactly the
   * oracle's page. Sign-ups (ids above every seeded id, so always at the end) may follow: each
   * must be a sign-up of this country sent before the answer, in ascending order, and a store
   * that reads its own writes must show every one acknowledged before the query that fits.
   */
  checkPage(params: PageParams, got: readonly string[], signups: SignupView = NO_SIGNUPS): string | undefined {
    const seeded = this.idsByCountry.get(params.country) ?? [];
    const head = seeded.slice(params.offset, params.offset + params.limit);
    const expectedText = () => `expected ${describeIds(head)}${signups.acknowledged.length > 0 ? ` then sign-ups among ${describeIds(signups.acknowledged)}` : ''}`;
    for (let i = 0; i < head.length; i++) {
      if (got[i] !== head[i]) return `${expectedText()}, got ${describeIds(got)}: position ${i} is ${got[i] ?? 'missing'}, expected ${head[i]}`;
    }
    const tail = got.slice(head.length);
    const room = params.limit - head.length;
    if (tail.length > room) return `${expectedText()}, got ${describeIds(got)}: ${got.length} ids for LIMIT ${params.limit}`;
    for (let i = 0; i < tail.length; i++) {
      const id = tail[i]!;
      const index = customerIndexOf(id);
      const isSignup = index >= this.dataset.customers && signups.possible(id) && customerCore(this.dataset.seed, index).country === params.country;
      if (!isSignup) return `${expectedText()}, got ${describeIds(got)}: ${id} is not a customer of ${params.country} on this page`;
      if (i > 0 && id <= tail[i - 1]!) return `${expectedText()}, got ${describeIds(got)}: ${id} out of order`;
    }
    if (signups.readsOwnWrites) {
      // Sign-ups sort after every seeded customer: the page skips `skip` of them, then shows up to `room`.
      const skip = Math.max(0, params.offset - seeded.length);
      const acknowledged = signups.acknowledged;
      if (room === 0) {
        // Seeded customers fill the page: no sign-up can be on it.
      } else if (skip === 0) {
        const shown = new Set(tail);
        // A full page hides the sign-ups after its last id; a short page must show them all.
        const bound = tail.length < room ? undefined : tail[tail.length - 1];
        const hidden = acknowledged.find((id) => !shown.has(id) && (bound === undefined || id < bound));
        if (hidden !== undefined) return `${expectedText()}, got ${describeIds(got)}: acknowledged sign-up ${hidden} is missing`;
      } else if (tail.length < Math.min(room, acknowledged.length - skip)) {
        return `${expectedText()}, got ${describeIds(got)}: ${acknowledged.length} sign-ups were acknowledged, the page shows ${tail.length} after skipping ${skip}`;
      }
    }
    return undefined;
  }

  /** Check a JOIN answer; returns what is wrong, or undefined. */
  checkJoin(params: JoinParams, got: readonly JoinRow[]): string | undefined {
    const expected = this.join(params);
    const problem = () => `expected ${describeRows(expected)}, got ${describeRows(got)}`;
    if (got.length !== expected.length) return problem();
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i]!;
      const g = got[i]!;
      if (g.month !== e.month || g.zip !== e.zip || Math.round(g.sale_price * 100) !== Math.round(e.sale_price * 100)) return problem();
    }
    return undefined;
  }

  /**
   * Check a customer read back: every field as generated, except the fields updates change
   * (any value of the right type is fine there: which update won is not the oracle's business).
   */
  checkCustomer(index: number, got: Customer | null): string | undefined {
    if (got === null) return `expected ${customerId(index)}, got nothing`;
    const expected: Record<string, unknown> = { ...generateCustomer(this.dataset, index) };
    const actual: Record<string, unknown> = { ...got };
    for (const field of CUSTOMER_MUTABLE_FIELDS) {
      if (typeof actual[field] !== typeof expected[field]) return `field ${field}: expected a ${typeof expected[field]}, got ${JSON.stringify(actual[field])}`;
      delete expected[field];
      delete actual[field];
    }
    return firstDifference(expected, actual, '');
  }

  /** Check an order read back, field by field. */
  checkOrder(customerIndex: number, order: number, got: Order | null): string | undefined {
    const expected = generateOrder(this.dataset, customerIndex, order);
    if (got === null) return `expected ${expected._id}, got nothing`;
    return firstDifference(expected, got, '');
  }
}

function joinKey(zip: string, month: number): string {
  return `${zip} ${month}`;
}

function describeIds(ids: readonly string[]): string {
  if (ids.length === 0) return '0 ids';
  const shown = ids.slice(0, SHOWN_IDS).join(', ');
  return `${ids.length} ids [${shown}${ids.length > SHOWN_IDS ? `, … ${ids[ids.length - 1]}` : ''}]`;
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
    if (got === null || typeof got !== 'object' || Array.isArray(got)) return `${where}: expected an object, got ${JSON.stringify(got)}`;
    const e = expected as Record<string, unknown>;
    const g = got as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      const d = firstDifference(e[key], g[key], path === '' ? key : `${path}.${key}`);
      if (d !== undefined) return d;
    }
    const extra = Object.keys(g).find((key) => !(key in e));
    return extra === undefined ? undefined : `${where}: unexpected field ${extra}`;
  }
  return Object.is(expected, got) ? undefined : `${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`;
}
