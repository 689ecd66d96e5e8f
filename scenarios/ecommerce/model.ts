/**
 * The e-commerce scenario's data model: YCSB-JSON's customer/order documents (the "soe" model
 * behind Altoros 2022's Pagination and JOIN workloads), with the fields that model defines.
 * Pure types and id helpers; no store and no randomness here.
 */

/** A customer, about 4 KB as JSON (Altoros 2022 §4.3.1). */
export interface Customer {
  _id: string;
  /** YCSB-JSON's doc_id is a number: the customer's index. */
  doc_id: number;
  gid: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  /** YCSB-JSON's spelling; a formatted amount such as "$1,234.56". */
  ballance_current: string;
  /** Date of birth, YYYY-MM-DD. */
  dob: string;
  email: string;
  isActive: boolean;
  linear_score: number;
  weighted_score: number;
  /** ISO 3166 alpha-2 code (lower case) of the phone number's country. */
  phone_country: string;
  phone_by_country: string;
  age_group: string;
  age_by_group: number;
  url_protocol: string;
  url_site: string;
  url_domain: string;
  url: string;
  /** Device ids, unique over the dataset (YCSB-JSON's soe_arrayscan looks one up). */
  devices: string[];
  /** YCSB-JSON's shape: a list of lists of device ids. */
  linked_devices: string[][];
  address: Address;
  children: Child[];
  visited_places: VisitedPlace[];
  /** Ids of this customer's orders (the JOIN follows them). */
  order_list: string[];
}

export interface Address {
  street: string;
  city: string;
  zip: string;
  country: string;
  geo_region: string;
  prev_address: PreviousAddress;
}

export interface PreviousAddress {
  street: string;
  city: string;
  country: string;
  zip: string;
  property_current_owner: PropertyOwner;
}

export interface PropertyOwner {
  first_name: string;
  middle_name: string;
  last_name: string;
  phone: string;
}

export interface Child {
  first_name: string;
  gender: string;
  age: number;
}

export interface VisitedPlace {
  country: string;
  cities: string[];
}

/**
 * An order. Amounts are numbers with two decimals (the stores sum them as they are).
 *
 * `year` and `month` are numbers, where YCSB-JSON's orders hold them as strings: the JOIN filters
 * and groups on the month on every store (a CQL clustering column, a Redis field compared in the
 * client, a view key), and a number is the one type every store compares and sorts alike (strings
 * would order "10" before "9"). Altoros 2022's query compares the month with a parameter of the
 * field's own type, so the type changes nothing the JOIN does; an answer's `month` is a number.
 */
export interface Order {
  _id: string;
  customer_id: string;
  year: number;
  /** 1–12: the JOIN's month parameter. */
  month: number;
  day: number;
  /** English weekday name of the order date. */
  weekday: string;
  quantity: number;
  list_price: number;
  discount_amount_percent: number;
  sale_price: number;
  tax: number;
  coupon: string;
  department: string;
  product_name: string;
}

/**
 * Customer fields the workloads' updates change. No query reads them, so updates never move a
 * pagination page or a JOIN sum; reads check every other field.
 */
export const CUSTOMER_MUTABLE_FIELDS = ['ballance_current', 'linear_score', 'weighted_score', 'isActive'] as const;
export type CustomerPatch = Pick<Customer, (typeof CUSTOMER_MUTABLE_FIELDS)[number]>;

/** What a seeded dataset is: everything the generator needs to regenerate any document. */
export interface Dataset {
  /** Seed of the data (not of a run's parameter choices). */
  seed: number;
  /** Customers 0 … customers-1 were seeded; higher indexes are sign-ups inserted by a run. */
  customers: number;
  /** Orders per seeded customer (sign-ups have none). */
  ordersPerCustomer: number;
  /**
   * Customers per postal code on average: the zip pool is customers / customersPerZip codes, so
   * a JOIN's fan-out stays the same at every size (geography.ts). Absent: the default.
   */
  customersPerZip?: number;
}

/**
 * Bumped whenever generated values change, so a run refuses data seeded by another version.
 * 2: the zip pool scales with the dataset (uniform within a country), age and the previous
 * address's zip are core values, visited places come from their own stream, devices are unique,
 * linked_devices is a list of lists and doc_id a number (YCSB-JSON's shapes).
 */
export const GENERATOR_VERSION = 2;

/**
 * Ids are zero-padded so that string order equals index order on every store: pagination pages
 * are ordered by customer id, and each store compares ids as strings (byte order).
 */
const CUSTOMER_DIGITS = 10;
const ORDER_DIGITS = 3;
export const MAX_CUSTOMERS = 10 ** CUSTOMER_DIGITS;
export const MAX_ORDERS_PER_CUSTOMER = 10 ** ORDER_DIGITS - 1;
const CUSTOMER_PREFIX = 'customer:';
const ORDER_PREFIX = 'order:';

export function customerId(index: number): string {
  return CUSTOMER_PREFIX + String(index).padStart(CUSTOMER_DIGITS, '0');
}

export function orderId(customerIndex: number, order: number): string {
  return `${ORDER_PREFIX}${String(customerIndex).padStart(CUSTOMER_DIGITS, '0')}:${String(order).padStart(ORDER_DIGITS, '0')}`;
}

/** The customer index and order number of an order id, or undefined when the string is not one. */
export function orderIndexOf(id: string): { customer: number; order: number } | undefined {
  const expected = ORDER_PREFIX.length + CUSTOMER_DIGITS + 1 + ORDER_DIGITS;
  if (!id.startsWith(ORDER_PREFIX) || id.length !== expected || id[ORDER_PREFIX.length + CUSTOMER_DIGITS] !== ':')
    return undefined;
  const customer = id.slice(ORDER_PREFIX.length, ORDER_PREFIX.length + CUSTOMER_DIGITS);
  const order = id.slice(ORDER_PREFIX.length + CUSTOMER_DIGITS + 1);
  return /^[0-9]+$/.test(customer) && /^[0-9]+$/.test(order)
    ? { customer: Number(customer), order: Number(order) }
    : undefined;
}

/** The index of a customer id, or -1 when the string is not one. */
export function customerIndexOf(id: string): number {
  if (!id.startsWith(CUSTOMER_PREFIX) || id.length !== CUSTOMER_PREFIX.length + CUSTOMER_DIGITS) return -1;
  const digits = id.slice(CUSTOMER_PREFIX.length);
  return /^[0-9]+$/.test(digits) ? Number(digits) : -1;
}
