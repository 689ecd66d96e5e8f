// Transitional: the store moves into this folder (see stores.ts); until then it re-exports the old module.
import type { StoreFactory } from '../store.ts';
import { RedisStore } from '../redis.ts';

export const createStore: StoreFactory<RedisStore> = (options) =>
  new RedisStore(options.url, { ...options.settings, 'docbench.threadcount': String(options.concurrency) });
