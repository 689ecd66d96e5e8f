/**
 * The e-commerce data, as a pure function of (dataset seed, index): any customer or order can be
 * regenerated at any time, on any machine, so loading can run in parallel and the oracle can
 * compute every expected answer without reading the store.
 *
 * Two layers per document:
 *   - the *core*: the values queries filter, join and sum on (country, zip, age, the previous
 *     address's zip, visited places, devices, order month and amounts). Drawn with docbench's
 *     own seeded generator, a few microseconds each, so the oracle and the parameter choosers
 *     can compute them for the whole dataset at start-up;
 *   - the *filler*: names, streets and the rest of the ~4 KB, from faker seeded per document.
 *     Only needed when a whole document is written or checked.
 */
import { Faker, base, en, type Randomizer } from '@faker-js/faker';
import { Random } from '../../src/workload/random.ts';
import { deviceId, LINKED_DEVICE_FIRST_SLOT } from './devices.ts';
import {
  COUNTRIES,
  COUNTRY_CUMULATIVE,
  MONTH_CUMULATIVE,
  ORDER_YEARS,
  pickCumulative,
  zipPool,
  type Country,
} from './geography.ts';
import {
  MAX_ORDERS_PER_CUSTOMER,
  customerId,
  orderId,
  type Child,
  type Customer,
  type CustomerPatch,
  type Dataset,
  type Order,
  type VisitedPlace,
} from './model.ts';

/** Independent random streams per purpose, so adding a filler field never moves a core value. */
const STREAM = {
  customerCore: 1,
  customerFiller: 2,
  orderCore: 3,
  orderFiller: 4,
  patch: 5,
  visits: 6,
  devices: 7,
} as const;

/** A generator for one document: its seed mixes the dataset seed, the purpose and the index. */
function documentRandom(seed: number, stream: number, index: number): Random {
  // Random takes 53 bits of seed and 32 bits of stream: the index (< 2^53) goes in whole, the
  // dataset seed and purpose are folded into the stream.
  const folded = (Math.imul((seed >>> 0) ^ Math.floor(seed / 4294967296), 0x9e3779b1) + stream * 0x85ebca6b) >>> 0;
  return new Random(index, folded);
}

/** One index per order over the whole dataset (customer index × room for its orders + order). */
function orderIndex(customerIndex: number, order: number): number {
  return customerIndex * (MAX_ORDERS_PER_CUSTOMER + 1) + order;
}

// ---------------------------------------------------------------------------------------------
// Core values

export interface CustomerCore {
  /** Index into COUNTRIES. */
  countryIndex: number;
  country: string;
  /** The zip's slot in the dataset's ZipPool, and the code itself. */
  zipSlot: number;
  zip: string;
  /** 18 … 85; dob's year is REFERENCE_YEAR - age, age_group follows from it. */
  age: number;
  /** The previous address's country (a quarter of the customers moved from another country). */
  prevCountryIndex: number;
  prevZipSlot: number;
  prevZip: string;
}

/** Ages are computed against a fixed day, so a document never depends on when it is generated. */
export const REFERENCE_YEAR = 2024;
export const MIN_AGE = 18;
export const AGE_SPAN = 68;

export function ageGroup(age: number): string {
  if (age < 25) return 'young_adult';
  if (age < 45) return 'adult';
  if (age < 65) return 'middle_aged';
  return 'senior';
}

/**
 * The values queries filter on (country, zip, age, the previous address's zip), a few
 * microseconds per customer: the oracle computes them for the whole dataset at start-up.
 */
export function customerCore(dataset: Dataset, index: number): CustomerCore {
  const pool = zipPool(dataset.customers, dataset.customersPerZip);
  const r = documentRandom(dataset.seed, STREAM.customerCore, index);
  const countryIndex = pickCumulative(COUNTRY_CUMULATIVE, r.nextDouble());
  const zipSlot = pool.pick(countryIndex, r.nextDouble());
  const age = MIN_AGE + r.nextInt(AGE_SPAN);
  const prevCountryIndex = r.nextInt(4) === 0 ? pickCumulative(COUNTRY_CUMULATIVE, r.nextDouble()) : countryIndex;
  const prevZipSlot = pool.pick(prevCountryIndex, r.nextDouble());
  return {
    countryIndex,
    country: COUNTRIES[countryIndex]!.name,
    zipSlot,
    zip: pool.zipOf(zipSlot),
    age,
    prevCountryIndex,
    prevZipSlot,
    prevZip: pool.zipOf(prevZipSlot),
  };
}

/** A visited place as indexes: country into COUNTRIES, cities into CITY_NAMES. */
export interface PlaceCore {
  country: number;
  cities: number[];
}

