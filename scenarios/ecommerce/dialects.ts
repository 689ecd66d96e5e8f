/** The e-commerce scenario's dialects, one file per store under `stores/`. */
import { NO_NESTED_ARRAYS } from '../shared/ferretdb-gaps.ts';
import { DialectRegistry } from '../shared/dialects.ts';
import type { EcommerceContext, EcommerceDialect } from './dialect.ts';

export const ECOMMERCE_DIALECTS = new DialectRegistry<EcommerceContext, EcommerceDialect>(
  'ecommerce',
  {
    redis: async () => (await import('./stores/redis.ts')).dialect,
    cassandra: async () => (await import('./stores/cassandra.ts')).dialect,
    mongodb: async () => (await import('./stores/mongodb.ts')).dialect,
    couchdb: async () => (await import('./stores/couchdb.ts')).dialect,
    couchbase: async () => (await import('./stores/couchbase.ts')).dialect,
    hbase: async () => (await import('./stores/hbase.ts')).dialect,
    postgres: async () => (await import('./stores/postgres.ts')).dialect,
  },
  // Its data cannot be stored there: MongoDB's dialect would fail at the seed, not per query.
  { ferretdb: NO_NESTED_ARRAYS },
);
