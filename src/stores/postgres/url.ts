/**
 * The PostgreSQL connection URL, as libpq and node-postgres take it:
 *   postgres://[user[:password]@]host[:port][/database][?sslmode=…&…]   (or postgresql://)
 * docbench checks the shape and reads the database and the TLS mode; node-postgres parses the
 * rest (pg-connection-string), so every option it takes works as in a user's application.
 */
import { UserError } from '../../common/user-error.ts';
import { maskUrl } from '../../common/mask-url.ts';

const SHAPE = 'postgres://[user[:password]@]host[:port][/database][?sslmode=disable|require|verify-ca|verify-full]';

/** libpq's sslmode values; node-postgres takes each (prefer and allow as require/no TLS). */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] as const;

export class PostgresUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`postgres: "${maskUrl(url)}" ${problem}`);
  }
}

export interface PostgresUrl {
  /** The URL as given, for the driver. */
  readonly url: string;
  /** The database in the path; node-postgres's default (the user's name) when there is none. */
  readonly database: string;
  readonly user: string | undefined;
  readonly hasPassword: boolean;
  /** `sslmode` as the URL gives it, if it does. */
  readonly sslmode: (typeof SSL_MODES)[number] | undefined;
  /** The URL with its password masked, for messages and results. */
  readonly displayUrl: string;
}

export function parsePostgresUrl(url: string): PostgresUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PostgresUrlError(url, `is not a PostgreSQL URL; expected ${SHAPE}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new PostgresUrlError(url, `has the scheme "${parsed.protocol}"; expected ${SHAPE}`);
  if (parsed.hostname === '') throw new PostgresUrlError(url, `names no host; expected ${SHAPE}`);
  const sslmode = parsed.searchParams.get('sslmode') ?? undefined;
  if (sslmode !== undefined && !(SSL_MODES as readonly string[]).includes(sslmode))
    throw new PostgresUrlError(url, `has sslmode=${sslmode}; expected one of ${SSL_MODES.join(', ')}`);
  let user: string | undefined;
  let database: string;
  try {
    user = parsed.username === '' ? undefined : decodeURIComponent(parsed.username);
    const path = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    database = path !== '' ? path : (user ?? process.env.USER ?? 'postgres');
  } catch {
    throw new PostgresUrlError(url, 'has a malformed %-escape');
  }
  return {
    url,
    database,
    user,
    hasPassword: parsed.password !== '',
    sslmode: sslmode as PostgresUrl['sslmode'],
    displayUrl: maskUrl(url),
  };
}