/**
 * The places a customer visited, from a stream of their own (no faker): 3–9 countries, 4–12
 * cities each, so YCSB-JSON's soe_arraydeepscan (a country and one of its cities in the same
 * element) can be answered by the oracle for every customer at start-up.
 */
export function visitedCore(seed: number, index: number): PlaceCore[] {
  const r = documentRandom(seed, STREAM.visits, index);
  return Array.from({ length: 3 + r.nextInt(7) }, () => ({
    country: pickCumulative(COUNTRY_CUMULATIVE, r.nextDouble()),
    cities: Array.from({ length: 4 + r.nextInt(9) }, () => r.nextInt(CITY_NAMES.length)),
  }));
}

/** How many devices a customer has (30–65): its slots 0 … n-1. */
export function deviceCount(seed: number, index: number): number {
  return 30 + documentRandom(seed, STREAM.devices, index).nextInt(36);
}

export interface OrderCore {
  year: number;
  month: number;
  day: number;
  weekday: string;
  quantity: number;
  /** Amounts in cents: exact integers the oracle sums without rounding error. */
  listCents: number;
  discountPercent: number;
  saleCents: number;
  taxCents: number;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TAX_PERCENT = 8;

export function orderCore(seed: number, customerIndex: number, order: number): OrderCore {
  const r = documentRandom(seed, STREAM.orderCore, orderIndex(customerIndex, order));
  const year = ORDER_YEARS[r.nextInt(ORDER_YEARS.length)]!;
  const month = pickCumulative(MONTH_CUMULATIVE, r.nextDouble()) + 1;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = 1 + r.nextInt(daysInMonth);
  const quantity = 1 + r.nextInt(5);
  const listCents = 99 + r.nextInt(49_901); // $0.99 … $499.99 a unit
  const discountPercent = 5 * r.nextInt(11); // 0 … 50 %, in steps of 5
  const saleCents = Math.round((listCents * quantity * (100 - discountPercent)) / 100);
  return {
    year,
    month,
    day,
    weekday: WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()]!,
    quantity,
    listCents,
    discountPercent,
    saleCents,
    taxCents: Math.round((saleCents * TAX_PERCENT) / 100),
  };
}

// ---------------------------------------------------------------------------------------------
// Whole documents

/**
 * Faker draws from the document's own generator: re-seeding faker's Mersenne Twister costs far
 * more than the rest of a document (docs/harness-benchmarks.md), pointing it at a fresh sfc32
 * stream nothing. Faker is synchronous, so one
 * module-level instance is never shared by two documents at once.
 */
class DocumentRandomizer implements Randomizer {
  current = new Random(0);
  // Arrow properties: faker calls them detached from the object.
  next = (): number => this.current.nextDouble();
  seed = (seed: number | number[]): void => {
    const values = Array.isArray(seed) ? seed : [seed];
    this.current = new Random(values[0] ?? 0, values[1] ?? 0);
  };
}
const randomizer = new DocumentRandomizer();
const faker = new Faker({ locale: [en, base], randomizer });
/** Real city names (faker's pattern-made ones are slower and read less like an address book). */
export const CITY_NAMES: readonly string[] = faker.rawDefinitions.location?.city_name ?? [];

/** Let faker continue the document's stream. */
function useForFaker(r: Random): void {
  randomizer.current = r;
}

function city(r: Random): string {
  return CITY_NAMES[r.nextInt(CITY_NAMES.length)]!;
}

function formatMoney(cents: number): string {
  const dollars = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `$${dollars}.${String(cents % 100).padStart(2, '0')}`;
}

function digits(r: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(r.nextInt(10));
  return out;
}

function phone(r: Random, country: Country): string {
  return `${country.dial} ${digits(r, 3)}-${digits(r, 3)}-${digits(r, 4)}`;
}

