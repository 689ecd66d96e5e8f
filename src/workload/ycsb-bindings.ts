/**
 * YCSB's names for docbench's stores, from the STORES table (each row's `ycsbBindings`). A module
 * of its own, free of the workload parser, because the CLI translates `-db
 * site.ycsb.db.RedisClient` before it loads any command.
 */
import { STORE_NAMES, YCSB_BINDING_STORES, type StoreName } from '../stores/stores.ts';

/** YCSB's bindings (the class after `-db`, or its name in YCSB's `bin/ycsb` script) for docbench's stores. */
export const YCSB_BINDINGS: Readonly<Record<string, StoreName>> = Object.fromEntries(YCSB_BINDING_STORES);

/** The docbench store a YCSB `db` value names: a store name, or a YCSB binding class or script name. */
export function storeOfYcsbBinding(value: string): StoreName | undefined {
  const name = value.replace(/^com\.yahoo\.ycsb\./, 'site.ycsb.');
  return (STORE_NAMES as readonly string[]).includes(name) ? (name as StoreName) : YCSB_BINDING_STORES.get(name);
}
