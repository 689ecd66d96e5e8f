/**
 * The PostgreSQL connection URL, as libpq and node-postgres take it:
 *   postgres://[user[:password]@]host[:port][/database][?sslmode=…&sslrootcert=…&…]   (or postgresql://)
 * docbench checks the shape, reads the database and takes the TLS parameters out (tls.ts gives
 * them libpq's meaning); node-postgres parses the rest (pg-connection-string), so every other
 * option it takes works as in a user's application.
 */
import { UserError } from '../../common/user-error.ts';
import { maskUrl } from '../../common/mask-url.ts';

const SHAPE = 'postgres://[user[:password]@]host[:port][/database][?sslmode=disable|require|verify-ca|verify-full]';

/** libpq's sslmode values, and node-postgres's own `no-verify` (TLS without any certificate check). */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/**
 * The URL's TLS parameters, which docbench reads itself: pg-connection-string 2.x reads
 * prefer/require/verify-ca as verify-full (and warns on stderr), where libpq, psql and every
 * managed service's documentation read require as "encrypted, no certificate check".
 */
const TLS_PARAMETERS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'ssl', 'uselibpqcompat'] as const;

export class PostgresUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`postgres: "${maskUrl(url)}" ${problem}`);
  }
}

export interface PostgresUrl {
  /** The URL for the driver: as given, less the TLS parameters (tls.ts makes the driver's TLS options). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The database in the path; node-postgres's default (the user's name) when there is none. */
  readonly database: string;
  readonly user: string | undefined;
  readonly hasPassword: boolean;
  /** `sslmode` as the URL gives it, if it does. */
  readonly sslmode: SslMode | undefined;
  /** The files `sslrootcert`, `sslcert` and `sslkey` name (`sslrootcert=system`: the system's CAs). */
  readonly sslrootcert: string | undefined;
  readonly sslcert: string | undefined;
  readonly sslkey: string | undefined;
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
  if (parsed.searchParams.has('ssl') || parsed.searchParams.has('uselibpqcompat'))
    throw new PostgresUrlError(
      url,
      `has ${parsed.searchParams.has('ssl') ? 'ssl' : 'uselibpqcompat'}=…; docbench reads TLS from sslmode as libpq does (sslmode=require: encrypted; verify-full: the certificate checked)`,
    );
  let user: string | undefined;
  let database: string;
  try {
    user = parsed.username === '' ? undefined : decodeURIComponent(parsed.username);
    const path = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
    database = path !== '' ? path : (user ?? process.env.PGUSER ?? process.env.USER ?? 'postgres');
  } catch {
    throw new PostgresUrlError(url, 'has a malformed %-escape');
  }
  const file = (name: string) => parsed.searchParams.get(name) ?? undefined;
  const driver = new URL(url);
  for (const name of TLS_PARAMETERS) driver.searchParams.delete(name);
  return {
    url: driver.href,
    host: parsed.hostname,
    port: parsed.port === '' ? 5432 : Number(parsed.port),
    database,
    user,
    hasPassword: parsed.password !== '',
    sslmode: sslmode as SslMode | undefined,
    sslrootcert: file('sslrootcert'),
    sslcert: file('sslcert'),
    sslkey: file('sslkey'),
    displayUrl: maskUrl(url),
  };
}
