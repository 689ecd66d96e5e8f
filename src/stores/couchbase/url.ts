/**
 * The Couchbase connection URL: `couchbase://USER:PASSWORD@host[:port][,host2…]/BUCKET[?option=value&…]`,
 * or `couchbases://…` for TLS (Capella). Every part a real server needs (login, bucket) is
 * required; a port is the KV (memcached) port, as in the SDK's connection strings. Query
 * parameters named `couchbase.*` are docbench settings (settings.ts); every other parameter goes
 * to the SDK's connection string unchanged (e.g. `?network=external`).
 */
import { UserError } from '../../common/user-error.ts';

const URL_SHAPE = 'couchbase://USER:PASSWORD@host[:port]/BUCKET (couchbases:// for TLS)';

/** A connection URL Couchbase Server cannot be reached with; the message shows the URL with its password masked. */
export class CouchbaseUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`couchbase: the URL "${maskPassword(url)}" ${problem}; expected ${URL_SHAPE}`);
  }
}

export interface CouchbaseUrl {
  tls: boolean;
  /** The SDK's connection string: scheme, hosts and SDK options, without login or bucket. */
  connectionString: string;
  username: string;
  password: string;
  bucket: string;
  /** First host name, for the management REST API. */
  firstHost: string;
  /** `couchbase.*` settings given as URL query parameters. */
  urlSettings: Record<string, string>;
  /** The URL with the password masked, for messages. */
  displayUrl: string;
}

const URL_PATTERN = /^(couchbases?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/;

/** Parse `couchbase(s)://user:password@hosts/bucket?params`; a URL that cannot work is a CouchbaseUrlError. */
export function parseCouchbaseUrl(url: string): CouchbaseUrl {
  const match = URL_PATTERN.exec(url.trim());
  if (!match) throw new CouchbaseUrlError(url, 'is not a Couchbase URL');
  const [, scheme, userinfo, hosts, path, query] = match;
  /** A %-decoded part; `what` names it without showing it (it may be the password). */
  const decode = (part: string, what: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new CouchbaseUrlError(url, `has a malformed %-escape in ${what}`);
    }
  };
  const colon = userinfo === undefined ? -1 : userinfo.indexOf(':');
  const username =
    userinfo === undefined ? '' : decode(colon < 0 ? userinfo : userinfo.slice(0, colon), 'the user name');
  const password = colon < 0 ? '' : decode(userinfo!.slice(colon + 1), 'the password');
  const bucket = decode((path ?? '').replace(/\/+$/, ''), 'the bucket name');
  const missing: string[] = [];
  if (!hosts) missing.push('a host');
  if (!username) missing.push('a user name');
  if (!password) missing.push('a password');
  if (!bucket) missing.push('a bucket name (the URL path)');
  if (missing.length > 0) {
    const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
    throw new CouchbaseUrlError(url, `lacks ${list}, which Couchbase Server needs`);
  }
  if (bucket.includes('/'))
    throw new CouchbaseUrlError(url, `names "${bucket}" as its bucket; the URL path is the bucket name alone`);

  const urlSettings: Record<string, string> = {};
  const sdkParams: string[] = [];
  for (const pair of (query ?? '').split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq), 'a query parameter');
    if (name.startsWith('couchbase.'))
      urlSettings[name] = decode(eq < 0 ? '' : pair.slice(eq + 1), 'a query parameter');
    else sdkParams.push(pair);
  }
  const firstHost = hosts!
    .split(/[,;]/)[0]!
    .replace(/:\d+(=\w+)?$/, '')
    .replace(/^\[(.*)\]$/, '$1');
  return {
    tls: scheme === 'couchbases',
    connectionString: `${scheme}://${hosts}${sdkParams.length > 0 ? `?${sdkParams.join('&')}` : ''}`,
    username,
    password,
    bucket,
    firstHost,
    urlSettings,
    displayUrl: maskPassword(url),
  };
}

/**
 * The URL with the password replaced by `***`. The login runs to the last `@` before the query,
 * so a password holding an unescaped `@` or `/` is masked whole, never partly shown.
 */
export function maskPassword(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (!scheme) return url;
  const queryAt = url.indexOf('?');
  const beforeQuery = queryAt < 0 ? url : url.slice(0, queryAt);
  const at = beforeQuery.lastIndexOf('@');
  if (at < scheme[0].length) return url;
  const login = url.slice(scheme[0].length, at);
  const colon = login.indexOf(':');
  if (colon < 0) return url;
  return `${scheme[0]}${login.slice(0, colon)}:***${url.slice(at)}`;
}
