/**
 * Opening and closing the driver objects: nano on a keep-alive pool of a known size, and the
 * check that the server answers (with a reason a user can act on when it does not).
 */
import nano from 'nano';
import { Agent } from 'undici';
import { UnreachableError } from '../store.ts';
import type { CouchdbConfig } from './settings.ts';
import { URL_SHAPE } from './url.ts';

/** HTTP status of a nano error (undefined for network errors, which carry none). */
export function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as { statusCode?: number }).statusCode : undefined;
}

export class CouchdbConnection {
  /** nano's server scope, every request on `agent`'s pool. */
  readonly server: nano.ServerScope;
  private readonly agent: Agent;
  private closing: Promise<void> | null = null;

  constructor(private readonly config: CouchdbConfig) {
    // nano 11 sends requests with Node's fetch; a dedicated undici Agent gives a keep-alive pool
    // of a known size (and a connect timeout) instead of the process-wide default dispatcher.
    this.agent = new Agent({ connections: config.maxSockets, connect: { timeout: config.connectTimeoutMs } });
    this.server = nano({
      url: config.serverUrl,
      agentOptions: this.agent as unknown as nano.Configuration['agentOptions'],
    });
  }

  /** GET / answers without a login; with wrong credentials in the URL it is already a 401. */
  async open(): Promise<void> {
    try {
      await this.server.relax({ path: '', signal: AbortSignal.timeout(this.config.connectTimeoutMs) } as nano.RequestOptions);
    } catch (error) {
      throw new UnreachableError('couchdb', this.config.displayUrl, unreachableReason(error, this.config.connectTimeoutMs));
    }
  }

  /** Safe to call twice. */
  async close(): Promise<void> {
    this.closing ??= this.agent.close();
    await this.closing;
  }
}

/** Why GET / failed, in one line that says what to check. */
export function unreachableReason(error: unknown, timeoutMs: number): string {
  const status = statusOf(error);
  const message = firstLine(error instanceof Error ? error.message : String(error));
  if (status === 401) return `the server rejected the credentials in the URL (401: ${message}); give a CouchDB admin as ${URL_SHAPE}`;
  if (status !== undefined) return `GET / answered HTTP ${status} (${message}); is this the URL of a CouchDB server?`;
  // nano reports a network failure as "error happened in your connection. Reason: <fetch's cause>".
  const cause = message.replace(/^error happened in your connection\. Reason: (?:\w*Error: )?/, '');
  if (/timeout/i.test(cause)) return `no answer within ${timeoutMs} ms (couchdb.connecttimeout); check the host and port, and that no firewall drops the connection`;
  if (/ECONNREFUSED/.test(cause)) return `connection refused (${cause}): nothing listens there; start CouchDB or correct the host and port`;
  if (/ENOTFOUND|EAI_AGAIN/.test(cause)) return `the host name does not resolve (${cause})`;
  if (/^bad port$/i.test(cause)) return 'Node\'s fetch refuses to connect to this port (a "bad port" of the Fetch standard); CouchDB listens on 5984 unless configured otherwise';
  const tls = /SSL routines:[^:]*:([^:]+)/.exec(cause);
  if (tls) return `the TLS handshake failed (${tls[1]}); does the server speak https on this port? (http:// for plain HTTP)`;
  return cause;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]!.trim();
}