function uuid(r: Random): string {
  const hex = Array.from({ length: 4 }, () => r.nextUint32().toString(16).padStart(8, '0')).join('');
  // RFC 4122 version 4 layout.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[r.nextInt(4)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The values the workloads' updates write: a deterministic function of the customer and a version. */
/** Distinct update values per customer: version v and v + PATCH_VERSIONS write the same. */
export const PATCH_VERSIONS = 1024;

export function customerPatch(seed: number, index: number, version: number): CustomerPatch {
  const r = documentRandom(seed, STREAM.patch, index * PATCH_VERSIONS + (version % PATCH_VERSIONS));
  return {
    ballance_current: formatMoney(r.nextInt(2_000_000)),
    linear_score: r.nextInt(101),
    weighted_score: r.nextInt(101),
    isActive: r.nextInt(4) !== 0,
  };
}

/**
 * Customer `index` of a dataset. Seeded customers list their `ordersPerCustomer` orders; a
 * customer past the seeded range is a sign-up inserted by a run and has no orders yet.
 */
export function generateCustomer(dataset: Dataset, index: number): Customer {
  const core = customerCore(dataset, index);
  const country = COUNTRIES[core.countryIndex]!;
  const prevCountry = COUNTRIES[core.prevCountryIndex]!;
  const r = documentRandom(dataset.seed, STREAM.customerFiller, index);
  useForFaker(r);
  const sex = r.nextInt(2) === 0 ? 'female' : 'male';
  const first = faker.person.firstName(sex);
  const middle = faker.person.middleName(sex);
  const last = faker.person.lastName();
  const age = core.age;
  const birthMonth = 1 + r.nextInt(12);
  const birthDay = 1 + r.nextInt(28);
  const site = faker.internet.domainWord();
  const domain = faker.internet.domainSuffix();
  const protocol = r.nextInt(5) === 0 ? 'http' : 'https';
  const children: Child[] = Array.from({ length: r.nextInt(age >= 25 ? 5 : 2) }, () => {
    const gender = r.nextInt(2) === 0 ? 'female' : 'male';
    return { first_name: faker.person.firstName(gender), gender, age: r.nextInt(Math.max(1, age - 17)) };
  });
  const visited: VisitedPlace[] = visitedCore(dataset.seed, index).map((p) => ({
    country: COUNTRIES[p.country]!.name,
    cities: p.cities.map((c) => CITY_NAMES[c]!),
  }));
  const devices = Array.from({ length: deviceCount(dataset.seed, index) }, (_, slot) =>
    deviceId(dataset.seed, index, slot),
  );
  let slot = LINKED_DEVICE_FIRST_SLOT;
  const linked = Array.from({ length: 3 + r.nextInt(6) }, () =>
    Array.from({ length: 2 + r.nextInt(5) }, () => deviceId(dataset.seed, index, slot++)),
  );
  const orders = index < dataset.customers ? dataset.ordersPerCustomer : 0;
  const id = customerId(index);
  const patch = customerPatch(dataset.seed, index, 0);
  return {
    _id: id,
    doc_id: index,
    gid: uuid(r),
    first_name: first,
    middle_name: middle,
    last_name: last,
    ballance_current: patch.ballance_current,
    dob: `${REFERENCE_YEAR - age}-${String(birthMonth).padStart(2, '0')}-${String(birthDay).padStart(2, '0')}`,
    email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase(),
    isActive: patch.isActive,
    linear_score: patch.linear_score,
    weighted_score: patch.weighted_score,
    phone_country: country.code,
    phone_by_country: phone(r, country),
    age_group: ageGroup(age),
    age_by_group: age,
    url_protocol: protocol,
    url_site: site,
    url_domain: domain,
    url: `${protocol}://${site}.${domain}/${faker.internet.domainWord()}/${first.toLowerCase()}-${last.toLowerCase()}`,
    devices,
    linked_devices: linked,
    address: {
      street: faker.location.streetAddress(),
      city: city(r),
      zip: core.zip,
      country: core.country,
      geo_region: country.geoRegion,
      prev_address: {
        street: faker.location.streetAddress(),
        city: city(r),
        country: prevCountry.name,
        zip: core.prevZip,
        property_current_owner: {
          first_name: faker.person.firstName(),
          middle_name: faker.person.middleName(),
          last_name: faker.person.lastName(),
          phone: phone(r, prevCountry),
        },
      },
    },
    children,
    visited_places: visited,
    order_list: Array.from({ length: orders }, (_, j) => orderId(index, j)),
  };
}

/** Order `order` of customer `customerIndex` (a seeded customer, order < ordersPerCustomer). */
export function generateOrder(dataset: Dataset, customerIndex: number, order: number): Order {
  const core = orderCore(dataset.seed, customerIndex, order);
  const r = documentRandom(dataset.seed, STREAM.orderFiller, orderIndex(customerIndex, order));
  useForFaker(r);
  return {
    _id: orderId(customerIndex, order),
    customer_id: customerId(customerIndex),
    year: core.year,
    month: core.month,
    day: core.day,
    weekday: core.weekday,
    quantity: core.quantity,
    list_price: core.listCents / 100,
    discount_amount_percent: core.discountPercent,
    sale_price: core.saleCents / 100,
    tax: core.taxCents / 100,
    coupon: r.nextInt(3) === 0 ? `${faker.word.adjective().toUpperCase()}${5 * (1 + r.nextInt(10))}` : '',
    department: faker.commerce.department(),
    product_name: faker.commerce.productName(),
  };
}
