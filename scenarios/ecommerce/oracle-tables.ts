/**
 * What the oracle keeps about a dataset, computed in one pass over the generator's core values
 * and kept compact, so the studies' sizes fit in memory (25 million customers in well under
 * 2 GB): numbers in typed arrays, never an id string per customer.
 *
 *   byCountry      every seeded customer index, grouped by country, ascending within it (the
 *                  id-ordered pages; 4 bytes a customer)
 *   zipCount       customers per zip slot; prevZipCount per previous-address zip slot
 *   joinCents      summed sale price in cents per (zip slot, month)
 *   searchCount    customers per (country, age): soe_search's country, age group and birth year
 *                  are a function of the two
 *   placeFirst     per (visited country, city) pair, the first `listLimit` customers that visited
 *                  it, ascending, and placeCount the number in all (soe_arraydeepscan's answers)
 *
 * Membership of one customer in any answer is computed from its core values when an answer is
 * checked (a few microseconds), so no answer needs a list of its own.
 */
import { AGE_SPAN, CITY_NAMES, customerCore, MIN_AGE, orderCore, visitedCore } from './generator.ts';
import { COUNTRIES, zipPool, type ZipPool } from './geography.ts';
import type { Dataset } from './model.ts';

/** Customer indexes: 4 bytes each while they fit, 8 beyond 2^32. */
type IndexArray = Uint32Array | Float64Array;

function indexArray(length: number, largest: number): IndexArray {
  return largest <= 0xffffffff ? new Uint32Array(length) : new Float64Array(length);
}

export class OracleTables {
  readonly pool: ZipPool;
  readonly byCountry: IndexArray;
  /** Start of each country's run in byCountry, and the end at COUNTRIES.length. */
  readonly countryStart: Float64Array;
  readonly zipCount: Uint32Array;
  readonly prevZipCount: Uint32Array;
  readonly joinCents: Float64Array;
  readonly searchCount: Uint32Array;
  readonly placeFirst: IndexArray;
  readonly placeCount: Uint32Array;

  constructor(
    readonly dataset: Dataset,
    /** Entries kept per visited pair: the largest LIMIT an ordered deep scan is checked for. */
    readonly listLimit: number,
  ) {
    const { seed, customers, ordersPerCustomer } = dataset;
    this.pool = zipPool(customers, dataset.customersPerZip);
    const countries = COUNTRIES.length;
    const countryOf = new Uint8Array(customers);
    const countryCounts = new Float64Array(countries);
    this.zipCount = new Uint32Array(this.pool.size);
    this.prevZipCount = new Uint32Array(this.pool.size);
    this.joinCents = new Float64Array(this.pool.size * 12);
    this.searchCount = new Uint32Array(countries * AGE_SPAN);
    const pairs = countries * CITY_NAMES.length;
    this.placeFirst = indexArray(pairs * listLimit, customers);
    this.placeCount = new Uint32Array(pairs);
    // The last customer counted for each pair: a customer who visited a pair twice counts once.
    const lastCounted = new Float64Array(pairs).fill(-1);
    for (let i = 0; i < customers; i++) {
      const core = customerCore(dataset, i);
      countryOf[i] = core.countryIndex;
      countryCounts[core.countryIndex]!++;
      this.zipCount[core.zipSlot]!++;
      this.prevZipCount[core.prevZipSlot]!++;
      this.searchCount[core.countryIndex * AGE_SPAN + core.age - MIN_AGE]!++;
      for (let j = 0; j < ordersPerCustomer; j++) {
        const order = orderCore(seed, i, j);
        this.joinCents[core.zipSlot * 12 + order.month - 1]! += order.saleCents;
      }
      for (const place of visitedCore(seed, i)) {
        for (const city of place.cities) {
          const pair = place.country * CITY_NAMES.length + city;
          if (lastCounted[pair] === i) continue;
          lastCounted[pair] = i;
          const n = this.placeCount[pair]!++;
          if (n < listLimit) this.placeFirst[pair * listLimit + n] = i;
        }
      }
    }
    this.countryStart = new Float64Array(countries + 1);
    for (let k = 0; k < countries; k++) this.countryStart[k + 1] = this.countryStart[k]! + countryCounts[k]!;
    this.byCountry = indexArray(customers, customers - 1);
    const next = this.countryStart.slice(0, countries);
    // Ascending within each country: customers are placed in index order.
    for (let i = 0; i < customers; i++) this.byCountry[next[countryOf[i]!]!++] = i;
  }

  /** Bytes held in typed arrays (what grows with the dataset). */
  bytes(): number {
    return [
      this.byCountry,
      this.countryStart,
      this.zipCount,
      this.prevZipCount,
      this.joinCents,
      this.searchCount,
      this.placeFirst,
      this.placeCount,
    ].reduce((sum, a) => sum + a.byteLength, 0);
  }
}

/** The pair number of a (country index, city index), as OracleTables counts them. */
export function placePair(country: number, city: number): number {
  return country * CITY_NAMES.length + city;
}
