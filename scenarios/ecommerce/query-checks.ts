/**
 * Each query kind end to end, for the runner: how the dialect is called, what the sign-ups
 * ledger must say when the query is sent (what the answer may show beyond the seeded data), and
 * how the answer is checked against the oracle. run.ts draws the parameters, times the call and
 * records the check; this module knows what every query means.
 */
import { checkOrdered, checkUnordered, describeIds } from './answer-checks.ts';
import type { EcommerceDialect, SoeIdsRequest } from './dialect.ts';
import { deviceOwner } from './devices.ts';
import {
  AGE_SPAN,
  ageGroup,
  CITY_NAMES,
  customerCore,
  deviceCount,
  MIN_AGE,
  REFERENCE_YEAR,
  visitedCore,
} from './generator.ts';
import { customerId, orderIndexOf } from './model.ts';
import type { EcommerceOracle } from './oracle.ts';
import { placePair } from './oracle-tables.ts';
import type { QueryAnswers, QueryKind, QueryParams, ReportRow } from './queries.ts';
import { NO_SIGNUP_COUNT, NO_SIGNUPS, type SignupCount, type Signups, type SignupView } from './signups.ts';

/** What the ledger said when a query was sent. */
export type SignupSnapshot = SignupView | SignupCount | undefined;

/** Run a query kind on a dialect. */
export function callQuery<K extends QueryKind>(
  dialect: EcommerceDialect,
  kind: K,
  variant: string,
  params: QueryParams[K],
): Promise<QueryAnswers[K]> {
  const p = params as never;
  const ids = () => dialect.soe.ids(variant, { kind, params } as SoeIdsRequest);
  const calls: { [Q in QueryKind]: () => Promise<QueryAnswers[Q]> } = {
    pagination: () => dialect.pagination(variant, p),
    join: () => dialect.join(variant, p),
    'soe-search': ids,
    'soe-page': ids,
    'soe-nestscan': ids,
    'soe-arrayscan': ids,
    'soe-arraydeepscan': ids,
    'soe-report': () => dialect.soe.report(variant, p),
  };
  return calls[kind]() as Promise<QueryAnswers[K]>;
}

const CITY_INDEX = new Map(CITY_NAMES.map((c, i) => [c, i]));

/** The age a search's age group and birth year stand for, or undefined when they contradict each other. */
function searchAge(ageGroupValue: string, year: number): number | undefined {
  const age = REFERENCE_YEAR - year;
  return Number.isInteger(age) && age >= MIN_AGE && age < MIN_AGE + AGE_SPAN && ageGroup(age) === ageGroupValue
    ? age
    : undefined;
}

/** Whether customer `index` visited `city` of country `country` (in the same visited_places element). */
function visited(seed: number, index: number, country: number, city: number): boolean {
  return visitedCore(seed, index).some((p) => p.country === country && p.cities.includes(city));
}

/** The customer a device of `devices` belongs to, or undefined for any other string. */
function ownerOf(oracle: EcommerceOracle, device: string): number | undefined {
  const owner = deviceOwner(oracle.dataset.seed, device);
  return owner !== undefined && owner.slot < deviceCount(oracle.dataset.seed, owner.index) ? owner.index : undefined;
}

/** The ledger's view for a query, taken when it is sent. */
export function signupSnapshot<K extends QueryKind>(
  kind: K,
  params: QueryParams[K],
  oracle: EcommerceOracle,
  signups: Signups,
  readsOwnWrites: boolean,
): SignupSnapshot {
  const t = oracle.tables;
  switch (kind) {
    case 'pagination': {
      const p = params as QueryParams['pagination'];
      const k = oracle.countryIndex(p.country) ?? -1;
      return p.ordered === false ? signups.count(`country:${k}`, readsOwnWrites) : signups.view(k, readsOwnWrites);
    }
    case 'soe-search': {
      const p = params as QueryParams['soe-search'];
      return signups.count(
        `search:${oracle.countryIndex(p.country) ?? -1}:${searchAge(p.age_group, p.year) ?? -1}`,
        readsOwnWrites,
      );
    }
    case 'soe-page':
      return signups.count(`zip:${t.pool.slotOf((params as QueryParams['soe-page']).zip) ?? -1}`, readsOwnWrites);
    case 'soe-nestscan':
      return signups.count(`prev:${t.pool.slotOf((params as QueryParams['soe-nestscan']).zip) ?? -1}`, readsOwnWrites);
    case 'soe-arrayscan': {
      const owner = ownerOf(oracle, (params as QueryParams['soe-arrayscan']).device);
      return signups.viewWhere((i) => i === owner, readsOwnWrites);
    }
    case 'soe-arraydeepscan': {
      const p = params as QueryParams['soe-arraydeepscan'];
      const country = oracle.countryIndex(p.country);
      const city = CITY_INDEX.get(p.city);
      if (country === undefined || city === undefined || t.placeCount[placePair(country, city)]! >= p.limit)
        return NO_SIGNUPS;
      // Only a short list can reach the sign-ups (their ids sort last): only then are they looked at.
      return signups.viewWhere((i) => visited(oracle.dataset.seed, i, country, city), readsOwnWrites);
    }
    default:
      return undefined;
  }
}

