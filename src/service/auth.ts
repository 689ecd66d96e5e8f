/**
 * A bearer token for a service that others can reach (k6 cloud's load generators, a Kubernetes
 * cluster): every request must carry `Authorization: Bearer <token>`, or it is refused with 401
 * before any route runs. The API writes and deletes data, and `/_docbench/info` and `/stats`
 * describe hosts, versions and processes, so all of it is behind the token; only
 * `/_docbench/health` stays open, since a load balancer's health check carries no token and the
 * answer says no more than "up" or "down".
 *
 * One shared secret, not users: the service is a benchmark target, and the token's only job is
 * that nobody but the person running the benchmark can use it. TLS is a proxy's job (the token
 * crosses the network in clear text without one).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { UserError } from '../common/user-error.ts';

/** The environment variable `docbench serve`, `docbench k6` and the k6 scripts take the token from. */
export const TOKEN_ENV = 'DOCBENCH_TOKEN';

/** Routes answered without the token. */
const OPEN_ROUTES = new Set(['/_docbench/health']);

/** Shortest token accepted: 128 bits as hex; a short secret over the internet is a guessable one. */
const MIN_TOKEN_LENGTH = 32;

/** What a header value can carry: visible ASCII, no spaces. */
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/** Check a token given on the command line or in the environment; `source` names where it came from. */
export function checkToken(token: string, source: string): string {
  if (token.length < MIN_TOKEN_LENGTH || !TOKEN_PATTERN.test(token)) {
    throw new UserError(
      `${source}: the token must be at least ${MIN_TOKEN_LENGTH} visible ASCII characters without spaces (e.g. the output of openssl rand -hex 16)`,
    );
  }
  return token;
}

/**
 * Refuse every request without the token (401 with `WWW-Authenticate: Bearer`). The comparison
 * takes the same time whatever the given token holds; only a wrong length is told apart early,
 * and the length says nothing an attacker can use (it is documented, and the token random).
 * Hashing both sides would hide it too, at a hash object per request, which cost the service
 * more than the rest of a request's authentication.
 */
export function requireToken(app: FastifyInstance, token: string): void {
  const expected = Buffer.from(token);
  // The callback form: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (OPEN_ROUTES.has(request.routeOptions.url ?? '')) return done();
    const header = request.headers.authorization;
    const given = header !== undefined && header.startsWith('Bearer ') ? header.slice(7).trim() : null;
    if (given !== null && given.length === expected.length && timingSafeEqual(Buffer.from(given), expected))
      return done();
    // Answered here: the route never runs (a hook that sends does not call done).
    reply
      .code(401)
      .header('www-authenticate', `Bearer realm="docbench"${given === null ? '' : ', error="invalid_token"'}`)
      .send({
        error: 'unauthorized',
        message:
          given === null
            ? `send the service's token as Authorization: Bearer <token> (k6 scripts: -e ${TOKEN_ENV}=…)`
            : "the token is not this service's",
      });
  });
}
