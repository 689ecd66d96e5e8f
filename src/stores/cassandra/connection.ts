/**
 * Opening and closing the driver's client. A refused login becomes an AccessDeniedError; any
 * other failed connect an UnreachableError whose reason says, per contact point, what went wrong
 * in words a user can act on (the driver's own message is several lines with a stack trace in
 * the middle).
 */
import cassandra from 'cassandra-driver';
import { AccessDeniedError, UnreachableError } from '../store.ts';
import type { CassandraConfig } from './settings.ts';

const CONNECT_TIMEOUT_MS = 5000;
/** Past this many operations in flight a second connection per host pays off (the driver allows 2048 requests per connection). */
const ONE_CONNECTION_UP_TO = 16;

/** The client for a configuration; it opens no connection until `connect`. */
export function createClient(config: CassandraConfig): cassandra.Client {
  return new cassandra.Client(clientOptions(config));
}

export function clientOptions(config: CassandraConfig): cassandra.ClientOptions {
  return {
    contactPoints: config.contactPoints,
    localDataCenter: config.datacenter,
    protocolOptions: { port: peerPort(config.contactPoints) },
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // readTimeout also bounds the connection's start-up exchange, so an address that never answers fails after this long.
    socketOptions: { connectTimeout: CONNECT_TIMEOUT_MS, readTimeout: config.readTimeoutMs },
    pooling: {
      coreConnectionsPerHost: { [cassandra.types.distance.local]: config.concurrency > ONE_CONNECTION_UP_TO ? 2 : 1 },
    },
    queryOptions: { prepare: true },
    // The server's certificate is checked (Node's CAs plus NODE_EXTRA_CA_CERTS); the host checked is the contact point's address.
    ...(config.tls ? { sslOptions: { rejectUnauthorized: true } } : {}),
  };
}

/**
 * The port the driver uses for the nodes it discovers: cassandra-driver 4 reads peers from
 * `system.peers`, which has no port, and would use 9042 for every other node of a ring on
 * another port. A ring's nodes share one CQL port, so the contact points' (the first one's when
 * they differ) is the one.
 */
export function peerPort(contactPoints: readonly string[]): number {
  const port = Number(/:(\d+)$/.exec(contactPoints[0] ?? '')?.[1]);
  return Number.isInteger(port) && port > 0 ? port : 9042;
}

/**
 * Connect, or throw (the client is shut down first): AccessDeniedError when every contact point
 * refused the login, else UnreachableError saying, per contact point, what went wrong.
 */
export async function connectClient(client: cassandra.Client, config: CassandraConfig): Promise<void> {
  try {
    await client.connect();
  } catch (error) {
    await client.shutdown().catch(() => {});
    closeLeakedControlConnection(client);
    const refused = refusedLogin(error, config);
    if (refused) throw new AccessDeniedError('cassandra', config.displayUrl, refused);
    throw new UnreachableError('cassandra', config.displayUrl, unreachableReason(error, config));
  }
}

/** The login refused by every host that answered: what to fix in the URL; else undefined. */
function refusedLogin(error: unknown, config: CassandraConfig): string | undefined {
  const causes =
    error instanceof cassandra.errors.NoHostAvailableError
      ? Object.values((error.innerErrors ?? {}) as Record<string, unknown>)
      : [error];
  const refusal = causes.find((cause) => cause instanceof cassandra.errors.AuthenticationError);
  if (refusal === undefined || !causes.every((cause) => cause instanceof cassandra.errors.AuthenticationError))
    return undefined;
  return loginReason(refusal, config);
}

/** A Cassandra answer of "no right" (a role without the permission) as an AccessDeniedError; else undefined. */
export function accessDenied(error: unknown, config: CassandraConfig, what: string): AccessDeniedError | undefined {
  if (
    !(error instanceof cassandra.errors.ResponseError) ||
    error.code !== cassandra.types.responseErrorCodes.unauthorized
  )
    return undefined;
  const user = config.credentials ? `user "${config.credentials.username}"` : 'the login';
  return new AccessDeniedError(
    'cassandra',
    config.displayUrl,
    `${user} may not ${what} (${firstLine(error)}); GRANT it the permission, or use another role`,
  );
}

function loginReason(cause: unknown, config: CassandraConfig): string {
  return config.credentials
    ? `the server refused user "${config.credentials.username}" (${firstLine(cause)}); check the URL's user and password`
    : `the server requires a login (${firstLine(cause)}); put USER:PASSWORD@ in the URL`;
}

/**
 * Driver workaround (cassandra-driver 4.10): when a node answers but the control connection's
 * next step fails (an unknown `localDataCenter`, for one), the driver neither closes that
 * connection nor hands it to a pool, and `shutdown()` does not see it. Its open socket would keep
 * the process alive and each retry (the service's) would leak another, so it is closed here.
 */
function closeLeakedControlConnection(client: cassandra.Client): void {
  const internal = client as unknown as { controlConnection?: { connection?: { close?: () => void } | null } };
  internal.controlConnection?.connection?.close?.();
}

/** Close every connection; safe to call twice. */
export async function closeClient(client: cassandra.Client): Promise<void> {
  await client.shutdown();
}

/** One line on why no contact point could be used. */
export function unreachableReason(error: unknown, config: CassandraConfig): string {
  if (error instanceof cassandra.errors.NoHostAvailableError) {
    const perHost = Object.entries((error.innerErrors ?? {}) as Record<string, unknown>);
    if (perHost.length === 0)
      return `none of ${config.contactPoints.join(', ')} resolves to an address (check the host names)`;
    return perHost.map(([host, cause]) => `${host}: ${hostReason(cause, config)}`).join('; ');
  }
  return hostReason(error, config);
}

function hostReason(cause: unknown, config: CassandraConfig): string {
  const { errors } = cassandra;
  const message = firstLine(cause);
  if (cause instanceof errors.ArgumentError && /localDataCenter/.test(message)) {
    const known = /data centers: \[(.*)\]/.exec(message)?.[1];
    return `the URL's datacenter "${config.datacenter}" is not one of this cluster's${known ? ` (${known})` : ''}; set ?datacenter= to the data center docbench runs next to`;
  }
  if (cause instanceof errors.AuthenticationError) return loginReason(cause, config);
  if (cause instanceof errors.OperationTimedOutError)
    return `no CQL answer within ${config.readTimeoutMs} ms (cassandra.readtimeout; a firewall, or a port that is not Cassandra's native transport?)`;
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED')
    return 'connection refused (is Cassandra running, with its native transport on this port?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'no route to the host';
  return message;
}

function firstLine(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  return text.split('\n')[0]!.trim();
}
