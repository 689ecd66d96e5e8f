/**
 * YCSB's names for docbench's stores. A module of its own, free of the workload parser, because
 * the CLI translates `-db site.ycsb.db.RedisClient` before it loads any command.
 */
import { STORE_NAMES, type StoreName } from '../stores/stores.ts';

/** YCSB's bindings (the class after `-db`, or its name in YCSB's `bin/ycsb` script) for docbench's stores. */
export const YCSB_BINDINGS: Record<string, StoreName> = {
  'site.ycsb.BasicDB': 'basic',
  'site.ycsb.db.RedisClient': 'redis',
  'site.ycsb.db.CassandraCQLClient': 'cassandra',
  'cassandra-cql': 'cassandra',
  'site.ycsb.db.MongoDbClient': 'mongodb',
  'site.ycsb.db.AsyncMongoDbClient': 'mongodb',
  'mongodb-async': 'mongodb',
  'site.ycsb.db.couchbase2.Couchbase2Client': 'couchbase',
  'site.ycsb.db.couchbase3.Couchbase3Client': 'couchbase',
  couchbase2: 'couchbase',
  couchbase3: 'couchbase',
  'site.ycsb.db.hbase2.HBaseClient2': 'hbase',
  'site.ycsb.db.hbase1.HBaseClient1': 'hbase',
  hbase2: 'hbase',
  hbase1: 'hbase',
};

/** The docbench store a YCSB `db` value names: a store name, or a YCSB binding class or script name. */
export function storeOfYcsbBinding(value: string): StoreName | undefined {
  const name = value.replace(/^com\.yahoo\.ycsb\./, 'site.ycsb.');
  return (STORE_NAMES as readonly string[]).includes(name) ? (name as StoreName) : YCSB_BINDINGS[name];
}
