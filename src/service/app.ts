/**
 * The HTTP service: a Fastify app with the API routes, docbench's own routes under /_docbench/,
 * and one error handler that gives every failure the same JSON shape:
 *
 *   400 {error, parameter, in, message}   a parameter failed validation (or the body is not JSON)
 *   401 {error, message}                  no token, or the wrong one (when started with one: auth.ts)
 *   404 {error, key}                      no such record (or {error, message}: no such route)
 *   409 {error, message}                  a write conflict: the key exists, or another writer won
 *   413 {error, parameter: "body", …}     body over the limit
 *   501 {error, message}                  the store cannot do this operation
 *   503 {error, retryAfterSeconds, …}     the store is unreachable; Retry-After header set
 *   500 {error, message}                  the store failed the call
 *
 * Stateless: nothing lives in the process but the store connection and counters, so several
 * instances (or `--workers`) can sit behind one load balancer.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Machine, StoreInfo } from '../results/schema.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { UnsupportedError } from '../stores/store.ts';
import { requireToken } from './auth.ts';
import { ConflictError } from './conflicts.ts';
import type { RequestCounter, ServiceStats } from './stats.ts';
import { StoreUnavailableError, type StoreGate } from './store-gate.ts';
import type { ServedName } from './scenarios.ts';
import { ValidationError, type TableLayout } from './validation.ts';
import { registerYcsbRoutes } from './ycsb-routes.ts';

/** Routes of docbench itself (health, description, cost); not counted as API requests. */
export const INTERNAL_PREFIX = '/_docbench/';

export interface ServiceInfo {
  store: StoreInfo | null;
  /** The scenarios whose routes this service has. */
  scenarios: ServedName[];
  /** What each served scenario says about itself (the persons scenario: the seeded datasets it was told about). */
  scenarioInfo: Record<string, unknown>;
  layout: TableLayout;
  /**
   * The workload the service was started with, resolved by docbench's own parser: k6 scripts
   * take their operation mix and distributions from here, so both sides agree on the table layout.
   */
  workload: { name: string; properties: WorkloadProperties };
  /** `pool`: the store connections each service process may open (`--pool`). */
  service: { framework: string; node: string; workers: number; pool: number; pid: number };
  /** The machine the service runs on (in a local run, the machine k6 runs on as well). */
  machine: Machine;
}

export interface AppOptions {
  gate: StoreGate;
  /** The YCSB table's layout; null: no YCSB routes. */
  layout: TableLayout | null;
  bodyLimitBytes: number;
  counter: RequestCounter;
  /** The whole service's counters (all workers). */
  stats: () => Promise<ServiceStats>;
  info: () => Promise<ServiceInfo>;
  log: (line: string) => void;
  /** Registers more routes (a scenario's) on the same app and error handling. */
  extraRoutes?: (app: FastifyInstance) => void;
  /** True once shutdown began: answers then close their connection instead of keeping it alive. */
  closing?: () => boolean;
  /** Every request but health must carry this bearer token (null or absent: no token). */
  token?: string | null;
  /** Connection timeouts (absent: Fastify's defaults, as in tests on inject()). */
  timeouts?: ServiceTimeouts;
}

/**
 * How long the service waits, in ms. A service on the network must not keep a socket for a
 * client that sends nothing (or one byte a minute), nor one whose answer never comes.
 */
export interface ServiceTimeouts {
  /** The whole request (head and body) must arrive within this (Node's requestTimeout). */
  requestMs: number;
  /** The request head must arrive within this (Node's headersTimeout; at most requestMs). */
  headersMs: number;
  /**
   * A socket with no traffic either way for this long is closed (Fastify's connectionTimeout),
   * including one waiting for a slow answer: the longest a request may take.
   */
  idleMs: number;
}

