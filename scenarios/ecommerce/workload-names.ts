/**
 * The scenario's workload names alone (workloads.ts has their proportions, and imports the
 * generator): what its commands list and check before anything heavy is loaded.
 */
export const WORKLOAD_NAMES = [
  'pagination',
  'join',
  'mix',
  'search',
  'page',
  'nestscan',
  'arrayscan',
  'arraydeepscan',
  'report',
] as const;
export type WorkloadName = (typeof WORKLOAD_NAMES)[number];

/**
 * What a comparison seeds when not told: fits this kind of machine in a few minutes per store.
 * One order per customer, as Altoros 2022 seeded (25 million customers and 25 million orders).
 */
export const ECOMMERCE_DEFAULTS = {
  customers: 10_000,
  ordersPerCustomer: 1,
  workloads: ['pagination', 'join'],
  maxexecutiontime: 30,
} as const;
