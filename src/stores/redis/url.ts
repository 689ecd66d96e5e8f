/**
 * The Redis connection URL, as Redis's URI scheme defines it and both clients read it:
 * `redis://[user:password@]host[:port][/database]`, or `rediss://` for TLS; and, for a Redis
 * Cluster, several seed nodes in one URL: `redis://[user:password@]host[:port],host[:port]…`
 * (each host without a port gets 6379). Any one node of a cluster is enough (docbench asks it
 * whether cluster mode is on and reads the others from it); more seeds let a run start while
 * one of them is down. The login and TLS apply to every node (a cluster shares its ACLs).
 *
 * Checked here, once, so that a mistyped URL is a one-line user error naming it (password masked)
 * instead of a TypeError from inside a client, and so that both clients get the same answer:
 * left to themselves they disagree (ioredis reads `/abc` as database "abc" and fails later, or
 * takes any `?name=value` as a client option; node-redis rejects the first and ignores the second).
 */
import { UserError } from '../../common/user-error.ts';

/** A Redis URL that is not of the shape above. */
export class RedisUrlError extends UserError {}

export const REDIS_URL_SHAPE =
  'redis://[user:password@]host[:port][/database] (rediss:// for TLS; a cluster may list seed nodes: host:port,host:port)';

export interface RedisNode {
  /** Host name or address (IPv6 in brackets, as in the URL). */
  readonly host: string;
  readonly port: number;
}

export interface RedisUrl {
  /** The URL as given. */
  readonly text: string;
  /** The URL with its password replaced by `***`, for messages and results. */
  readonly masked: string;
  /** The first node's host and port. */
  readonly host: string;
  readonly port: number;
  /** Every node the URL names, in order (one, unless it lists a cluster's seed nodes). */
  readonly nodes: readonly RedisNode[];
  /** Logical database selected on connect (`/n`; 0 when absent). A cluster has only database 0. */
  readonly database: number;
  /** `rediss://`: the connection is made over TLS. */
  readonly tls: boolean;
  /** The login (decoded), when the URL has one: a cluster client gives it to every node it finds. */
  readonly username?: string;
  readonly password?: string;
}

const DEFAULT_PORT = 6379;

/** Parse and check a Redis URL; anything off the documented shape is a RedisUrlError. */
export function parseRedisUrl(text: string): RedisUrl {
  const masked = maskUrl(text);
  const fail = (problem: string): never => {
    throw new RedisUrlError(`redis URL ${masked}: ${problem}; expected ${REDIS_URL_SHAPE}`);
  };
  // A seed list is not a WHATWG URL (its host would be "a:1,b:2"): each node is checked as the
  // URL it stands for, with the first node's place taking the whole list.
  const authority = splitAuthority(text);
  const hosts = authority ? authority.hosts.split(',') : [''];
  const nodes: RedisNode[] = [];
  let url: URL | undefined;
  for (const host of hosts) {
    if (hosts.length > 1 && host.trim() === '') fail('an empty entry in its node list');
    let one: URL;
    try {
      one = new URL(authority ? `${authority.scheme}${authority.login}${host}${authority.rest}` : text);
    } catch {
      return fail(hosts.length > 1 ? `"${host}" is not host or host:port` : 'not a valid URL');
    }
    url ??= one;
    if (one.hostname === '' && (one.protocol === 'redis:' || one.protocol === 'rediss:')) fail('no host');
    nodes.push({ host: one.hostname, port: one.port === '' ? DEFAULT_PORT : Number(one.port) });
  }
  if (url === undefined) return fail('not a valid URL');
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    fail(`scheme "${url.protocol}" is not redis: or rediss:`);
  const database = url.pathname === '' || url.pathname === '/' ? '0' : url.pathname.slice(1);
  if (!/^\d+$/.test(database)) fail(`database "${database}" is not a whole number`);
  // Store settings are `-p redis.*` properties; a query string would reach ioredis as client options.
  if (url.search !== '') fail(`parameters "${url.search}" are not read (store settings go in -p redis.<name>=<value>)`);
  if (nodes.length > 1 && database !== '0')
    fail(`database ${database} with several nodes: a Redis Cluster has only database 0`);
  const login = {
    ...(url.username !== '' ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password !== '' ? { password: decodeURIComponent(url.password) } : {}),
  };
  return {
    text,
    masked,
    host: nodes[0]!.host,
    port: nodes[0]!.port,
    nodes,
    database: Number(database),
    tls: url.protocol === 'rediss:',
    ...login,
  };
}

/**
 * The URL of one node, with the URL's scheme, login and database: what a client for a single
 * server is given (neither client reads a seed list).
 */
export function nodeUrl(url: RedisUrl, node: RedisNode): string {
  const authority = splitAuthority(url.text);
  if (!authority) return url.text;
  return `${authority.scheme}${authority.login}${node.host}:${node.port}${authority.rest}`;
}

/**
 * `scheme://`, `login@`, the hosts and the rest (path, query), as a WHATWG URL splits them: the
 * authority ends at the first `/`, `?` or `#`, and its login runs to its last `@`.
 */
function splitAuthority(text: string): { scheme: string; login: string; hosts: string; rest: string } | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0];
  if (scheme === undefined) return undefined;
  const after = text.slice(scheme.length);
  const end = after.search(/[/?#]/);
  const authority = end < 0 ? after : after.slice(0, end);
  const at = authority.lastIndexOf('@');
  return {
    scheme,
    login: authority.slice(0, at + 1),
    hosts: authority.slice(at + 1),
    rest: end < 0 ? '' : after.slice(end),
  };
}

/** `host:port` of a node, as messages and results name it. */
export const nodeAddress = (node: RedisNode): string => `${node.host}:${node.port}`;

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
