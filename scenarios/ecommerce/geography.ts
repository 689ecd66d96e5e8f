/**
 * The value sets that make the workloads' predicates selective: a few large markets and a tail
 * of small ones (the pagination filter `address.country`, a fixed list: a bigger dataset puts
 * more customers in each country), and a pool of postal codes that grows with the dataset (the
 * JOIN filter `address.zip`), so that a code holds about as many customers at every size, as in
 * the study the JOIN reproduces.
 */

export interface Country {
  name: string;
  /** ISO 3166 alpha-2, lower case. */
  code: string;
  /** International dialling prefix. */
  dial: string;
  geoRegion: string;
  /** Share of customers living there (normalised over the list). */
  weight: number;
}

/** Customer countries, weighted roughly like a global online shop's markets. */
export const COUNTRIES: readonly Country[] = [
  { name: 'United States', code: 'us', dial: '+1', geoRegion: 'North America', weight: 30 },
  { name: 'United Kingdom', code: 'gb', dial: '+44', geoRegion: 'Europe', weight: 8 },
  { name: 'Germany', code: 'de', dial: '+49', geoRegion: 'Europe', weight: 8 },
  { name: 'France', code: 'fr', dial: '+33', geoRegion: 'Europe', weight: 6 },
  { name: 'Japan', code: 'jp', dial: '+81', geoRegion: 'Asia', weight: 6 },
  { name: 'China', code: 'cn', dial: '+86', geoRegion: 'Asia', weight: 6 },
  { name: 'India', code: 'in', dial: '+91', geoRegion: 'Asia', weight: 5 },
  { name: 'Brazil', code: 'br', dial: '+55', geoRegion: 'South America', weight: 4 },
  { name: 'Canada', code: 'ca', dial: '+1', geoRegion: 'North America', weight: 4 },
  { name: 'Italy', code: 'it', dial: '+39', geoRegion: 'Europe', weight: 3 },
  { name: 'Spain', code: 'es', dial: '+34', geoRegion: 'Europe', weight: 3 },
  { name: 'Australia', code: 'au', dial: '+61', geoRegion: 'Oceania', weight: 3 },
  { name: 'South Korea', code: 'kr', dial: '+82', geoRegion: 'Asia', weight: 2 },
  { name: 'Mexico', code: 'mx', dial: '+52', geoRegion: 'North America', weight: 2 },
  { name: 'Netherlands', code: 'nl', dial: '+31', geoRegion: 'Europe', weight: 2 },
  { name: 'Sweden', code: 'se', dial: '+46', geoRegion: 'Europe', weight: 1 },
  { name: 'Poland', code: 'pl', dial: '+48', geoRegion: 'Europe', weight: 1 },
  { name: 'Turkey', code: 'tr', dial: '+90', geoRegion: 'Asia', weight: 1 },
  { name: 'South Africa', code: 'za', dial: '+27', geoRegion: 'Africa', weight: 1 },
  { name: 'Argentina', code: 'ar', dial: '+54', geoRegion: 'South America', weight: 1 },
  { name: 'New Zealand', code: 'nz', dial: '+64', geoRegion: 'Oceania', weight: 1 },
  { name: 'Nigeria', code: 'ng', dial: '+234', geoRegion: 'Africa', weight: 1 },
];

const totalWeight = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);

/** Cumulative country shares, for weighted picks with one uniform draw. */
export const COUNTRY_CUMULATIVE: readonly number[] = cumulative(COUNTRIES.map((c) => c.weight / totalWeight));

/**
 * Customers per postal code by default. YCSB-JSON's data came from fakeit, whose postal codes are
 * faker's five-digit codes drawn uniformly (at most 100,000 distinct values); at Altoros 2022's
 * 25 million customers that is about 250 customers a code, the selectivity its JOIN ran at.
 * docbench keeps that ratio at every size (`-p customersperzip=…` changes it), so a JOIN's fan-out
 * does not grow with the dataset.
 */
export const DEFAULT_CUSTOMERS_PER_ZIP = 250;

