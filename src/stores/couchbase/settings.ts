/**
 * Every `couchbase.*` setting, declared once and parsed by the settings parser every store uses
 * (an unknown key is an error with a "did you mean", a bad value one line naming key, value and
 * what was expected), and the store's typed configuration: the URL and the settings combined.
 *
 * Settings come from `-p couchbase.<name>=value` or, the same names, from the URL's query
 * parameters; `-p` wins over the URL. Pool sizes need no setting: the SDK multiplexes every
 * request over its KV connections, so the caller's concurrency sizes nothing here.
 */
import { DurabilityLevel } from 'couchbase';
import { z } from 'zod';
import { parseSettings, setting, type SettingSpec } from '../../common/settings.ts';
import { parseCouchbaseUrl, type CouchbaseUrl } from './url.ts';

/** couchbase.durability values (Couchbase's names for the levels) -> the SDK's enum. */
const DURABILITY = {
  none: DurabilityLevel.None,
  majority: DurabilityLevel.Majority,
  majorityAndPersistActive: DurabilityLevel.MajorityAndPersistOnMaster,
  persistToMajority: DurabilityLevel.PersistToMajority,
} as const;
type DurabilityName = keyof typeof DURABILITY;

/** Couchbase's rule for scope and collection names: 1-251 of A-Z a-z 0-9 _ - %, not starting with _ or %. */
const couchbaseName = (describe: string) =>
  setting.text({
    describe,
    fallback: '_default',
    pattern: /^(?:_default|[A-Za-z0-9-][A-Za-z0-9_%-]{0,250})$/,
    expected: '_default or a Couchbase name (1-251 characters of A-Z a-z 0-9 _ - %, not starting with _ or %)',
  });

/** An http(s) URL, kept as its origin (`http://host:8091`): the management paths are appended to it. */
const httpOrigin = (describe: string): SettingSpec<string | undefined> => ({
  schema: z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((v) => new URL(v).origin),
  expected: 'an http(s) URL such as http://host:8091',
  fallback: undefined,
  describe,
});

const milliseconds = (fallback: number, describe: string) =>
  setting.wholeNumber({ min: 1, fallback, describe: `ms ${describe}` });

const SETTINGS = {
  scope: couchbaseName('the scope the documents live in'),
  collection: couchbaseName('the collection the documents live in (create it first)'),
  kvTimeout: milliseconds(2500, "per KV operation (the SDK's default)"),
  queryTimeout: milliseconds(75_000, "per SQL++ statement (the SDK's default)"),
  connectTimeout: milliseconds(5000, 'to bootstrap and open the bucket, also for management REST calls'),
  durability: setting.oneOf(Object.keys(DURABILITY) as DurabilityName[], {
    fallback: 'none',
    describe: 'durability of every write',
  }),
  upsert: setting.boolean({ fallback: false, describe: 'inserts overwrite an existing document (upsert)' }),
  query: setting.boolean({
    fallback: true,
    describe: 'use SQL++ (false: scans UNSUPPORTED, no index, drop deletes nothing)',
  }),
  management: setting.boolean({
    fallback: true,
    describe: 'create indexes and make management REST calls (false: least-privilege users)',
  }),
  managementUrl: httpOrigin(
    'base URL of the management REST API (default http://<first host>:8091, https://…:18091 for couchbases://)',
  ),
};

/** What the store needs to know: where the server is, who logs in, and every setting, typed. */
export interface CouchbaseConfig {
  url: CouchbaseUrl;
  scope: string;
  collection: string;
  kvTimeoutMs: number;
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  durability: DurabilityLevel;
  durabilityName: DurabilityName;
  upsert: boolean;
  query: boolean;
  management: boolean;
  /** Origin of the management REST API, e.g. `http://db1.example.com:8091`. */
  managementUrl: string;
}

/** The URL checked and every `couchbase.*` setting checked (URL parameters first, `-p` settings over them). */
export function couchbaseConfig(url: string, given: Readonly<Record<string, string>>): CouchbaseConfig {
  const target = parseCouchbaseUrl(url);
  const s = parseSettings('couchbase', SETTINGS, { ...target.urlSettings, ...given });
  return {
    url: target,
    scope: s.scope,
    collection: s.collection,
    kvTimeoutMs: s.kvTimeout,
    queryTimeoutMs: s.queryTimeout,
    connectTimeoutMs: s.connectTimeout,
    durability: DURABILITY[s.durability],
    durabilityName: s.durability,
    upsert: s.upsert,
    query: s.query,
    management: s.management,
    managementUrl: s.managementUrl ?? defaultManagementUrl(target),
  };
}

/** Couchbase Server's management port on the first host: 8091, or 18091 over TLS. */
function defaultManagementUrl(target: CouchbaseUrl): string {
  const host = target.firstHost.includes(':') ? `[${target.firstHost}]` : target.firstHost;
  return target.tls ? `https://${host}:18091` : `http://${host}:8091`;
}
