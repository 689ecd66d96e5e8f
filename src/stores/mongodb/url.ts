/**
 * The MongoDB connection string, exactly as MongoDB's docs give it:
 *   mongodb://[user:password@]host[:port][,host…][/database][?options]     self-hosted, replica sets
 *   mongodb+srv://[user:password@]cluster.example.net[/database][?options] Atlas (DNS seed list)
 * docbench reads only what it needs (the database in the path, which options the URL sets) and
 * checks the shape; the driver parses the rest, and what it refuses becomes the same one-line
 * error (connection.ts).
 */
import { UserError } from '../../common/user-error.ts';

/** YCSB's default database (its `mongodb.url` default is mongodb://localhost:27017/ycsb). */
export const DEFAULT_DATABASE = 'ycsb';

const SHAPE =
  'mongodb://[user:password@]host[:port][,host…][/database][?options] or mongodb+srv://[user:password@]cluster.example.net[/database][?options]';

/**
 * The driver's own shape (mongodb-connection-string-url): scheme, optional `user[:password]@`,
 * a non-empty host list without `/`, then `/database` and `?options`.
 */
const PARTS = /^(mongodb(?:\+srv)?:\/\/)(?:([^:@/]*)(?::([^@]*))?@)?([^/?@]+)(\/[^?]*)?(?:\?(.*))?$/;

/** MongoDB's rule for database names (none of `/\. "$*<>:|?`, at most 63 bytes). */
const DATABASE_NAME = /^[^/\\. "$*<>:|?]{1,63}$/;

/** `scheme://user:password@` anywhere in a text, up to the last `@` before the query. */
const CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):[^?#\s]*@/gi;

/** A connection string docbench cannot use; the message names it with its password masked. */
export class MongoUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`mongodb: "${maskPassword(url)}" ${problem}`);
  }

  static notAConnectionString(url: string): MongoUrlError {
    return new MongoUrlError(url, `is not a MongoDB connection string; expected ${SHAPE}`);
  }

  /** The driver refused it (a bad port, an unknown or malformed option, …). */
  static refusedByDriver(url: string, reason: string): MongoUrlError {
    return new MongoUrlError(
      url,
      `is refused by the driver: ${maskPassword(reason)}; expected ${SHAPE}, with the driver's connection options`,
    );
  }
}

export interface MongoUrl {
  /** The URL as given, for the driver. */
  readonly url: string;
  /** The database named by the path, `ycsb` when there is none. */
  readonly database: string;
  /** Lower-cased names of the options the URL sets, so the settings' defaults never override them. */
  readonly urlOptions: ReadonlySet<string>;
  /** The URL with its password masked, for messages. */
  readonly displayUrl: string;
}

export function parseMongoUrl(url: string): MongoUrl {
  const match = PARTS.exec(url);
  if (!match) throw MongoUrlError.notAConnectionString(url);
  const [, , , , , path, query] = match;
  let database = DEFAULT_DATABASE;
  if (path && path !== '/') {
    try {
      database = decodeURIComponent(path.slice(1));
    } catch {
      throw new MongoUrlError(url, `has a malformed %-escape in its path "${path}"`);
    }
  }
  if (!DATABASE_NAME.test(database)) {
    throw new MongoUrlError(
      url,
      `names the database "${database}" in its path, which is not a valid database name (1-63 characters, none of / \\ . " $ * < > : | ?)`,
    );
  }
  const urlOptions = new Set([...new URLSearchParams(query ?? '').keys()].map((k) => k.toLowerCase()));
  return { url, database, urlOptions, displayUrl: maskPassword(url) };
}

/** The text with the password of every `scheme://user:password@` in it replaced by `***`. */
export function maskPassword(text: string): string {
  return text.replace(CREDENTIALS, '$1:***@');
}
