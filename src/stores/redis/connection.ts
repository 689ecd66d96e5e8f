/**
 * Opening and closing the client. The store runs on either official Node client: ioredis (the
 * default; Redis now documents it as deprecated in favour of node-redis) or node-redis
 * (`@redis/client`, Redis's recommended client), chosen with `redis.driver`. Each client sits
 * behind the small interface below, in its own file next to this one (connection-ioredis.ts,
 * connection-node-redis.ts), and the choice between them is made here, where connections are
 * made: the rest of the store (YCSB operations, handle, stats) never knows which client runs.
 * Commands go as raw argument lists, so both clients do exactly the same work.
 */
import { UnreachableError } from '../store.ts';
import { IoredisConnection } from './connection-ioredis.ts';
import { RedisConnectionSet } from './connection-set.ts';
import { NodeRedisConnection } from './connection-node-redis.ts';
import type { RedisConfig } from './settings.ts';

export interface RedisConnection {
  /** Client package and version, e.g. "@redis/client 5.12.1". */
  readonly driver: string;
  /** Connect, select the URL's database and check the server answers (PING); rejects with the client's own error. */
  connect(): Promise<void>;
  /** One command; resolves with its raw RESP2 reply. */
  call(args: readonly string[]): Promise<unknown>;
  /** Several commands in one round trip (not atomic); rejects with the first command error. */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  /** Several commands as MULTI/EXEC (atomic); rejects with the first command error. */
  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  /** Safe to call twice, and after a failed connect. */
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  url: string;
  connectTimeoutMs: number;
  /** Let the client coalesce concurrent commands into one socket write. */
  autoPipelining: boolean;
}

/** The configured client, not yet connected. */
export function createConnection(config: RedisConfig): RedisConnection {
  const options = { url: config.url.text, connectTimeoutMs: config.connectTimeoutMs, autoPipelining: config.autoPipelining };
  const one = () => (config.driver === 'node-redis' ? new NodeRedisConnection(options) : new IoredisConnection(options));
  return config.connections === 1 ? one() : new RedisConnectionSet(Array.from({ length: config.connections }, one));
}

/** Connect; any failure closes the client and is an UnreachableError saying what to check. */
export async function openConnection(connection: RedisConnection, config: RedisConfig): Promise<void> {
  try {
    await connection.connect();
  } catch (error) {
    await connection.close().catch(() => {});
    throw new UnreachableError('redis', config.url.masked, unreachableReason(error, config));
  }
}

/** The client's error, with what a user can do about it where the cause is recognisable. */
function unreachableReason(error: unknown, config: RedisConfig): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const { host, port, database, tls } = config.url;
  if (code === 'ECONNREFUSED') return `nothing listens on ${host}:${port} (${message}); start Redis there or give the right URL`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host ${host} is not known (${message}); check the host name in the URL`;
  if (code === 'ETIMEDOUT' || /timeout/i.test(message)) {
    const tlsHint = tls ? ', and that the server speaks TLS (rediss://)' : '';
    return `no answer within ${config.connectTimeoutMs} ms (${message}); check the host, port and firewall${tlsHint}`;
  }
  if (/\b(WRONGPASS|NOAUTH|AUTH)\b/.test(message)) return `the server refused the login (${message}); check the user and password in the URL`;
  if (/DB index/i.test(message)) return `database ${database} does not exist on this server (${message}); check the URL's /${database}`;
  return message;
}
