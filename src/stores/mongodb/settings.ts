/**
 * The `mongodb.*` settings (`-p mongodb.<name>=value`), each overriding the same option in the
 * URL (every other URL option is the driver's), and the store's configuration: the URL, the
 * settings and the caller's concurrency made into the driver's options.
 */
import type { MongoClientOptions, ReadPreferenceMode } from 'mongodb';
import { parseSettings, setting, SettingError, type SettingsOf } from '../../common/settings.ts';
import type { StoreOptions } from '../store.ts';
import { parseMongoUrl, type MongoUrl } from './url.ts';

const READ_PREFERENCES = [
  'primary',
  'primaryPreferred',
  'secondary',
  'secondaryPreferred',
  'nearest',
] as const satisfies readonly ReadPreferenceMode[];

/** The driver waits 30 s by default: far too long to tell a user that nothing answers. */
export const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;

export const SETTINGS = {
  writeConcern: setting.text({
    pattern: /^(?:majority|\d+)$/,
    expected: 'a number of nodes (0, 1, 2, …) or majority',
    describe: "write concern w; default: the URL's, else the server's",
  }),
  journal: setting.boolean({
    describe: "wait for the journal, write concern j; default: the URL's, else the server's",
  }),
  readPreference: setting.oneOf(READ_PREFERENCES, {
    describe: "which members serve reads; default: the URL's, else primary",
  }),
  maxPoolSize: setting.wholeNumber({
    min: 1,
    describe:
      "connections per server; default: the URL's, else the operations in flight, so no worker waits for a connection",
  }),
  serverSelectionTimeoutMS: setting.wholeNumber({
    min: 1,
    describe: `ms connect() waits for a server to answer; default: the URL's, else ${DEFAULT_SERVER_SELECTION_TIMEOUT_MS}`,
  }),
};

export type MongodbSettings = SettingsOf<typeof SETTINGS>;

/** Properties of YCSB's MongoDB binding that docbench takes elsewhere: say where, not only "unknown". */
const TAKEN_ELSEWHERE: Readonly<Record<string, string>> = {
  'mongodb.url': 'give the URL with --url',
  'mongodb.batchsize': 'the load batch size is the `batchsize` property',
};

/** The `mongodb.*` settings among `given`, checked and typed. */
export function parseMongodbSettings(given: Readonly<Record<string, string>>): MongodbSettings {
  for (const key of Object.keys(given)) {
    if (Object.hasOwn(TAKEN_ELSEWHERE, key)) throw new SettingError(`unknown setting ${key} (${TAKEN_ELSEWHERE[key]})`);
  }
  return parseSettings('mongodb', SETTINGS, given);
}

/** Everything the store needs to open its client, checked before anything connects. */
export interface MongodbConfig {
  readonly target: MongoUrl;
  readonly clientOptions: MongoClientOptions;
}

export function mongodbConfig(options: StoreOptions): MongodbConfig {
  const target = parseMongoUrl(options.url);
  const settings = parseMongodbSettings(options.settings);
  return { target, clientOptions: clientOptions(settings, target.urlOptions, options.concurrency) };
}

/** The settings as driver options; an option the URL sets is left to the URL unless a setting names it. */
function clientOptions(s: MongodbSettings, urlOptions: ReadonlySet<string>, concurrency: number): MongoClientOptions {
  const options: MongoClientOptions = {};
  if (s.writeConcern !== undefined || s.journal !== undefined) {
    options.writeConcern = {
      ...(s.writeConcern !== undefined
        ? { w: s.writeConcern === 'majority' ? 'majority' : Number(s.writeConcern) }
        : {}),
      ...(s.journal !== undefined ? { journal: s.journal } : {}),
    };
  }
  if (s.readPreference !== undefined) options.readPreference = s.readPreference;
  // A pool as large as the number of operations in flight: no worker waits for a connection.
  if (s.maxPoolSize !== undefined) options.maxPoolSize = s.maxPoolSize;
  else if (!urlOptions.has('maxpoolsize')) options.maxPoolSize = Math.max(1, concurrency);
  if (s.serverSelectionTimeoutMS !== undefined) options.serverSelectionTimeoutMS = s.serverSelectionTimeoutMS;
  else if (!urlOptions.has('serverselectiontimeoutms'))
    options.serverSelectionTimeoutMS = DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
  return options;
}
