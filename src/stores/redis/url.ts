/**
 * The Redis connection URL, as Redis's URI scheme defines it and both clients read it:
 * `redis://[user:password@]host[:port][/database]`, or `rediss://` for TLS.
 *
 * Checked here, once, so that a mistyped URL is a one-line user error naming it (password masked)
 * instead of a TypeError from inside a client, and so that both clients get the same answer:
 * left to themselves they disagree (ioredis reads `/abc` as database "abc" and fails later, or
 * takes any `?name=value` as a client option; node-redis rejects the first and ignores the second).
 */
import { UserError } from '../../common/user-error.ts';

/** A Redis URL that is not of the shape above. */
export class RedisUrlError extends UserError {}

export const REDIS_URL_SHAPE = 'redis://[user:password@]host[:port][/database] (rediss:// for TLS)';

export interface RedisUrl {
  /** The URL as given: the clients parse it themselves. */
  readonly text: string;
  /** The URL with its password replaced by `***`, for messages and results. */
  readonly masked: string;
  /** Host name or address (IPv6 in brackets, as in the URL). */
  readonly host: string;
  readonly port: number;
  /** Logical database selected on connect (`/n`; 0 when absent). */
  readonly database: number;
  /** `rediss://`: the connection is made over TLS. */
  readonly tls: boolean;
}

const DEFAULT_PORT = 6379;

/** Parse and check a Redis URL; anything off the documented shape is a RedisUrlError. */
export function parseRedisUrl(text: string): RedisUrl {
  const masked = maskUrl(text);
  const fail = (problem: string): never => {
    throw new RedisUrlError(`redis URL ${masked}: ${problem}; expected ${REDIS_URL_SHAPE}`);
  };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('not a valid URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') fail(`scheme "${url.protocol}" is not redis: or rediss:`);
  if (url.hostname === '') fail('no host');
  const database = url.pathname === '' || url.pathname === '/' ? '0' : url.pathname.slice(1);
  if (!/^\d+$/.test(database)) fail(`database "${database}" is not a whole number`);
  // Store settings are `-p redis.*` properties; a query string would reach ioredis as client options.
  if (url.search !== '') fail(`parameters "${url.search}" are not read (store settings go in -p redis.<name>=<value>)`);
  return {
    text,
    masked,
    host: url.hostname,
    port: url.port === '' ? DEFAULT_PORT : Number(url.port),
    database: Number(database),
    tls: url.protocol === 'rediss:',
  };
}

/**
 * The URL with its password replaced by `***`. Works on text that is not a valid URL too (it is
 * what an error message about a bad URL shows): everything between the first `:` after the scheme
 * and the last `@` is taken as the password, so a password holding `@` or `/` is still hidden.
 */
export function maskUrl(text: string): string {
  const schemeEnd = text.indexOf('://');
  const authorityStart = schemeEnd < 0 ? 0 : schemeEnd + 3;
  const at = text.lastIndexOf('@');
  if (at < authorityStart) return text;
  const colon = text.indexOf(':', authorityStart);
  if (colon < 0 || colon > at) return text;
  return `${text.slice(0, colon)}:***${text.slice(at)}`;
}
