/**
 * `docbench sweep --scenario ecommerce`: a size is a number of customers (each with its orders),
 * seeded once per store and size with `docbench seed ecommerce`; every run is `docbench ecommerce
 * --skip-seed` on that data. The mix inserts customers, so each of its runs gets a fresh seed.
 */
import type { ScenarioSweep } from '../scenario.ts';
import { ECOMMERCE_DEFAULTS, WORKLOAD_NAMES } from './workload-names.ts';

const settings = (settings: readonly string[]) => settings.flatMap((s) => ['-p', s]);

export const ECOMMERCE_SWEEP: ScenarioSweep = {
  size: { unit: 'customers', defaults: [ECOMMERCE_DEFAULTS.customers] },
  workloads: () => ({ names: WORKLOAD_NAMES, defaults: ECOMMERCE_DEFAULTS.workloads }),
  perCell: ['customers', 'threadcount'],
  seed: (cell) => [
    'seed',
    'ecommerce',
    '--store',
    cell.store,
    '--customers',
    String(cell.size),
    '--threads',
    String(cell.threads),
    ...settings(cell.settings),
  ],
  reseeds: (workload) => workload === 'mix',
  run: (cell) => [
    'ecommerce',
    '--stores',
    cell.store,
    '--workloads',
    cell.workload,
    '--customers',
    String(cell.size),
    '--threads',
    String(cell.threads),
    '--skip-seed',
    ...settings(cell.settings),
  ],
};
