/**
 * The CouchDB connection URL: `http(s)://USER:PASSWORD@host:5984[/database]`.
 *
 * CouchDB speaks HTTP, so the URL is the server's own address. CouchDB 3 refuses to run without an
 * admin and makes new databases admin-only, so the URL normally carries an admin's credentials
 * (nano sends them as HTTP Basic auth on every request). An optional path names the one database
 * every table uses. A CouchDB server URL has no query string: settings go as `-p couchdb.<name>=…`.
 */
import { UserError } from '../../common/user-error.ts';

export const URL_SHAPE = 'http(s)://USER:PASSWORD@host:5984[/database]';

/** CouchDB's rule for database names (docs: PUT /{db}). */
export const DATABASE_NAME = /^[a-z][a-z0-9_$()+/-]*$/;
export const DATABASE_NAME_RULE = 'a lower-case letter first, then a-z 0-9 _ $ ( ) + - /';

/** A URL that is not a CouchDB server URL; the message shows it with its password masked. */
export class CouchdbUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`couchdb: the URL "${maskCredentials(url)}" ${problem}; expected ${URL_SHAPE}`);
  }
}

export interface CouchdbUrl {
  /** The server's URL (credentials kept, no path) handed to nano. */
  serverUrl: string;
  /** The database the URL's path names, if any. */
  database: string | undefined;
  /** The server's URL with its password masked, for messages. */
  displayUrl: string;
}

/**
 * The URL with any password replaced by `***`. Works on text that is not a valid URL too (it is
 * used in the message saying so, and `admin:secret@host` without a scheme is one): everything
 * between the user name and the last `@` is masked, since an unencoded password may itself hold
 * `@`, `/` or `:`.
 */
export function maskCredentials(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : scheme + 3;
  const at = url.lastIndexOf('@');
  if (at < start) return url;
  const colon = url.slice(start, at).indexOf(':');
  if (colon < 0) return url;
  return `${url.slice(0, start + colon)}:***${url.slice(at)}`;
}

export function parseCouchdbUrl(url: string): CouchdbUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CouchdbUrlError(url, 'is not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CouchdbUrlError(url, `has the scheme ${parsed.protocol}// (CouchDB speaks HTTP: http:// or https://)`);
  }
  if (parsed.password && !parsed.username) throw new CouchdbUrlError(url, 'has a password but no user name');
  if (parsed.search || parsed.hash) {
    throw new CouchdbUrlError(
      url,
      'has a query string or fragment, which a CouchDB server URL does not take (give settings as -p couchdb.<name>=value)',
    );
  }
  const database = pathDatabase(url, parsed.pathname);
  parsed.pathname = '/';
  const serverUrl = parsed.toString();
  if (parsed.password) parsed.password = '***';
  return { serverUrl, database, displayUrl: parsed.toString() };
}

function pathDatabase(url: string, pathname: string): string | undefined {
  const path = pathname.replace(/^\/+|\/+$/g, '');
  if (!path) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(path);
  } catch {
    throw new CouchdbUrlError(url, `has a path "${path}" that is not valid percent-encoding`);
  }
  if (!DATABASE_NAME.test(name))
    throw new CouchdbUrlError(
      url,
      `names the database "${name}", which is not a CouchDB database name (${DATABASE_NAME_RULE})`,
    );
  return name;
}
