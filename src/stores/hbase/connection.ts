/**
 * docbench's client of the HBase REST gateway: node:http(s) on a keep-alive agent of a known
 * size, one request per call, the body read whole. HBase has no official Node.js driver; why
 * this client rather than npm `hbase` or Thrift2 is in the README (Stores).
 *
 * Errors: a socket that cannot connect or breaks keeps Node's own error (ECONNREFUSED,
 * ECONNRESET: SERVICE_UNAVAILABLE to the runner); a request past `hbase.timeout` is a
 * TimeoutError; an HTTP error status becomes HbaseRestError carrying the status (503, the
 * gateway's answer when HBase is out of reach, is SERVICE_UNAVAILABLE) and the first line of the
 * gateway's text, never its Java stack trace.
 */
import http from 'node:http';
import https from 'node:https';
import { AccessDeniedError, UnreachableError } from '../store.ts';
import type { HbaseConfig } from './settings.ts';
import { URL_SHAPE } from './url.ts';

export interface RestReply {
  status: number;
  body: Buffer;
}

export interface RestRequest {
  body?: Buffer | string;
  contentType?: string;
  accept?: string;
  /** Overrides the configured timeout (admin calls such as a table's creation take longer). */
  timeoutMs?: number;
}

/** The gateway answered with an HTTP error status. */
export class HbaseRestError extends Error {
  constructor(
    readonly status: number,
    what: string,
    gatewayText: string,
  ) {
    super(`hbase: ${what} answered HTTP ${status}${gatewayText ? `: ${gatewayText}` : ''}`);
    this.name = 'HbaseRestError';
  }
}

/** A request the gateway did not answer within the timeout. */
class RequestTimeoutError extends Error {
  constructor(what: string, ms: number, setting = 'hbase.timeout') {
    super(`hbase: ${what} had no answer within ${ms} ms (${setting})`);
    this.name = 'TimeoutError';
  }
}

/** The first meaningful line of the gateway's error text (its bodies carry a Java stack trace). */
export function gatewayText(body: Buffer): string {
  const lines = body
    .toString('utf8', 0, Math.min(body.length, 4096))
    .split('\n')
    .map((l) => l.trim());
  const useful = lines.filter(
    (l) => l !== '' && !l.startsWith('at ') && !/^(Not found|Bad request|Unavailable|Forbidden)$/i.test(l),
  );
  return (useful[0] ?? lines.find((l) => l !== '') ?? '')
    .replace(/^(\w+\.)+(\w+Exception): (\w+\.)+\w+Exception: /, '$2: ')
    .slice(0, 300);
}

export class RestClient {
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly host: string;
  private readonly port: number;
  private readonly baseHeaders: Record<string, string>;
  /** The headers of a request without a body, one object per Accept value: made once, not per request. */
  private readonly bodilessHeaders = new Map<string, Record<string, string>>();

  constructor(private readonly config: HbaseConfig) {
    const base = new URL(config.baseUrl);
    this.transport = config.tls ? https : http;
    this.host = base.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(base.port);
    // The agent's timeout is set on each socket once; a per-request timer would cost every request.
    this.agent = new this.transport.Agent({
      keepAlive: true,
      maxSockets: config.maxSockets,
      maxFreeSockets: config.maxSockets,
      timeout: config.timeoutMs,
    });
    this.baseHeaders = config.authorization ? { authorization: config.authorization } : {};
  }

  private headers(options: RestRequest): Record<string, string | number> {
    const accept = options.accept ?? '';
    if (options.body === undefined) {
      let headers = this.bodilessHeaders.get(accept);
      if (headers === undefined)
        this.bodilessHeaders.set(
          accept,
          (headers = accept ? { ...this.baseHeaders, accept } : { ...this.baseHeaders }),
        );
      return headers;
    }
    const headers: Record<string, string | number> = {
      ...this.baseHeaders,
      'content-type': options.contentType ?? 'application/json',
      'content-length': Buffer.byteLength(options.body),
    };
    if (accept) headers.accept = accept;
    return headers;
  }

  /** One request; the reply whatever its status (callers decide what a 404 means). */
  request(method: string, path: string, options: RestRequest = {}): Promise<RestReply> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs;
    return new Promise((resolve, reject) => {
      const req = this.transport.request(
        // A call with a timeout of its own (a table's creation) gets a connection of its own, so
        // that timeout never stays on a pooled socket that data requests reuse.
        {
          host: this.host,
          port: this.port,
          method,
          path,
          headers: this.headers(options),
          ...(options.timeoutMs === undefined ? { agent: this.agent } : { agent: false, timeout: timeoutMs }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(
          new RequestTimeoutError(
            `${method} ${path}`,
            timeoutMs,
            options.timeoutMs === undefined ? 'hbase.timeout' : 'its own timeout',
          ),
        ),
      );
      req.on('error', reject);
      req.end(options.body);
    });
  }

  /** A request whose status must be one of `ok`; any other is an HbaseRestError. */
  async expect(method: string, path: string, ok: readonly number[], options: RestRequest = {}): Promise<RestReply> {
    const reply = await this.request(method, path, options);
    if (!ok.includes(reply.status))
      throw new HbaseRestError(reply.status, `${method} ${path}`, gatewayText(reply.body));
    return reply;
  }

  /**
   * The gateway answers and reaches HBase (the cluster's version comes from the master), and the
   * namespace the tables go in is readable with these credentials.
   */
  async open(): Promise<void> {
    let reply: RestReply;
    try {
      reply = await this.request('GET', '/version/cluster', {
        accept: 'text/plain',
        timeoutMs: this.config.connectTimeoutMs,
      });
    } catch (error) {
      throw new UnreachableError(
        'hbase',
        this.config.displayUrl,
        unreachableReason(error, this.config.connectTimeoutMs),
      );
    }
    if (reply.status === 401 || reply.status === 403) {
      throw new AccessDeniedError(
        'hbase',
        this.config.displayUrl,
        `HTTP ${reply.status} for GET /version/cluster; give a user the gateway (or its proxy) accepts as ${URL_SHAPE}`,
      );
    }
    if (reply.status !== 200) {
      throw new UnreachableError(
        'hbase',
        this.config.displayUrl,
        `GET /version/cluster answered HTTP ${reply.status} (${gatewayText(reply.body)}); is this an HBase REST gateway, and does it reach HBase?`,
      );
    }
    const ns = await this.request('GET', `/namespaces/${encodeURIComponent(this.config.namespace)}`, {
      accept: 'application/json',
    });
    if (ns.status === 401 || ns.status === 403)
      throw new AccessDeniedError(
        'hbase',
        this.config.displayUrl,
        `HTTP ${ns.status} reading the namespace "${this.config.namespace}"`,
      );
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Why the first request failed, in one line that says what to check. */
export function unreachableReason(error: unknown, timeoutMs: number): string {
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RequestTimeoutError)
    return `no answer within ${timeoutMs} ms (hbase.connecttimeout); check the host and port, and that the REST gateway runs`;
  if (code === 'ECONNREFUSED')
    return `connection refused (${message}): nothing listens there; start the HBase REST gateway (hbase rest start) or correct the host and port`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host name does not resolve (${message})`;
  if (code === 'EPROTO' || /SSL|TLS|certificate/i.test(message))
    return `the TLS handshake failed (${message}); hbase+rests:// speaks HTTPS, hbase+rest:// plain HTTP`;
  return message;
}
