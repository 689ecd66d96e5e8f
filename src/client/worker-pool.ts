/**
 * The worker processes of a YCSB phase on an opened store: how many (`--processes`, the
 * `processes` property, auto), and the pool itself, each process connecting to the same URL with the
 * same settings. Used by every entry point that runs YCSB phases (load, run, compare, capacity).
 */
import { UsageError } from '../common/user-error.ts';
import { ProcessPool } from '../runner/process-pool.ts';
import { settingsOf, storeName } from '../stores/stores.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { chooseProcesses, type ProcessesChoice, type ProcessesSetting } from '../session/process-count.ts';
import type { OpenStore } from '../session/store-session.ts';

/**
 * How many processes, and why: `--processes`, else the `processes` property, else auto (one per
 * core when every store of the command is remote, else one); never more than there are workers.
 * `localStores`: the command's stores that run on this machine (process-count.ts).
 */
export function processesFor(
  flag: ProcessesSetting | undefined,
  p: WorkloadProperties,
  localStores: readonly string[],
): ProcessesChoice {
  return chooseProcesses({ flag, property: p.processes, threadcount: p.threadcount, localStores });
}

/**
 * The worker processes of a run on an open store (undefined for one process: the workers then
 * run on this event loop, with no start-up cost). Each connects to the URL the store was opened
 * with (its local server already started) with the same settings.
 */
export async function openPool(
  open: OpenStore,
  name: string,
  p: WorkloadProperties,
  processes: number,
): Promise<ProcessPool | undefined> {
  if (processes <= 1) return undefined;
  const settings = settingsOf(storeName(name), p.passthrough);
  // BasicDB's in-memory records live in one process: loaded by one, unseen by the others.
  if (name === 'basic' && /^true$/i.test(settings['basic.store'] ?? settings['basicdb.store'] ?? '')) {
    throw new UsageError(
      "--processes: basic.store=true keeps records in one process's memory; use --processes 1 with it",
    );
  }
  return ProcessPool.start({ store: name, url: open.url, settings, threadcount: p.threadcount, processes });
}
