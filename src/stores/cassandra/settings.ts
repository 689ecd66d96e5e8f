/**
 * The `cassandra.*` settings, declared once, and the store's configuration: the URL and the
 * settings combined, checked, with every default applied. Nothing here touches the network.
 */
import cassandra from 'cassandra-driver';
import { parseSettings, setting } from '../../common/settings.ts';
import type { StoreOptions } from '../store.ts';
import { KEYSPACE_NAME, maskPassword, parseCassandraUrl } from './url.ts';

/** YCSB's names (the Java driver's ConsistencyLevel), matched without regard to case; YCSB's default is ONE. */
const CONSISTENCY_LEVELS = [
  'ANY',
  'ONE',
  'TWO',
  'THREE',
  'QUORUM',
  'ALL',
  'LOCAL_QUORUM',
  'EACH_QUORUM',
  'SERIAL',
  'LOCAL_SERIAL',
  'LOCAL_ONE',
] as const;
type ConsistencyLevel = (typeof CONSISTENCY_LEVELS)[number];

export const DEFAULT_KEYSPACE = 'ycsb';

export const SETTINGS = {
  keyspace: setting.text({
    pattern: KEYSPACE_NAME,
    expected: 'a CQL keyspace name (letters, digits and _, at most 48)',
    describe: `keyspace docbench works in; default the URL's path, else ${DEFAULT_KEYSPACE}`,
  }),
  replication: setting.text({
    pattern: /^\{.*\}$/s,
    expected: "a CQL replication map such as {'class': 'NetworkTopologyStrategy', 'dc1': 3}",
    describe:
      "replication of the keyspace when docbench creates it; default SimpleStrategy with factor min(3, the cluster's nodes)",
  }),
  readconsistencylevel: setting.oneOf(CONSISTENCY_LEVELS, {
    fallback: 'ONE',
    describe: 'consistency level of reads and scans',
  }),
  writeconsistencylevel: setting.oneOf(CONSISTENCY_LEVELS, {
    fallback: 'ONE',
    describe: 'consistency level of inserts, updates and deletes',
  }),
  scanbucketlength: setting.wholeNumber({
    min: 1,
    fallback: 6,
    describe:
      'leading characters of a key that name its partition, its bucket; raise it for tens of millions of records',
  }),
  readtimeout: setting.wholeNumber({
    min: 1,
    fallback: 12_000,
    describe:
      "ms a request may wait for the node's answer before it fails as TIMEOUT (the driver's readTimeout; also bounds connecting)",
  }),
};

export interface CassandraConfig {
  /** The URL with its password masked, for messages. */
  displayUrl: string;
  contactPoints: string[];
  datacenter: string;
  /** CQL over TLS (the URL's `tls=true`). */
  tls: boolean;
  credentials?: { username: string; password: string };
  keyspace: string;
  /** CQL map used when docbench creates the keyspace; undefined: SimpleStrategy, factor min(3, nodes). */
  replication?: string;
  /** The driver's consistency values (`cassandra.types.consistencies`). */
  readConsistency: number;
  writeConsistency: number;
  scanBucketLength: number;
  /** The driver's readTimeout: how long a request waits for its answer (`cassandra.readtimeout`). */
  readTimeoutMs: number;
  /** Operations the caller keeps in flight, to size the connection pool. */
  concurrency: number;
}

/** URL + settings -> configuration; a bad URL or setting is a one-line user error. */
export function cassandraConfig(options: StoreOptions): CassandraConfig {
  const url = parseCassandraUrl(options.url);
  const s = parseSettings('cassandra', SETTINGS, options.settings);
  return {
    displayUrl: maskPassword(options.url),
    contactPoints: url.contactPoints,
    datacenter: url.datacenter,
    tls: url.tls,
    ...(url.username !== undefined ? { credentials: { username: url.username, password: url.password ?? '' } } : {}),
    keyspace: s.keyspace ?? url.keyspace ?? DEFAULT_KEYSPACE,
    ...(s.replication !== undefined ? { replication: s.replication } : {}),
    readConsistency: consistencyValue(s.readconsistencylevel),
    writeConsistency: consistencyValue(s.writeconsistencylevel),
    scanBucketLength: s.scanbucketlength,
    readTimeoutMs: s.readtimeout,
    concurrency: options.concurrency,
  };
}

/** `LOCAL_QUORUM` -> the driver's `consistencies.localQuorum`. */
function consistencyValue(level: ConsistencyLevel): number {
  const key = level
    .toLowerCase()
    .replace(/_(\w)/g, (_, c: string) => c.toUpperCase()) as keyof typeof cassandra.types.consistencies;
  return cassandra.types.consistencies[key];
}

/** The driver's name of a consistency value (`one`, `localQuorum`), as stats report it. */
export function consistencyName(value: number): string {
  return Object.entries(cassandra.types.consistencies).find(([, v]) => v === value)?.[0] ?? String(value);
}
