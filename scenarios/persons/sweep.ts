/**
 * `docbench sweep --scenario persons`: a size is a number of documents. The scenario's insert
 * time is one of its figures, so each run seeds its own data (`docbench persons --size N`):
 * there is no separate seed. Its one workload is the whole scenario (inserts, size on disk,
 * Q1–Q5); a cell's threads are the writes in flight while inserting.
 */
import type { ScenarioSweep } from '../scenario.ts';
import { PERSONS_DEFAULTS } from './defaults.ts';

export const PERSONS_SWEEP: ScenarioSweep = {
  size: { unit: 'documents', defaults: [PERSONS_DEFAULTS.size] },
  workloads: () => ({ names: ['persons'], defaults: ['persons'], fixed: true }),
  perCell: [],
  run: (cell) => ['persons', '--stores', cell.store, '--size', String(cell.size), '--threads', String(cell.threads), ...cell.settings.flatMap((s) => ['-p', s])],
};