/**
 * The postal codes of a dataset: customers / customersPerZip codes shared out over the countries
 * by weight (at least one each), each customer's code drawn uniformly within its country, as
 * YCSB-JSON's generator drew them. Codes are numbered by a slot (0 … size-1, country by country)
 * and written as `digits`-digit strings (at least five, more when the pool needs them); the slot
 * is multiplied by a number coprime with 10^digits, so every code is distinct and the list reads
 * like postal codes rather than a counter.
 */
export class ZipPool {
  readonly size: number;
  readonly digits: number;
  /** First slot of each country (index-aligned with COUNTRIES), and size at the end. */
  readonly countryStart: readonly number[];
  private readonly countryEnd: readonly number[];
  private readonly modulus: number;
  private slots: Map<string, number> | undefined;

  constructor(
    readonly customers: number,
    readonly customersPerZip: number,
  ) {
    const total = Math.max(1, Math.ceil(customers / customersPerZip));
    const starts: number[] = [];
    let next = 0;
    for (const country of COUNTRIES) {
      starts.push(next);
      next += Math.max(1, Math.round((total * country.weight) / totalWeight));
    }
    starts.push(next);
    this.size = next;
    this.countryStart = starts;
    this.countryEnd = starts.slice(1);
    this.digits = Math.max(5, String(next).length);
    this.modulus = 10 ** this.digits;
  }

  /** Codes in a country. */
  countryZips(countryIndex: number): number {
    return this.countryStart[countryIndex + 1]! - this.countryStart[countryIndex]!;
  }

  /** A uniform draw of a country's code, from u uniform in [0, 1). */
  pick(countryIndex: number, u: number): number {
    return this.countryStart[countryIndex]! + Math.floor(u * this.countryZips(countryIndex));
  }

  /** The code of a slot. */
  zipOf(slot: number): string {
    return String((slot * ZIP_MULTIPLIER + ZIP_OFFSET) % this.modulus).padStart(this.digits, '0');
  }

  /** The slot of a code, or undefined for a code not in the pool. */
  slotOf(zip: string): number | undefined {
    if (this.slots === undefined) {
      this.slots = new Map();
      for (let slot = 0; slot < this.size; slot++) this.slots.set(this.zipOf(slot), slot);
    }
    return this.slots.get(zip);
  }

  /** The country of a slot. */
  countryOf(slot: number): number {
    return pickCumulative(this.countryEnd, slot);
  }
}

/** Prime, so coprime with every power of 10: slot -> code is one-to-one. */
const ZIP_MULTIPLIER = 7919;
const ZIP_OFFSET = 10007;

const pools = new Map<string, ZipPool>();

/** The zip pool of a dataset size (one per size and ratio, made once). */
export function zipPool(customers: number, customersPerZip = DEFAULT_CUSTOMERS_PER_ZIP): ZipPool {
  const key = `${customers}/${customersPerZip}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    if (pools.size > 16) pools.clear();
    pools.set(key, (pool = new ZipPool(customers, customersPerZip)));
  }
  return pool;
}

/** Order months weighted like retail: a busier November and December. */
export const MONTH_WEIGHTS: readonly number[] = [7, 6, 7, 7, 8, 8, 8, 8, 8, 9, 11, 13];
export const MONTH_CUMULATIVE: readonly number[] = cumulative(
  MONTH_WEIGHTS.map((w) => w / MONTH_WEIGHTS.reduce((s, x) => s + x, 0)),
);

/** Years orders fall in. */
export const ORDER_YEARS: readonly number[] = [2020, 2021, 2022, 2023, 2024];

function cumulative(shares: readonly number[]): number[] {
  let running = 0;
  const out = shares.map((s) => (running += s));
  out[out.length - 1] = 1;
  return out;
}

/** The index whose cumulative share first exceeds u (u uniform in [0, 1)). */
export function pickCumulative(cumulativeShares: readonly number[], u: number): number {
  let low = 0;
  let high = cumulativeShares.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (u < cumulativeShares[mid]!) high = mid;
    else low = mid + 1;
  }
  return low;
}
