/**
 * `docbench sweep --scenario persons`: a size is a number of documents. The scenario's insert
 * time is one of its figures, so each run seeds its own data (`docbench persons --size N`):
 * there is no separate seed. Its one workload is the whole scenario (inserts, size on disk,
 * Q1–Q5); a cell's threads are the writes in flight while inserting. The command's own choices
 * are spelled as `-p` settings in a sweep (`nested`, `indexes`, `repeat`, `insertmode`), since a
 * sweep hands its commands `-p` only; the rest are store settings, passed on as they are.
 */
import type { ScenarioSweep } from '../scenario.ts';
import { PERSONS_DEFAULTS } from './defaults.ts';

const FLAGS: Readonly<Record<string, (value: string) => string[]>> = {
  nested: (v) => (v === 'true' ? ['--nested'] : []),
  indexes: (v) => (v === 'true' ? ['--indexes'] : []),
  repeat: (v) => ['--repeat', v],
  insertmode: (v) => ['--insert-mode', v],
};

function argsOf(settings: readonly string[]): string[] {
  return settings.flatMap((s) => {
    const eq = s.indexOf('=');
    const key = s.slice(0, Math.max(0, eq)).trim();
    const flag = Object.hasOwn(FLAGS, key) ? FLAGS[key] : undefined;
    return flag ? flag(s.slice(eq + 1).trim()) : ['-p', s];
  });
}

export const PERSONS_SWEEP: ScenarioSweep = {
  size: { unit: 'documents', defaults: [PERSONS_DEFAULTS.size] },
  workloads: () => ({ names: ['persons'], defaults: ['persons'], fixed: true }),
  perCell: [],
  run: (cell) => [
    'persons',
    '--stores',
    cell.store,
    '--size',
    String(cell.size),
    '--threads',
    String(cell.threads),
    ...argsOf(cell.settings),
  ],
};
