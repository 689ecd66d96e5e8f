/**
 * The bounded value sets that make the workloads' predicates selective the way a real shop's
 * are: a few large markets and a tail of small ones (the pagination filter `address.country`),
 * and a fixed pool of postal codes per country with a few busy ones (the JOIN filter
 * `address.zip`). Fixed sets, independent of the dataset size, as real countries and postal
 * codes are: a bigger dataset puts more customers in each, it does not invent new ones.
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

/** Postal codes over all countries, shared out by weight (each country gets at least a few). */
export const ZIP_POOL_SIZE = 2000;
const MIN_ZIPS_PER_COUNTRY = 5;
/**
 * Skew of customers over a country's postal codes (rank r has weight 1/(r+1)^theta): mild, so the
 * busiest code of a large country holds a few per cent of its customers, like a big city.
 */
export const ZIP_SKEW = 0.5;

const totalWeight = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);

/** Cumulative country shares, for weighted picks with one uniform draw. */
export const COUNTRY_CUMULATIVE: readonly number[] = cumulative(COUNTRIES.map((c) => c.weight / totalWeight));

/** The postal codes of each country (index-aligned with COUNTRIES), busiest first. */
export const ZIPS_BY_COUNTRY: readonly (readonly string[])[] = COUNTRIES.map((country, k) => {
  const size = Math.max(MIN_ZIPS_PER_COUNTRY, Math.round((ZIP_POOL_SIZE * country.weight) / totalWeight));
  // 7919 is coprime with 10^5, so r -> r*7919 mod 10^5 never repeats a code within a country;
  // codes may repeat across countries, as real postal codes do (the JOIN filters by zip alone).
  return Array.from({ length: size }, (_, r) => String((r * 7919 + k * 1237 + 10007) % 100000).padStart(5, '0'));
});

/** Cumulative zip shares per country (index-aligned with ZIPS_BY_COUNTRY). */
export const ZIP_CUMULATIVE: readonly (readonly number[])[] = ZIPS_BY_COUNTRY.map((zips) => {
  const weights = zips.map((_, r) => 1 / Math.pow(r + 1, ZIP_SKEW));
  const total = weights.reduce((sum, w) => sum + w, 0);
  return cumulative(weights.map((w) => w / total));
});

/** Order months weighted like retail: a busier November and December. */
export const MONTH_WEIGHTS: readonly number[] = [7, 6, 7, 7, 8, 8, 8, 8, 8, 9, 11, 13];
export const MONTH_CUMULATIVE: readonly number[] = cumulative(MONTH_WEIGHTS.map((w) => w / MONTH_WEIGHTS.reduce((s, x) => s + x, 0)));

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
