/**
 * `docbench sweep --scenario <file>`: a scenario file's size is its own (each collection's
 * count), so `--sizes` is refused; its one workload is its mix, named after the file. Seeded once
 * per store with `docbench seed scenario`; every run is `docbench scenario <file> --skip-seed`,
 * which puts the seeded state back after its writes, so runs follow each other on one seed.
 */
import { basename, extname } from 'node:path';
import type { ScenarioSweep } from '../scenario.ts';

const settings = (settings: readonly string[]) => settings.flatMap((s) => ['-p', s]);

export const FILE_SWEEP: ScenarioSweep = {
  workloads: (file) => {
    const name = basename(file, extname(file));
    return { names: [name], defaults: [name], fixed: true };
  },
  perCell: ['threadcount'],
  seed: (cell) => [
    'seed',
    'scenario',
    cell.scenario,
    '--store',
    cell.store,
    '--threads',
    String(cell.threads),
    ...settings(cell.settings),
  ],
  run: (cell) => [
    'scenario',
    cell.scenario,
    '--stores',
    cell.store,
    '--threads',
    String(cell.threads),
    '--skip-seed',
    ...settings(cell.settings),
  ],
};
