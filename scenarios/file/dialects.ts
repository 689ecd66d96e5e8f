/** The scenario-file dialects, one file per store under `stores/`. */
import { DialectRegistry } from '../shared/dialects.ts';
import type { FileDialect, FileDialectContext } from './dialect.ts';

export const FILE_DIALECTS = new DialectRegistry<FileDialectContext, FileDialect>('scenario file', {
  mongodb: async () => (await import('./stores/mongodb.ts')).dialect,
  couchbase: async () => (await import('./stores/couchbase.ts')).dialect,
  couchdb: async () => (await import('./stores/couchdb.ts')).dialect,
  redis: async () => (await import('./stores/redis.ts')).dialect,
  cassandra: async () => (await import('./stores/cassandra.ts')).dialect,
  hbase: async () => (await import('./stores/hbase.ts')).dialect,
  postgres: async () => (await import('./stores/postgres.ts')).dialect,
  ferretdb: async () => (await import('./stores/ferretdb.ts')).dialect,
});
