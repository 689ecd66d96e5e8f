// Transitional: the store moves into this folder (see stores.ts); until then it re-exports the old module.
import type { StoreFactory } from '../store.ts';
import { MongodbStore } from '../mongodb.ts';

export const createStore: StoreFactory<MongodbStore> = (options) =>
  new MongodbStore({ url: options.url, settings: { ...options.settings, 'docbench.threadcount': String(options.concurrency) } });
