/**
 * The scenario's settings, given as `-p key=value` like YCSB properties and with YCSB's names
 * where YCSB has one (operationcount, threadcount, target, maxexecutiontime, warmuptime,
 * requestdistribution, batchsize, seed). Store settings (`redis.*`, `mongodb.*`, …) pass through
 * to the store untouched. A bad value is a one-line user error naming the key.
 */
import { z } from 'zod';
import { WorkloadError } from '../../src/workload/properties.ts';
import { isStoreSetting } from '../shared/serve-settings.ts';
import { DEFAULT_CUSTOMERS_PER_ZIP } from './geography.ts';
import { MAX_ORDERS_PER_CUSTOMER, MAX_CUSTOMERS } from './model.ts';
import { OPERATIONS, type OperationName } from './queries.ts';
import { PAGINATION_INDEXES, type PaginationIndex } from './dialect.ts';
import { proportionProperty } from './workloads.ts';

const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const proportion = z.coerce.number().min(0).max(1);
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

const proportionKeys = Object.fromEntries(
  OPERATIONS.map((op) => [proportionProperty(op), proportion.optional()]),
) as Record<string, z.ZodOptional<typeof proportion>>;

const schema = z
  .object({
    /** Seeding: the dataset's seed. Running: the seed of the parameter choices. */
    seed: integer(0).default(1),
    // --- seeding ---
    customers: integer(1, MAX_CUSTOMERS).optional(),
    /** Altoros 2022 seeded as many orders as customers: one each. */
    orderspercustomer: integer(0, MAX_ORDERS_PER_CUSTOMER).default(1),
    /** Customers per postal code on average (the zip pool grows with the dataset; geography.ts). */
    customersperzip: integer(1).default(DEFAULT_CUSTOMERS_PER_ZIP),
    /** Build secondary indexes (MongoDB, CouchDB Mango, Couchbase GSI); false: the queries scan. */
    indexes: flag.default(true),
    /** The pagination's index (dialect.ts); default: the one the page's order needs (`ordered`). */
    paginationindex: z.enum(PAGINATION_INDEXES).optional(),
    /** Customers per bulk write (with their orders). */
    batchsize: integer(1).default(100),
    // --- running ---
    operationcount: integer(0).default(10_000),
    /** Seconds; 0 = no limit. */
    maxexecutiontime: integer(0).default(0),
    threadcount: integer(1).default(8),
    target: z.coerce.number().min(0).default(0),
    warmuptime: integer(0).default(0),
    'status.interval': integer(1).default(10),
    'measurement.interval': z.enum(['op', 'intended', 'both']).default('both'),
    'hdrhistogram.percentiles': z.string().default('50,95,99,99.9'),
    /** Default: the workload's (YCSB-JSON's mix: zipfian), else uniform. */
    requestdistribution: z.enum(['uniform', 'zipfian']).optional(),
    /** Pagination ordered by id (true) or the study's query without ORDER BY (false). */
    ordered: flag.default(true),
    /** A query's values from one customer (correlated) or each from another (independent, YCSB-JSON's). */
    parameters: z.enum(['correlated', 'independent']).default('correlated'),
    /** Share of acknowledged updates and sign-ups read back and checked (READBACK row). */
    readbacksample: proportion.default(0.1),
    maxoffset: integer(0).default(5),
    minlimit: integer(1).default(1),
    maxlimit: integer(1).default(100),
    /** Comma-separated variant names to measure (default: every variant of the store). */
    variant: z.string().optional(),
    ...proportionKeys,
  })
  .strict();

export type EcommerceSettings = Omit<
  z.output<typeof schema>,
  'hdrhistogram.percentiles' | 'requestdistribution' | 'paginationindex'
> & {
  'hdrhistogram.percentiles': number[];
  /**
   * As resolved: given, else the index the page's order needs: (country, id) for the ordered
   * page, country alone (Altoros 2022's) for the unordered one.
   */
  paginationindex: PaginationIndex;
  /** As resolved: given, else the workload's (see session.ts), else uniform. */
  requestdistribution: 'uniform' | 'zipfian';
  /** Whether `requestdistribution` was given (a workload's own default applies otherwise). */
  requestdistributionGiven: boolean;
  /** Proportions given with `-p <op>proportion=…`. */
  proportions: Partial<Record<OperationName, number>>;
  /** Store settings (`redis.*`, …), verbatim. */
  storeSettings: Record<string, string>;
  /** Variants asked for, or undefined for all. */
  variants: string[] | undefined;
};

/** Parse `key=value` overrides (later ones win) into settings. */
export function parseSettings(assignments: readonly string[]): EcommerceSettings {
  const known: Record<string, string> = {};
  const storeSettings: Record<string, string> = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new WorkloadError(`-p ${assignment}: expected key=value`);
    const key = assignment.slice(0, eq).trim();
    const value = assignment.slice(eq + 1).trim();
    // Every store's prefixes, from the STORES table (a store added there is accepted here).
    if (isStoreSetting(key)) storeSettings[key] = value;
    else if (Object.hasOwn(schema.shape, key)) known[key] = value;
    else
      throw new WorkloadError(
        `-p ${key}: unknown ecommerce setting; expected one of ${Object.keys(schema.shape).join(', ')} or a store setting (redis.*, mongodb.*, …)`,
      );
  }
  const parsed = schema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    throw new WorkloadError(`-p ${key}=${known[key] ?? ''}: ${issue.message}`);
  }
  const p = parsed.data;
  const percentiles = p['hdrhistogram.percentiles'].split(',').map((s) => Number(s.trim()));
  if (percentiles.some((x) => !Number.isFinite(x) || x <= 0 || x > 100)) {
    throw new WorkloadError(
      `-p hdrhistogram.percentiles=${p['hdrhistogram.percentiles']}: expected a comma-separated list of percentiles in (0, 100]`,
    );
  }
  if (p.minlimit > p.maxlimit) throw new WorkloadError(`-p minlimit=${p.minlimit} exceeds maxlimit=${p.maxlimit}`);
  const proportions: Partial<Record<OperationName, number>> = {};
  for (const op of OPERATIONS) {
    const value = (p as Record<string, unknown>)[proportionProperty(op)];
    if (typeof value === 'number') proportions[op] = value;
  }
  const variants = p.variant
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const { requestdistribution, paginationindex, ...rest } = p;
  return {
    ...rest,
    paginationindex: paginationindex ?? (p.ordered ? 'country-id' : 'country'),
    'hdrhistogram.percentiles': percentiles,
    requestdistribution: requestdistribution ?? 'uniform',
    requestdistributionGiven: requestdistribution !== undefined,
    proportions,
    storeSettings,
    variants: variants && variants.length > 0 ? variants : undefined,
  };
}

/** Settings as the flat record results keep (every value as resolved, store settings included). */
export function flatSettings(s: EcommerceSettings): Record<string, string | number | boolean | number[]> {
  const flat: Record<string, string | number | boolean | number[]> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'requestdistributionGiven') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') flat[key] = value;
  }
  flat['hdrhistogram.percentiles'] = s['hdrhistogram.percentiles'];
  for (const [op, value] of Object.entries(s.proportions)) flat[proportionProperty(op as OperationName)] = value;
  return { ...flat, ...s.storeSettings };
}