/** Check an answer; returns what is wrong, or undefined. */
export function checkQuery<K extends QueryKind>(
  kind: K,
  oracle: EcommerceOracle,
  params: QueryParams[K],
  answer: QueryAnswers[K],
  snapshot: SignupSnapshot,
): string | undefined {
  const t = oracle.tables;
  const dataset = oracle.dataset;
  const core = (i: number) => customerCore(dataset, i);
  const customers = dataset.customers;
  const count = (snapshot ?? NO_SIGNUP_COUNT) as SignupCount;
  switch (kind) {
    case 'pagination':
      return oracle.checkPage(
        params as QueryParams['pagination'],
        answer as string[],
        snapshot as SignupView | SignupCount,
      );
    case 'join':
      return oracle.checkJoin(params as QueryParams['join'], answer as QueryAnswers['join']);
    case 'soe-search': {
      const p = params as QueryParams['soe-search'];
      const k = oracle.countryIndex(p.country);
      const age = searchAge(p.age_group, p.year);
      const seededMatches = k === undefined || age === undefined ? 0 : t.searchCount[k * AGE_SPAN + age - MIN_AGE]!;
      const matches = (i: number) =>
        k !== undefined && age !== undefined && core(i).countryIndex === k && core(i).age === age;
      return checkUnordered({
        seededMatches,
        offset: p.offset,
        limit: p.limit,
        got: answer as string[],
        matches,
        customers,
        signups: count,
        what: `a customer of ${p.country}, ${p.age_group}, born ${p.year}`,
      });
    }
    case 'soe-page': {
      const p = params as QueryParams['soe-page'];
      const slot = t.pool.slotOf(p.zip);
      const seededMatches = slot === undefined ? 0 : t.zipCount[slot]!;
      return checkUnordered({
        seededMatches,
        offset: p.offset,
        limit: p.limit,
        got: answer as string[],
        matches: (i) => core(i).zipSlot === slot,
        customers,
        signups: count,
        what: `a customer of zip ${p.zip}`,
      });
    }
    case 'soe-nestscan': {
      const p = params as QueryParams['soe-nestscan'];
      const slot = t.pool.slotOf(p.zip);
      const seededMatches = slot === undefined ? 0 : t.prevZipCount[slot]!;
      return checkUnordered({
        seededMatches,
        offset: 0,
        limit: p.limit,
        got: answer as string[],
        matches: (i) => core(i).prevZipSlot === slot,
        customers,
        signups: count,
        what: `a customer whose previous zip is ${p.zip}`,
      });
    }
    case 'soe-arrayscan': {
      const p = params as QueryParams['soe-arrayscan'];
      const owner = ownerOf(oracle, p.device);
      const head = owner !== undefined && owner < customers ? [customerId(owner)] : [];
      return checkOrdered({
        head,
        seededMatches: head.length,
        offset: 0,
        limit: p.limit,
        got: answer as string[],
        signupMatches: (i) => i === owner,
        customers,
        signups: snapshot as SignupView,
        what: `the customer of device ${p.device}`,
      });
    }
    case 'soe-arraydeepscan': {
      const p = params as QueryParams['soe-arraydeepscan'];
      const country = oracle.countryIndex(p.country);
      const city = CITY_INDEX.get(p.city);
      const pair = country === undefined || city === undefined ? -1 : placePair(country, city);
      if (p.limit > t.listLimit && pair >= 0 && t.placeCount[pair]! > t.listLimit)
        return `the oracle keeps the first ${t.listLimit} customers of a visited place; LIMIT ${p.limit} cannot be checked (raise maxlimit before the run, not after)`;
      const seededMatches = pair < 0 ? 0 : t.placeCount[pair]!;
      const head: string[] = [];
      for (let n = 0; n < Math.min(seededMatches, p.limit); n++)
        head.push(customerId(t.placeFirst[pair * t.listLimit + n]!));
      const signupMatches = (i: number) =>
        country !== undefined && city !== undefined && visited(dataset.seed, i, country, city);
      return checkOrdered({
        head,
        seededMatches,
        offset: 0,
        limit: p.limit,
        got: answer as string[],
        signupMatches,
        customers,
        signups: snapshot as SignupView,
        what: `a visitor of ${p.city}, ${p.country}`,
      });
    }
    case 'soe-report':
      return checkReport(oracle, params as QueryParams['soe-report'], answer as ReportRow[]);
  }
  return undefined;
}

/** soe_report: every order of every seeded customer of the zip, each once, with its customer (sign-ups have no orders). */
function checkReport(
  oracle: EcommerceOracle,
  params: QueryParams['soe-report'],
  rows: readonly ReportRow[],
): string | undefined {
  const { dataset, tables } = oracle;
  const slot = tables.pool.slotOf(params.zip);
  const expected = slot === undefined ? 0 : tables.zipCount[slot]! * dataset.ordersPerCustomer;
  const seen = new Set<string>();
  const shown = () => describeIds(rows.map((r) => `${r.customer}/${r.order}`));
  for (const row of rows) {
    if (seen.has(row.order)) return `got ${shown()}: order ${row.order} more than once`;
    seen.add(row.order);
    const at = orderIndexOf(row.order);
    const ok =
      at !== undefined &&
      at.customer < dataset.customers &&
      at.order < dataset.ordersPerCustomer &&
      row.customer === customerId(at.customer) &&
      customerCore(dataset, at.customer).zipSlot === slot;
    if (!ok)
      return `got ${shown()}: ${row.customer}/${row.order} is not an order of a customer of zip ${params.zip} joined to its customer`;
  }
  if (rows.length !== expected)
    return `expected ${expected} (customer, order) pairs for zip ${params.zip}, got ${shown()}`;
  return undefined;
}
