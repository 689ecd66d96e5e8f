/**
 * The config file a team checks in next to its code: which stores it compares, where each one
 * is, and each store's settings. `docbench.config.json` in the working folder is read when it
 * exists; `--config <file>` names another one.
 *
 *   {
 *     "stores": {
 *       "couchdb": { "url": "http://admin:${COUCHDB_PASSWORD}@couchdb.internal:5984", "settings": { "maxsockets": 16 } },
 *       "mongodb": { "url": "mongodb+srv://bench:${MONGODB_PASSWORD}@cluster0.example.net/docbench" },
 *       "redis": {}
 *     }
 *   }
 *
 * - The stores, in the file's order, are what `compare`, `ecommerce` and `persons` run when no
 *   store is named; a store without `url` uses docbench's local server.
 * - `settings` are the store's `-p` settings, with or without the store's prefix (`maxsockets` or
 *   `couchdb.maxsockets`); `-p` on the command line overrides them.
 * - `${NAME}` in a URL or a setting is the environment variable NAME, so passwords stay out of the
 *   file; a variable that is not set is an error naming it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../common/user-error.ts';
import { isStoreName, settingsPrefixes, UnknownStoreError, type StoreName } from '../stores/stores.ts';

export const DEFAULT_CONFIG_FILE = 'docbench.config.json';

/** A config file that cannot be used: one line naming the file, the key and what was expected. */
export class ConfigError extends UserError {}

export interface StoreConfig {
  url?: string;
  /** `<store>.<name>=value` assignments, as `-p` takes them. */
  settings: string[];
}

export interface DocbenchConfig {
  /** Where it was read from, for messages. */
  file: string;
  /** The stores in the file's order. */
  stores: ReadonlyMap<StoreName, StoreConfig>;
}

const settingValue = z.union([z.string(), z.number(), z.boolean()]);
const storeSchema = z
  .object({
    url: z.string().min(1).optional(),
    settings: z.record(z.string(), settingValue).optional(),
  })
  .strict();
const fileSchema = z.object({ stores: z.record(z.string(), storeSchema) }).strict();

/**
 * The config file named by `--config`, else `docbench.config.json` in the working folder when it
 * exists, else none.
 */
export function loadConfig(given: string | undefined, env: NodeJS.ProcessEnv = process.env): DocbenchConfig | null {
  const file = given ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  if (file === undefined) return null;
  if (!existsSync(file)) throw new ConfigError(`--config ${file}: no such file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `${file}: not valid JSON (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  return parseConfig(raw, file, env);
}

/** A parsed config file's content, checked. */
export function parseConfig(raw: unknown, file: string, env: NodeJS.ProcessEnv = process.env): DocbenchConfig {
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.') || 'the document';
    const what = issue.code === 'unrecognized_keys' ? `unknown key "${issue.keys[0]}"` : issue.message;
    throw new ConfigError(
      `${file}: ${where}: ${what}; expected {"stores": {"<store>": {"url": "…", "settings": {"<name>": value}}}}`,
    );
  }
  const stores = new Map<StoreName, StoreConfig>();
  for (const [name, entry] of Object.entries(parsed.data.stores)) {
    if (!isStoreName(name)) throw new UnknownStoreError(name, `${file}: stores`);
    const key = `stores.${name}`;
    const settings = Object.entries(entry.settings ?? {}).map(([setting, value]) => {
      const full = qualified(name, setting, `${file}: ${key}.settings`);
      return `${full}=${substitute(String(value), `${file}: ${key}.settings.${setting}`, env)}`;
    });
    stores.set(name, {
      ...(entry.url !== undefined ? { url: substitute(entry.url, `${file}: ${key}.url`, env) } : {}),
      settings,
    });
  }
  return { file, stores };
}

/** `maxsockets` -> `couchdb.maxsockets`; a name with another store's prefix is an error. */
function qualified(store: StoreName, setting: string, where: string): string {
  const prefixes = settingsPrefixes(store);
  if (prefixes.some((p) => setting.startsWith(p))) return setting;
  if (setting.includes('.'))
    throw new ConfigError(
      `${where}: "${setting}" is not a ${store} setting (they are named ${prefixes[0]}<name>, or <name> alone)`,
    );
  return `${prefixes[0]}${setting}`;
}

/** `${NAME}` replaced by the environment variable's value; an unset variable is an error. */
function substitute(text: string, where: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined) throw new ConfigError(`${where}: the environment variable ${name} is not set`);
    return value;
  });
}
