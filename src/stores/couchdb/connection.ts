/**
 * Opening and closing the driver objects: nano on a keep-alive pool of a known size, and the
 * check that the run can work: the server answers, takes the URL's login, and lets that user
 * read the URL's database (with a reason a user can act on when it does not).
 */
import nano from 'nano';
import { Agent } from 'undici';
import { AccessDeniedError, UnreachableError } from '../store.ts';
import { speaksTls, untrustedCertificate } from '../tls-probe.ts';
import type { CouchdbConfig } from './settings.ts';
import { URL_SHAPE } from './url.ts';

/** HTTP status of a nano error (undefined for network errors, which carry none). */
export function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as { statusCode?: number }).statusCode : undefined;
}

/** CouchDB's reason for an error answer ("missing", "Database does not exist.", …). */
export function reasonOf(error: unknown): string {
  const reason = typeof error === 'object' && error !== null ? (error as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' ? reason : firstLine(error instanceof Error ? error.message : String(error));
}

/**
 * A 401 or 403 as an AccessDeniedError saying what to fix, else undefined. CouchDB answers 401
 * when the request has no login (or a wrong one) and 403 when the user lacks the right.
 */
export function accessDenied(
  error: unknown,
  config: CouchdbConfig,
  what: string,
  fix: string,
): AccessDeniedError | undefined {
  const status = statusOf(error);
  if (status !== 401 && status !== 403) return undefined;
  return new AccessDeniedError('couchdb', config.displayUrl, `${what} (${status} ${reasonOf(error)}); ${fix}`);
}

/** What `GET /_session` says about the login. */
interface Session {
  userCtx?: { name?: string | null; roles?: string[] };
}

export class CouchdbConnection {
  /** nano's server scope, every request on `agent`'s pool. */
  readonly server: nano.ServerScope;
  private readonly agent: Agent;
  private closing: Promise<void> | null = null;

  constructor(private readonly config: CouchdbConfig) {
    // nano 11 sends requests with Node's fetch; a dedicated undici Agent gives a keep-alive pool
    // of a known size, a connect timeout, and a deadline for a stalled server's answer
    // (couchdb.requesttimeout: headers, then each gap in the body) instead of the process-wide
    // default dispatcher.
    this.agent = new Agent({
      connections: config.maxSockets,
      connect: { timeout: config.connectTimeoutMs },
      headersTimeout: config.requestTimeoutMs,
      bodyTimeout: config.requestTimeoutMs,
    });
    this.server = nano({
      url: config.serverUrl,
      agentOptions: this.agent as unknown as nano.Configuration['agentOptions'],
    });
  }

  /**
   * Prove the run can work. `GET /` answers anyone, so the login is checked with `GET /_session`
   * (a wrong one is a 401 there); a request without a login is refused unless the server treats
   * anonymous requests as an admin ("admin party": its userCtx has the _admin role). When the URL
   * names a database, `GET /{db}` shows the user may read it (a missing one is fine here: a load
   * creates it, and a run checks it first).
   */
  async open(): Promise<void> {
    const session = await this.session();
    const user = session.userCtx?.name ?? null;
    if (user === null && session.userCtx?.roles?.includes('_admin') !== true) {
      throw new AccessDeniedError(
        'couchdb',
        this.config.displayUrl,
        `the URL has no login, and the server does not take requests without one as an admin (GET /_session: no user); give a CouchDB user as ${URL_SHAPE}`,
      );
    }
    if (this.config.database !== undefined) await this.checkDatabaseRights(this.config.database, user);
  }

  private async session(): Promise<Session> {
    // https:// to a plain-HTTP port: CouchDB waits for a request line the TLS handshake never
    // sends, until the connect timeout. Unanswered after a moment, the port is asked whether it
    // speaks plain HTTP, and the request is given up as soon as it does.
    const url = new URL(this.config.serverUrl);
    const mismatch = new AbortController();
    let plain: Promise<boolean> | undefined;
    const probe =
      url.protocol === 'https:'
        ? setTimeout(() => {
            plain = speaksPlainHttp(url.hostname, portOf(url)).then((yes) => {
              if (yes) mismatch.abort();
              return yes;
            });
          }, PLAIN_HTTP_PROBE_AFTER_MS)
        : undefined;
    try {
      return (await this.server.relax({
        path: '_session',
        signal: AbortSignal.any([AbortSignal.timeout(this.config.connectTimeoutMs), mismatch.signal]),
      } as nano.RequestOptions)) as Session;
    } catch (error) {
      if (plain !== undefined && (await plain))
        throw new UnreachableError('couchdb', this.config.displayUrl, plainHttpMismatch(url));
      if (statusOf(error) === 401) {
        throw new AccessDeniedError(
          'couchdb',
          this.config.displayUrl,
          `the server refused the user name or password in the URL (401 ${reasonOf(error)}); give a CouchDB user as ${URL_SHAPE}`,
        );
      }
      throw new UnreachableError('couchdb', this.config.displayUrl, await unreachableReason(error, this.config));
    } finally {
      clearTimeout(probe);
    }
  }

  private async checkDatabaseRights(database: string, user: string | null): Promise<void> {
    try {
      await this.server.db.get(database);
    } catch (error) {
      if (statusOf(error) === 404) return;
      const denied = accessDenied(
        error,
        this.config,
        `${user === null ? 'a request without a login' : `user "${user}"`} may not read the database "${database}"`,
        "make the user a member of the database (its _security object), or give an admin's login",
      );
      if (denied) throw denied;
      throw error;
    }
  }

  /** Safe to call twice. */
  async close(): Promise<void> {
    this.closing ??= this.agent.close();
    await this.closing;
  }
}

/** nano reports a network failure as "error happened in your connection. Reason: <fetch's cause>". */
const NANO_CONNECTION_ERROR = /^error happened in your connection\. Reason: (?:\w*Error: )?/;

/** Why `GET /_session` got no usable answer, in one line that says what to check. */
export async function unreachableReason(error: unknown, config: CouchdbConfig): Promise<string> {
  const status = statusOf(error);
  const message = firstLine(error instanceof Error ? error.message : String(error));
  if (status !== undefined)
    return `GET /_session answered HTTP ${status} (${message}); is this the URL of a CouchDB server?`;
  // OpenSSL's text holds its whole error stack; its reason ("wrong version number") is what helps.
  const cause = message.replace(NANO_CONNECTION_ERROR, '').replace(/^.*SSL routines:[^:]*:([^:]+):.*$/, 'TLS: $1');
  if (/ECONNREFUSED/.test(cause))
    return `connection refused (${cause}): nothing listens there; start CouchDB or correct the host and port`;
  if (/ENOTFOUND|EAI_AGAIN/.test(cause)) return `the host name does not resolve (${cause})`;
  if (/^bad port$/i.test(cause))
    return 'Node\'s fetch refuses to connect to this port (a "bad port" of the Fetch standard); CouchDB listens on 5984 unless configured otherwise';
  const certificate = untrustedCertificate(new Error(cause));
  if (certificate) return certificate;
  // https to a plain port (the server waits for a request line, or answers one in plain text),
  // or http to a TLS port (the server drops the connection): the port itself says which it speaks.
  const url = new URL(config.serverUrl);
  const { hostname, protocol } = url;
  const portNumber = portOf(url);
  if (protocol === 'https:' && (await speaksPlainHttp(hostname, portNumber))) return plainHttpMismatch(url);
  if (protocol === 'http:' && (await speaksTls(hostname, portNumber)))
    return `TLS mismatch: ${hostname}:${portNumber} speaks TLS (${cause}); use https:// for this port`;
  if (/timeout/i.test(cause))
    return `no answer within ${config.connectTimeoutMs} ms (couchdb.connecttimeout); check the host and port, and that no firewall drops the connection`;
  if (cause.startsWith('TLS: ')) return `the TLS handshake failed (${cause.slice(5)})`;
  return cause;
}

/** How long an https:// request waits for its answer before the port is asked whether it speaks plain HTTP. */
const PLAIN_HTTP_PROBE_AFTER_MS = 300;

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** The one line for https:// to a port that speaks plain HTTP. */
function plainHttpMismatch(url: URL): string {
  return `TLS mismatch: ${url.hostname}:${portOf(url)} speaks plain HTTP, not TLS (it answers a plain GET /); use http:// for this port`;
}

/** Any HTTP answer to a plain GET / (CouchDB's welcome, or an error page): the port speaks plain HTTP. */
async function speaksPlainHttp(host: string, port: number): Promise<boolean> {
  try {
    await fetch(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/`, {
      signal: AbortSignal.timeout(2000),
    });
    return true;
  } catch {
    return false;
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.trim();
}
