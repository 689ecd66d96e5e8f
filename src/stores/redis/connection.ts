/**
 * The few things the Redis store needs from a client, so the same data layout and semantics
 * run on either official Node client: node-redis (`@redis/client`, Redis's recommended client)
 * or ioredis (which Redis now documents as deprecated in favour of node-redis). Commands go
 * as raw argument lists, so both clients do exactly the same work.
 */
export interface RedisConnection {
  /** Client package and version, e.g. "@redis/client 5.12.1". */
  readonly driver: string;
  /** Host the client talks to (for "is this server on this machine?"). */
  readonly host: string;
  connect(): Promise<void>;
  /** One command; resolves with its raw RESP2 reply. */
  call(args: readonly string[]): Promise<unknown>;
  /** Several commands in one round trip (not atomic); rejects with the first command error. */
  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  /** Several commands as MULTI/EXEC (atomic); rejects with the first command error. */
  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  url: string;
  connectTimeoutMs: number;
  /** Let the client coalesce concurrent commands into one socket write. */
  autoPipelining: boolean;
}
