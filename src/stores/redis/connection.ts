/**
 * Opening and closing the client. The store runs on either official Node client: ioredis (the
 * default; Redis now documents it as deprecated in favour of node-redis) or node-redis
 * (`@redis/client`, Redis's recommended client), chosen with `redis.driver`, each against a
 * single server or a Redis Cluster (found on connect: connection-detect.ts). Each client sits
 * behind the small interface below, in its own file next to this one (connection-ioredis.ts,
 * connection-node-redis.ts, and their -cluster.ts twins): the rest of the store (YCSB operations,
 * handle, stats) never knows which client runs, and asks `isCluster` only where a cluster cannot
 * do what one server does (a MULTI across slots). Commands go as raw argument lists, so both
 * clients do exactly the same work.
 */
import { UserError } from '../../common/user-error.ts';
import { AccessDeniedError, UnreachableError } from '../store.ts';
import { plainAnswer, speaksTls, untrustedCertificate } from '../tls-probe.ts';
import { DetectingConnection } from './connection-detect.ts';
import type { RedisConfig } from './settings.ts';

export interface RedisConnection {
  /** Client package and version, e.g. "@redis/client 5.12.1". */
  readonly driver: string;
  /** Connect, select the URL's database and check the server answers (PING); rejects with the client's own error. */
  connect(): Promise<void>;
  /** One command; resolves with its raw RESP2 reply. A cluster client sends it to the node serving its key. */
  call(args: readonly string[]): Promise<unknown>;
  /**
   * Several commands, not atomic; rejects with the first command error. One round trip on a
   * single server; on a cluster each command goes to the node serving its key (their slots may
   * differ), all at once.
   */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  /** Several commands as MULTI/EXEC (atomic); on a cluster their keys must share one slot. */
  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  /**
   * Several commands in order on one connection to the node serving the first key, in one round
   * trip (not atomic): a keyless command among them (WAIT) runs on that node, after the others.
   */
  onOneNode(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  /**
   * This connection, or one of a set: calls on what it returns share one connection (one node's,
   * on a cluster), so a WAIT after a transaction waits for that transaction's writes.
   */
  one(): RedisConnection;
  /** Each master's keyless commands (SCAN, INFO, DBSIZE): every master of a cluster, or the one server. */
  masters(): Promise<RedisNodeCaller[]>;
  /** True once connected to a Redis Cluster (through the cluster client). */
  readonly isCluster: boolean;
  /** Safe to call twice, and after a failed connect. */
  close(): Promise<void>;
}

/** One server of the deployment, for the commands that are about a node, not a key. */
export interface RedisNodeCaller {
  /** `host:port`. */
  readonly address: string;
  call(args: readonly string[]): Promise<unknown>;
}

export interface RedisConnectionOptions {
  /** A single server's URL (login, database, TLS by its scheme). */
  url: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  /** Let the client coalesce concurrent commands into one socket write. */
  autoPipelining: boolean;
}

/** The configured client, not yet connected: whether it is a cluster's is found on connect (connection-detect.ts). */
export function createConnection(config: RedisConfig): RedisConnection {
  return new DetectingConnection(config);
}

/**
 * Connect; any failure closes the client and is an AccessDeniedError (the login refused) or an
 * UnreachableError saying what to check.
 */
export async function openConnection(connection: RedisConnection, config: RedisConfig): Promise<void> {
  try {
    await connection.connect();
  } catch (error) {
    await connection.close().catch(() => {});
    if (error instanceof UserError) throw error;
    const refused = refusedLogin(error);
    if (refused) throw new AccessDeniedError('redis', config.url.masked, refused);
    throw new UnreachableError('redis', config.url.masked, await unreachableReason(error, config));
  }
}

/** The error reply of a refused login (Redis's error codes), in words that say what to fix in the URL. */
function refusedLogin(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const [code] = message.split(' ', 1);
  if (code === 'NOAUTH')
    return `the server requires a password (${message}); give it in the URL: redis://[USER]:PASSWORD@host:port`;
  if (code === 'WRONGPASS') return `the server refused the user name or password in the URL (${message}); check them`;
  if (code === 'NOPERM')
    return `the URL's user lacks a right the run needs (${message}); grant it in the server's ACL or use another user`;
  if (
    /^ERR AUTH <password> called without any password configured|^ERR Client sent AUTH, but no password is set/.test(
      message,
    )
  ) {
    return `the server has no password, but the URL gives one (${message}); remove it from the URL`;
  }
  return undefined;
}

/** The client's error, with what a user can do about it where the cause is recognisable. */
async function unreachableReason(error: unknown, config: RedisConfig): Promise<string> {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const { host, port, database, tls } = config.url;
  if (code === 'ECONNREFUSED')
    return `nothing listens on ${host}:${port} (${message}); start Redis there or give the right URL`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `host ${host} is not known (${message}); check the host name in the URL`;
  if (/SELECT is not allowed in cluster mode/i.test(message))
    return `${host}:${port} is a Redis Cluster node, and a cluster has only database 0 (${message}); remove /${database} from the URL`;
  if (/DB index/i.test(message))
    return `database ${database} does not exist on this server (${message}); check the URL's /${database}`;
  const certificate = untrustedCertificate(error);
  if (certificate) return certificate;
  // A TLS client at a plain port waits for a handshake that never comes; a plain client at a TLS
  // port is dropped. Either way the port itself says which it speaks.
  if (tls && (await speaksPlainRedis(host, port)))
    return `TLS mismatch: ${host}:${port} speaks plain Redis, not TLS (${message}); use redis:// for this port`;
  if (!tls && (await speaksTls(host, port)))
    return `TLS mismatch: ${host}:${port} speaks TLS (${message}); use rediss:// for this port`;
  if (code === 'ETIMEDOUT' || /timeout/i.test(message))
    return `no answer within ${config.connectTimeoutMs} ms (${message}); check the host, port and firewall`;
  return message;
}

/** A plain Redis answers PING with a simple string or an error reply (NOAUTH), never with nothing. */
async function speaksPlainRedis(host: string, port: number): Promise<boolean> {
  const answer = await plainAnswer(host, port, 'PING\r\n');
  return answer !== null && (answer[0] === 0x2b /* + */ || answer[0] === 0x2d); /* - */
}
