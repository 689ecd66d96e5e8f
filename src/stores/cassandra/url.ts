/**
 * The Cassandra connection URL:
 *
 *   cassandra://[user:password@]host1[:port][,host2[:port]…][/keyspace][?datacenter=<local dc>][&tls=true]
 *
 * Hosts are the driver's contact points (names, IPv4, or `[IPv6]`). A host without a port gets
 * the port written on the last host, as a URL parser reads `h1,h2:9043`, else CQL's 9042.
 * `datacenter` is the driver's local data center (default `datacenter1`, a fresh node's).
 * `tls=true` speaks CQL over TLS (the server's client_encryption_options); the server's
 * certificate is checked against the system's CAs, plus a private CA given as for any Node
 * program (NODE_EXTRA_CA_CERTS=/path/to/ca.pem).
 * Parsed here by hand: `new URL` keeps only one host of a list and cannot say which part is wrong.
 */
import { UserError } from '../../common/user-error.ts';

export const URL_SHAPE = 'cassandra://[USER:PASSWORD@]host[:port][,host[:port]…][/keyspace][?datacenter=DC][&tls=true]';

export const DEFAULT_PORT = 9042;
export const DEFAULT_DATACENTER = 'datacenter1';

/** A CQL keyspace name: letters, digits and `_`, at most 48, not starting with `_` (Cassandra's rule). */
export const KEYSPACE_NAME = /^[A-Za-z0-9][A-Za-z0-9_]{0,47}$/;

export interface CassandraUrl {
  /** `host:port` or `[v6]:port`, as the driver takes them. */
  contactPoints: string[];
  keyspace?: string;
  datacenter: string;
  /** CQL over TLS (`tls=true`). */
  tls: boolean;
  username?: string;
  password?: string;
}

/** A Cassandra URL that cannot be used; the message shows it with its password masked. */
export class CassandraUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`cassandra: the URL "${maskPassword(url)}" ${problem}; expected ${URL_SHAPE}`);
  }
}

// The user information runs to the last `@`, so an unescaped `@` or `/` in a password still parses.
const URL_PATTERN = /^cassandra:\/\/(?:([^?#]*)@)?([^/?#@]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/i;
const HOST_PATTERN = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(.*))?$/;
const QUERY_PARAMETERS = ['datacenter', 'tls'];

export function parseCassandraUrl(url: string): CassandraUrl {
  const match = URL_PATTERN.exec(url.trim());
  if (!match) throw new CassandraUrlError(url, 'is not a cassandra:// URL');
  const [, userinfo, authority, path, query] = match;
  const bad = (problem: string) => new CassandraUrlError(url, problem);
  const decode = (part: string, what: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw bad(`has a malformed %-escape in its ${what}`);
    }
  };

  const contactPoints = parseHosts(authority!, bad);
  const keyspace = decode((path ?? '').replace(/\/$/, ''), 'keyspace');
  if (keyspace !== '' && !KEYSPACE_NAME.test(keyspace))
    throw bad(`names the keyspace "${keyspace}", which is not a CQL keyspace name (letters, digits and _, at most 48)`);

  let datacenter = DEFAULT_DATACENTER;
  let tls = false;
  for (const [name, value] of new URLSearchParams(query ?? '')) {
    if (!QUERY_PARAMETERS.includes(name))
      throw bad(`has the parameter "${name}", which docbench does not know (it takes ${QUERY_PARAMETERS.join(', ')})`);
    if (value.trim() === '') throw bad(`has an empty ${name}`);
    if (name === 'tls') {
      if (!/^(true|false)$/.test(value.trim())) throw bad(`has tls=${value}; tls is true or false`);
      tls = value.trim() === 'true';
    } else datacenter = value.trim();
  }

  const out: CassandraUrl = { contactPoints, datacenter, tls, ...(keyspace ? { keyspace } : {}) };
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    const username = decode(colon < 0 ? userinfo : userinfo.slice(0, colon), 'user name');
    if (username === '') throw bad('has a password but no user name');
    out.username = username;
    out.password = colon < 0 ? '' : decode(userinfo.slice(colon + 1), 'password');
  }
  return out;
}

function parseHosts(authority: string, bad: (problem: string) => Error): string[] {
  if (authority === '') throw bad('has no host');
  const hosts = authority.split(',').map((entry) => {
    const m = HOST_PATTERN.exec(entry.trim());
    if (!m)
      throw bad(
        entry.trim() === ''
          ? 'has an empty entry in its host list'
          : `has "${entry}", which is not host or host:port (an IPv6 address goes in [ ])`,
      );
    const port = m[2];
    if (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535))
      throw bad(`has the port "${port}"; a port is a number from 1 to 65535`);
    return { host: m[1]!, port };
  });
  const fallbackPort = hosts.at(-1)!.port ?? String(DEFAULT_PORT);
  return hosts.map(({ host, port }) => `${host}:${port ?? fallbackPort}`);
}

/**
 * The URL with any password replaced by `***`, for messages and results. Written for URLs that
 * did not parse too, so it errs on the side of hiding: everything from the first `:` after the
 * scheme to the last `@` (a Cassandra URL has no other place for an `@`).
 */
export function maskPassword(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/*/i.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  const colon = rest.indexOf(':');
  if (at < 0 || colon < 0 || colon > at) return url;
  return `${scheme}${rest.slice(0, colon)}:***${rest.slice(at)}`;
}
