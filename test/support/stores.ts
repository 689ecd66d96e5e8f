/**
 * The stores the integration tests run on: every store docbench runs locally (from the STORES
 * table), or the ones `DOCBENCH_TEST_STORES=redis,cassandra` names.
 */
import { localTarget } from '../../src/local/targets.ts';
import { LOCAL_STORE_NAMES, storeName, type StoreName } from '../../src/stores/stores.ts';

export const TEST_STORES: readonly StoreName[] =
  process.env.DOCBENCH_TEST_STORES === undefined
    ? LOCAL_STORE_NAMES
    : process.env.DOCBENCH_TEST_STORES.split(',')
        .filter(Boolean)
        .map((name) => storeName(name, 'DOCBENCH_TEST_STORES'));

export const testsStore = (name: string): boolean => (TEST_STORES as readonly string[]).includes(name);

/**
 * A store's local URL (its folder's local-target.ts: scheme, login, database and settings) on
 * another port: where nothing answers when that port is free.
 */
export async function localUrlAt(store: string, port: number): Promise<string> {
  const url = new URL((await localTarget(store)).url);
  url.port = String(port);
  return url.href;
}
