// Transitional: the store moves into this folder (see stores.ts); until then it re-exports the old module.
import type { StoreFactory } from '../store.ts';
import { CouchdbStore } from '../couchdb.ts';

export const createStore: StoreFactory<CouchdbStore> = (options) =>
  new CouchdbStore({ url: options.url, settings: { ...options.settings, 'docbench.threadcount': String(options.concurrency) } });
