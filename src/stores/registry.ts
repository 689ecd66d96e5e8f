import type { StoreFactory } from './store.ts';

/**
 * Store names -> adapter factories. Imported lazily so that running one store never loads
 * another's driver (the Couchbase SDK, for one, brings a native core).
 */
const FACTORIES: Record<string, () => Promise<StoreFactory>> = {
  basic: async () => (await import('./basic.ts')).createBasicStore,
  redis: async () => (await import('./redis.ts')).createRedisStore,
  cassandra: async () => (await import('./cassandra.ts')).createCassandraStore,
  mongodb: async () => (await import('./mongodb.ts')).createMongodbStore,
  couchdb: async () => (await import('./couchdb.ts')).createCouchdbStore,
  couchbase: async () => (await import('./couchbase.ts')).createCouchbaseStore,
};

export const STORE_NAMES = Object.keys(FACTORIES);

export class UnknownStoreError extends Error {
  constructor(name: string) {
    super(`unknown store "${name}"; expected one of ${STORE_NAMES.join(', ')}`);
    this.name = 'UnknownStoreError';
  }
}

export async function storeFactory(name: string): Promise<StoreFactory> {
  const load = FACTORIES[name];
  if (!load) throw new UnknownStoreError(name);
  return load();
}
