/**
 * Every store's error shapes, from the folders the STORES table names (`errors` of a row), for
 * the failure classifier (src/measure/failure-kind.ts) and the service's conflict check
 * (src/service/conflicts.ts). Both must answer synchronously on a failed call, in the main thread
 * and in worker threads alike, so the shapes are imported here once, when this module is first
 * imported (a top-level await), never per call. A store's errors.ts imports no driver: knowing
 * every store's errors loads none of them.
 */
import type { StoreErrors } from '../measure/error-facts.ts';
import { STORE_NAMES, STORES, type StoreEntry, type StoreName } from './stores.ts';

export interface NamedStoreErrors extends StoreErrors {
  readonly store: StoreName;
}

const loaded = await Promise.all(
  STORE_NAMES.map(async (store) => {
    const load = (STORES[store] as StoreEntry).errors;
    return load ? { store, ...(await load()).errors } : undefined;
  }),
);

/** The stores' error shapes, in the table's order. */
export const STORE_ERRORS: readonly NamedStoreErrors[] = loaded.filter((e) => e !== undefined);
