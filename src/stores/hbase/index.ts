/**
 * `hbase`: Apache HBase through its REST gateway (the `hbase-rest` server, "Stargate"), with a
 * small client of docbench's own on node:http (connection.ts, cellset.ts): HBase has no official
 * Node.js driver, and the README (Stores) says why this one rather than npm `hbase` or Thrift2.
 *
 * A YCSB record is one row of YCSB's `usertable` layout, as YCSB's HBase binding writes it: row
 * key = YCSB key, one column family (`hbase.columnfamily`, default `family`), one column per
 * field. Scans read rows in row-key order, as the binding's do (ycsb.ts).
 *
 * URL (url.ts): `hbase+rest://[USER:PASSWORD@]host[:port][/namespace]`, `hbase+rests://` for
 * HTTPS; a user and password go as HTTP Basic auth (for a gateway behind an authenticating proxy).
 *
 * Settings (settings.ts; `-p hbase.<name>=value`):
 *   hbase.columnfamily    the YCSB table's column family (default family)
 *   hbase.format          protobuf (default) or json: how rows travel on point reads and writes
 *   hbase.maxsockets      keep-alive connections to the gateway (default: operations in flight)
 *   hbase.timeout         ms per request before it is a TIMEOUT (default 30000)
 *   hbase.connecttimeout  ms for the first request of connect() (default 5000)
 *
 * The parts: handle.ts (HBase's operations on the gateway's resources; what scenario dialects
 * use), ycsb.ts, stats.ts (version, regions, store file sizes), explain.ts (how a scan read),
 * local-target.ts (a standalone HBase 2.6 and its gateway on 127.0.0.1).
 */
import { MissingDataError, type StoreFactory, type StoreStats, type YcsbSchema } from '../store.ts';
import { YcsbStore } from '../ycsb-store.ts';
import { RestClient } from './connection.ts';
import { HbaseHandle } from './handle.ts';
import { hbaseConfig, type HbaseConfig } from './settings.ts';
import { hbaseStats } from './stats.ts';
import { YcsbTables } from './ycsb.ts';

export class HbaseStore extends YcsbStore<HbaseHandle> {
  readonly name = 'hbase';
  readonly handle: HbaseHandle;
  private readonly client: RestClient;
  protected readonly ycsb: YcsbTables;

  constructor(private readonly config: HbaseConfig) {
    super();
    this.client = new RestClient(config);
    this.handle = new HbaseHandle(this.client, config.namespace, config.family, config.format);
    this.ycsb = new YcsbTables(this.handle);
  }

  connect(): Promise<void> {
    return this.client.open();
  }

  /** The table, and in it the column family the run reads (a table made for another family would answer every read with an error). */
  async checkTable(schema: YcsbSchema): Promise<void> {
    const families = await this.handle.families(schema.table);
    const fix = 'load it first: docbench load --store hbase --url … -P <the same workload>';
    if (families === null)
      throw new MissingDataError(
        'hbase',
        this.config.displayUrl,
        `the table "${this.handle.qualified(schema.table)}"`,
        fix,
      );
    if (!families.includes(this.config.family)) {
      throw new MissingDataError(
        'hbase',
        this.config.displayUrl,
        `the column family "${this.config.family}" of table "${this.handle.qualified(schema.table)}" (it has ${families.join(', ') || 'none'})`,
        `set -p hbase.columnfamily=<one of them>, or ${fix}`,
      );
    }
  }

  stats(): Promise<StoreStats> {
    return hbaseStats(this.handle, this.config);
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

export const createStore: StoreFactory<HbaseStore> = (options) => new HbaseStore(hbaseConfig(options));
