/**
 * The scenario's named workloads: operation proportions, as YCSB-JSON defines them (Altoros 2022
 * §4.3–4.4 and YCSB-JSON's "soe" mix). Any proportion can be changed with
 * `-p <operation>proportion=…` (e.g. `-p customerreadproportion=0.5`), so the key-value
 * operations can be mixed in too.
 */
import { isQueryKind, OPERATIONS, type OperationName, type QueryKind } from './queries.ts';
import { WORKLOAD_NAMES, type WorkloadName } from './workload-names.ts';

export interface EcommerceWorkload {
  name: string;
  description: string;
  proportions: Readonly<Partial<Record<OperationName, number>>>;
  /** How key-value operations pick customers unless `-p requestdistribution=` says otherwise. */
  requestdistribution?: 'uniform' | 'zipfian';
}

export const WORKLOADS: Readonly<Record<WorkloadName, EcommerceWorkload>> = {
  pagination: {
    name: 'pagination',
    description:
      'Altoros 2022 §4.3: customers of a country, OFFSET uniform 0–5, LIMIT uniform 1–100, ids only; 100% read',
    proportions: { pagination: 1 },
  },
  join: {
    name: 'join',
    description:
      'Altoros 2022 §4.4: customers of a zip joined to their orders of a month, SUM(sale_price) by month and zip; 100% read',
    proportions: { join: 1 },
  },
  mix: {
    name: 'mix',
    description:
      "YCSB-JSON's pagination mix (workloadsg): pagination 90%, customer insert 5%, customer update 5%, updates on zipfian-chosen customers",
    proportions: { pagination: 0.9, 'customer-insert': 0.05, 'customer-update': 0.05 },
    requestdistribution: 'zipfian',
  },
  search: {
    name: 'search',
    description:
      "YCSB-JSON's soe_search: customers of a country, age group and birth year, ordered by those, OFFSET/LIMIT, whole documents; 100% read",
    proportions: { 'soe-search': 1 },
  },
  page: {
    name: 'page',
    description: "YCSB-JSON's soe_page: customers of a zip, OFFSET/LIMIT without ORDER BY, whole documents; 100% read",
    proportions: { 'soe-page': 1 },
  },
  nestscan: {
    name: 'nestscan',
    description:
      "YCSB-JSON's soe_nestscan: customers whose address.prev_address.zip is given, LIMIT, whole documents; 100% read",
    proportions: { 'soe-nestscan': 1 },
  },
  arrayscan: {
    name: 'arrayscan',
    description:
      "YCSB-JSON's soe_arrayscan: customers with a device in devices[], ORDER BY id LIMIT, whole documents; 100% read",
    proportions: { 'soe-arrayscan': 1 },
  },
  arraydeepscan: {
    name: 'arraydeepscan',
    description:
      "YCSB-JSON's soe_arraydeepscan: customers who visited a city of a country (one visited_places element), ORDER BY id LIMIT, whole documents; 100% read",
    proportions: { 'soe-arraydeepscan': 1 },
  },
  report: {
    name: 'report',
    description:
      "YCSB-JSON's soe_report: customers of a zip INNER JOIN their orders ON KEYS order_list, whole documents; 100% read",
    proportions: { 'soe-report': 1 },
  },
};

export { WORKLOAD_NAMES };

/** The property that overrides an operation's proportion: `customer-read` -> `customerreadproportion`. */
export function proportionProperty(operation: OperationName): string {
  return `${operation.replace(/-/g, '')}proportion`;
}

/** A workload's proportions with the overrides applied (operations at 0 dropped). */
export function effectiveProportions(
  workload: EcommerceWorkload,
  overrides: Readonly<Partial<Record<OperationName, number>>>,
): [OperationName, number][] {
  return OPERATIONS.map((op): [OperationName, number] => [op, overrides[op] ?? workload.proportions[op] ?? 0]).filter(
    ([, p]) => p > 0,
  );
}

/** The query kinds a set of proportions uses: each is measured once per store variant. */
export function queryKinds(proportions: readonly [OperationName, number][]): QueryKind[] {
  const kinds: QueryKind[] = [];
  for (const [op] of proportions) if (isQueryKind(op)) kinds.push(op);
  return kinds;
}
