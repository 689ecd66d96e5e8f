// Transitional: the store moves into this folder (see stores.ts); until then it re-exports the old module.
import type { StoreFactory } from '../store.ts';
import { CouchbaseStore } from '../couchbase.ts';

export { CouchbaseStore };

export const createStore: StoreFactory<CouchbaseStore> = (options) =>
  new CouchbaseStore({ url: options.url, settings: { ...options.settings, 'docbench.threadcount': String(options.concurrency) } });
