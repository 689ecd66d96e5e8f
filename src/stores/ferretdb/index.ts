/**
 * `ferretdb`: FerretDB, the MongoDB-compatible server on PostgreSQL, on the official `mongodb`
 * driver and the MongoDB store's own code (src/stores/mongodb/): the same URL grammar
 * (`mongodb://…`), YCSB operations, handle, stats and explain, so its figures differ from
 * MongoDB's by the server alone. Under its own name: every result names FerretDB and its version
 * (the MongoDB store's stats read them from buildInfo.ferretdbVersion), never MongoDB.
 *
 * Settings are the MongoDB store's, named `ferretdb.*` (`-p ferretdb.writeConcern=1`).
 * What FerretDB v1 cannot run is refused by the scenarios' ferretdb dialects, with the reason.
 * The local server: local-target.ts (FerretDB built once, on the local PostgreSQL).
 */
import { SettingError } from '../../common/settings.ts';
import { MongodbStore } from '../mongodb/index.ts';
import { AccessDeniedError, UnreachableError, type StoreFactory, type StoreOptions } from '../store.ts';

const PREFIX = 'ferretdb.';
const MONGODB_PREFIX = 'mongodb.';

/** `ferretdb.*` settings as the MongoDB store's own; an error names the key as the user gave it. */
function asMongodbOptions(options: StoreOptions): StoreOptions {
  const settings: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.settings))
    settings[key.startsWith(PREFIX) ? MONGODB_PREFIX + key.slice(PREFIX.length) : key] = value;
  return { ...options, settings };
}

const renamed = (text: string) =>
  text.replaceAll(MONGODB_PREFIX, PREFIX).replace(/\bmongodb understands\b/, 'ferretdb understands');

export class FerretdbStore extends MongodbStore {
  constructor(options: StoreOptions) {
    try {
      super(asMongodbOptions(options), 'ferretdb');
    } catch (error) {
      if (error instanceof SettingError) throw new SettingError(renamed(error.message));
      throw error;
    }
  }

  /** The MongoDB store's connect, its errors naming this store. */
  override async connect(): Promise<void> {
    const url = this.config.target.displayUrl;
    try {
      await super.connect();
    } catch (error) {
      if (error instanceof UnreachableError)
        throw new UnreachableError('ferretdb', url, error.message.replace(`cannot reach mongodb at ${url}: `, ''));
      if (error instanceof AccessDeniedError)
        throw new AccessDeniedError(
          'ferretdb',
          url,
          renamed(error.message.replace(`mongodb at ${url} refused access: `, '')),
        );
      throw error;
    }
  }
}

export const createStore: StoreFactory<FerretdbStore> = (options) => new FerretdbStore(options);
