/**
 * Cassandra on the DataStax/Apache `cassandra-driver`, with the semantics of YCSB's CQL
 * binding: prepared statements for every operation, consistency ONE unless set, inserts and
 * updates are upserts (so an update of a missing row "succeeds", and a delete cannot tell
 * whether the row was there).
 *
 * Scans in key order. YCSB's binding scans with `token(y_id) >= token(?)`: Murmur3 token order,
 * which is not key order, so its "first N records from key K" are N pseudo-random records.
 * docbench keeps YCSB's meaning instead, the way a Cassandra developer designs a table for a
 * query: rows are partitioned by a key-prefix bucket and clustered by key,
 * `PRIMARY KEY ((bucket), y_id)`, bucket = the key's first `cassandra.scanbucketlength`
 * characters (default 6: YCSB's "user" + 2 digits gives ~110 partitions, each holding a
 * slice of the key space in order). Point operations address (bucket, y_id), so they stay
 * single-partition. A small `<table>_buckets` table lists the buckets in order; a scan reads
 * the buckets from the start key's on and pages through them until it has `count` rows.
 * Trade-off, stated plainly: with 10 M records a bucket holds ~100 k rows (~100 MB at 1 KB),
 * the upper end of what Cassandra recommends; raise the bucket length for larger loads.
 *
 * URL (url.ts): `cassandra://[user:password@]host[:port][,host[:port]…][/keyspace][?datacenter=<local dc>][&tls=true]`.
 * Settings (settings.ts): cassandra.keyspace (default: the URL's keyspace, else ycsb),
 * cassandra.replication (CQL map, default SimpleStrategy with factor min(3, nodes)), cassandra.readconsistencylevel /
 * writeconsistencylevel (default ONE, as YCSB), cassandra.scanbucketlength (default 6),
 * cassandra.readtimeout (ms a request waits for its answer before it fails as TIMEOUT, default
 * 12000). The connection pool is sized from the caller's concurrency (connection.ts).
 *
 * Connecting logs in when the URL has a user (a refused login, or a node that asks for one and
 * gets none, is an AccessDeniedError); a run first checks the keyspace and table exist and that
 * the role may SELECT from it (checkTable).
 *
 * The parts: url.ts and settings.ts make the configuration, connection.ts opens the client,
 * ycsb.ts runs YCSB's operations, handle.ts is what scenario dialects get, stats.ts reports.
 */
import type cassandra from 'cassandra-driver';
import { MissingDataError, type StoreFactory, type StoreStats, type YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { accessDenied, closeClient, connectClient, createClient } from './connection.ts';
import { CassandraHandle } from './handle.ts';
import { cassandraConfig, type CassandraConfig } from './settings.ts';
import { cassandraStats } from './stats.ts';
import { YcsbTables } from './ycsb.ts';

export class CassandraStore extends YcsbStore<CassandraHandle> {
  readonly name = 'cassandra';
  readonly handle: CassandraHandle;
  private readonly client: cassandra.Client;
  protected readonly ycsb: YcsbTables;

  constructor(private readonly config: CassandraConfig) {
    super();
    this.client = createClient(config);
    this.handle = new CassandraHandle(this.client, config.keyspace, config.replication);
    this.ycsb = new YcsbTables(this.handle, config);
  }

  connect(): Promise<void> {
    return connectClient(this.client, this.config);
  }

  /**
   * The keyspace and the table, from the server's own schema tables (the driver's metadata may
   * lag a DDL), then one row of the table: a role without SELECT on it (CassandraAuthorizer) is an
   * AccessDeniedError here rather than a run of errors.
   */
  async checkTable(schema: YcsbSchema): Promise<void> {
    const keyspace = this.config.keyspace;
    const fix = 'load it first: docbench load --store cassandra --url … -P <the same workload>';
    const rows = async (cql: string, params: string[], what: string) => {
      try {
        return (await this.client.execute(cql, params, { prepare: true })).rowLength;
      } catch (error) {
        throw accessDenied(error, this.config, what) ?? error;
      }
    };
    if (
      (await rows(
        'SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?',
        [keyspace],
        'read the schema',
      )) === 0
    ) {
      throw new MissingDataError('cassandra', this.config.displayUrl, `the keyspace "${keyspace}"`, fix);
    }
    if (
      (await rows(
        'SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?',
        [keyspace, schema.table],
        'read the schema',
      )) === 0
    ) {
      throw new MissingDataError('cassandra', this.config.displayUrl, `the table "${keyspace}"."${schema.table}"`, fix);
    }
    await rows(
      `SELECT * FROM ${this.handle.table(schema.table)} LIMIT 1`,
      [],
      `SELECT from "${keyspace}"."${schema.table}"`,
    );
  }

  stats(): Promise<StoreStats> {
    return cassandraStats(this.handle, this.config);
  }

  close(): Promise<void> {
    return closeClient(this.client);
  }
}

export const createStore: StoreFactory<CassandraStore> = (options) => new CassandraStore(cassandraConfig(options));
