/** The persons scenario's dialects, one file per store under `stores/`. */
import { DialectRegistry } from '../shared/dialects.ts';
import type { DialectContext, PersonsDialect } from './dialect.ts';

export const PERSONS_DIALECTS = new DialectRegistry<DialectContext, PersonsDialect>('persons', {
  redis: async () => (await import('./stores/redis.ts')).dialect,
  cassandra: async () => (await import('./stores/cassandra.ts')).dialect,
  mongodb: async () => (await import('./stores/mongodb.ts')).dialect,
  couchdb: async () => (await import('./stores/couchdb.ts')).dialect,
  couchbase: async () => (await import('./stores/couchbase.ts')).dialect,
  hbase: async () => (await import('./stores/hbase.ts')).dialect,
  postgres: async () => (await import('./stores/postgres.ts')).dialect,
  ferretdb: async () => (await import('./stores/ferretdb.ts')).dialect,
});
