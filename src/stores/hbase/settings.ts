/**
 * The `hbase.*` settings, declared once, and the store's configuration: the URL and the settings
 * combined, checked, with every default applied. Nothing here touches the network.
 */
import { parseSettings, setting } from '../../common/settings.ts';
import type { StoreOptions } from '../store.ts';
import type { WireFormat } from './cellset.ts';
import { NAME_PATTERN, NAME_RULE, parseHbaseUrl } from './url.ts';

/** YCSB's HBase binding has no default column family (`-p columnfamily=` is required); its docs create `usertable` with `family`. */
export const DEFAULT_FAMILY = 'family';

export const SETTINGS = {
  columnfamily: setting.text({
    fallback: DEFAULT_FAMILY,
    pattern: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
    expected: 'a column family name (letters, digits, _ - and .)',
    describe: "the YCSB table's one column family (YCSB's columnfamily)",
  }),
  format: setting.oneOf(['protobuf', 'json'] as const, {
    fallback: 'protobuf',
    describe: "wire format of rows on the gateway's row and multi-get resources (scans are always JSON: see ycsb.ts)",
  }),
  maxsockets: setting.wholeNumber({
    min: 1,
    describe: 'HTTP keep-alive connections to the gateway (default: the operations in flight, --threads)',
  }),
  timeout: setting.wholeNumber({
    min: 1,
    fallback: 30_000,
    describe: 'ms a request may take before it is a TIMEOUT (the gateway itself waits on HBase with its own retries)',
  }),
  connecttimeout: setting.wholeNumber({
    min: 1,
    fallback: 5000,
    describe: "ms to open a TCP connection, and for connect()'s first request to answer",
  }),
};

export interface HbaseConfig {
  /** `http(s)://host:port`. */
  baseUrl: string;
  tls: boolean;
  /** The URL with its password masked. */
  displayUrl: string;
  authorization?: string;
  namespace: string;
  family: string;
  format: WireFormat;
  maxSockets: number;
  timeoutMs: number;
  connectTimeoutMs: number;
}

export function hbaseConfig(options: StoreOptions): HbaseConfig {
  const url = parseHbaseUrl(options.url);
  const s = parseSettings('hbase', SETTINGS, options.settings);
  return {
    baseUrl: url.baseUrl,
    tls: url.tls,
    displayUrl: url.displayUrl,
    ...(url.authorization !== undefined ? { authorization: url.authorization } : {}),
    namespace: url.namespace,
    family: s.columnfamily,
    format: s.format,
    maxSockets: s.maxsockets ?? Math.max(1, options.concurrency),
    timeoutMs: s.timeout,
    connectTimeoutMs: s.connecttimeout,
  };
}

/** A YCSB `table` HBase cannot name. */
export function checkTableName(table: string): string | undefined {
  return NAME_PATTERN.test(table)
    ? undefined
    : `hbase: table "${table}" is not an HBase table name (${NAME_RULE}); name another table with -p table=…`;
}
