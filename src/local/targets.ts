import { UserError } from '../common/user-error.ts';
import { LOCAL_STORE_NAMES, STORES, checkDriver, isStoreName } from '../stores/stores.ts';
import type { LocalTarget } from './target.ts';

/** Stores docbench can run on this machine, in the order `docbench up` starts them (from the STORES table). */
export const LOCAL_TARGET_NAMES: readonly string[] = LOCAL_STORE_NAMES;

export function hasLocalTarget(store: string): boolean {
  return LOCAL_TARGET_NAMES.includes(store);
}

export class UnknownTargetError extends UserError {
  constructor(name: string) {
    super(`no local target for "${name}"; expected one of ${LOCAL_TARGET_NAMES.join(', ')}`);
  }
}

export async function localTarget(store: string): Promise<LocalTarget> {
  if (!isStoreName(store)) throw new UnknownTargetError(store);
  const load = (STORES[store] as { localTarget?: () => Promise<{ localTarget: LocalTarget }> }).localTarget;
  if (!load) throw new UnknownTargetError(store);
  // A local server is there to benchmark its store through the driver (whose health checks use it).
  checkDriver(store);
  // Each target serializes its own install/start/stop across processes (managed-server.ts).
  return (await load()).localTarget;
}
