// Transitional: the store moves into this folder (see stores.ts); until then it re-exports the old module.
import type { StoreFactory } from '../store.ts';
import { CassandraStore } from '../cassandra.ts';

export const createStore: StoreFactory<CassandraStore> = (options) =>
  new CassandraStore(options.url, { ...options.settings, 'docbench.threadcount': String(options.concurrency) });