/**
 * URLs longer than this cannot arrive at all (Node refuses request heads over 16 KiB), so any
 * path parameter that does reach routing is matched and then validated, and an over-long key
 * gets a 400 naming `key` instead of a puzzling 404.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    ...(options.timeouts
      ? { requestTimeout: options.timeouts.requestMs, connectionTimeout: options.timeouts.idleMs }
      : {}),
    bodyLimit: options.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // `{"__proto__": …}` and `{"constructor": {"prototype": …}}` are refused, not stripped.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // While closing, requests on kept-alive connections get 503 and the connection is closed.
    return503OnClosing: true,
    // A path that is not valid percent-encoding never reaches routing: same JSON shape as any 400.
    frameworkErrors: (error, _request, reply) => {
      // (The reply's generic route types do not fit a handler that serves every route.)
      const send = reply as unknown as FastifyReply;
      if (error.code !== 'FST_ERR_BAD_URL') return send.send(error);
      return send.code(400).send({
        error: 'invalid parameter',
        parameter: 'path',
        in: 'path',
        message: `the path is not a valid URL: ${oneLine(error.message)}`,
      });
    },
  });

  if (options.timeouts) app.server.headersTimeout = options.timeouts.headersMs;
  if (options.token) requireToken(app, options.token);

  // Hooks run on every request, so they take Fastify's callback form: an async hook costs a
  // promise and a microtask hop per request each.
  app.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith(INTERNAL_PREFIX))
      options.counter.record(url === undefined ? '(no route)' : `${request.method} ${url}`, reply.statusCode);
    done();
  });

  // During shutdown a kept-alive connection would hold the server open until the client drops
  // it: each answer finished after the signal closes its connection.
  const closing = options.closing;
  if (closing) {
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing()) reply.header('connection', 'close');
      done(null, payload);
    });
  }

  const errorSamples = new Set<string>();
  app.setErrorHandler((error: FastifyError | Error, _request, reply) => {
    if (error instanceof ValidationError) {
      return reply
        .code(400)
        .send({ error: 'invalid parameter', parameter: error.parameter, in: error.location, message: error.message });
    }
    if (error instanceof StoreUnavailableError) {
      return reply
        .code(503)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({
          error: 'store unavailable',
          retryAfterSeconds: error.retryAfterSeconds,
          message: oneLine(error.message),
        });
    }
    if (error instanceof UnsupportedError)
      return reply.code(501).send({ error: 'unsupported', message: error.message });
    if (error instanceof ConflictError)
      return reply.code(409).send({ error: 'conflict', message: oneLine(error.message) });
    const status = (error as FastifyError).statusCode;
    // Only Fastify's own errors (code FST_…) are about the request; drivers' errors may carry a
    // statusCode too (nano: 401, 404 from CouchDB; its 409 is a conflict, answered above) and are
    // store errors.
    const fastifyOwn =
      typeof (error as FastifyError).code === 'string' && (error as FastifyError).code.startsWith('FST_');
    if (fastifyOwn && status !== undefined && status >= 400 && status < 500) {
      // Fastify's own refusals happen before a handler runs: unparsable or oversized body,
      // wrong content type, poisoned prototype keys. All are about the body.
      return reply
        .code(status)
        .send({ error: 'invalid request', parameter: 'body', in: 'body', message: oneLine(error.message) });
    }
    // A store error: the first few distinct messages go to stderr so a failing run explains itself.
    const message = oneLine(error.message);
    if (errorSamples.size < 10 && !errorSamples.has(message)) {
      errorSamples.add(message);
      options.log(`store error: ${message}`);
    }
    return reply.code(500).send({ error: 'store error', message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({
      error: 'no such route',
      message: `${request.method} ${request.url.split('?')[0]} is not a route of this service`,
    });
  });

  if (options.layout !== null)
    registerYcsbRoutes(app, { gate: options.gate, layout: options.layout, maxValueLength: options.bodyLimitBytes });
  options.extraRoutes?.(app);

  app.get(`${INTERNAL_PREFIX}health`, async (_request, reply) => {
    if (options.gate.up) return { store: 'up' };
    return reply
      .code(503)
      .header('retry-after', String(options.gate.retryAfterSeconds()))
      .send({ store: 'down', retryAfterSeconds: options.gate.retryAfterSeconds() });
  });
  app.get(`${INTERNAL_PREFIX}info`, async () => options.info());
  app.get(`${INTERNAL_PREFIX}stats`, async () => options.stats());
  return app;
}

/**
 * The first line of a message, at most 300 characters: drivers put stack traces and whole
 * inner-error dumps into messages, and an HTTP answer is no place for them.
 */
export function oneLine(message: string): string {
  const first = message.split('\n', 1)[0]!.trim();
  return first.length > 300 ? `${first.slice(0, 300)}…` : first;
}
