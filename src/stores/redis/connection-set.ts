import type { RedisConnection, RedisNodeCaller } from './connection.ts';

/**
 * Several connections of one client process as one (`redis.connections=N`; on a cluster, N
 * cluster clients, so N connections to every node): each call, pipeline
 * or transaction goes to the next connection in turn. One connection carries every command of a
 * process in order, so a process's workers wait on one request-reply cycle with the server: the
 * client answers a batch of replies, then the server a batch of commands, each idle while the
 * other works. With two or more, one connection's replies are handled while the server works on
 * another's commands (YCSB's Redis binding opens one per client thread). A transaction stays on
 * one connection (MULTI/EXEC is one call), and nothing docbench sends depends on two calls
 * sharing one (no WATCH; scripts are EVAL, atomic on the server).
 */
export class RedisConnectionSet implements RedisConnection {
  private next = 0;

  constructor(private readonly connections: readonly RedisConnection[]) {}

  get driver(): string {
    return this.connections[0]!.driver;
  }

  get isCluster(): boolean {
    return this.connections[0]!.isCluster;
  }

  /** Connect them all; if one fails, the others are closed and the first failure is thrown. */
  async connect(): Promise<void> {
    const settled = await Promise.allSettled(this.connections.map((c) => c.connect()));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await this.close();
      throw failed.reason;
    }
  }

  call(args: readonly string[]): Promise<unknown> {
    return this.take().call(args);
  }

  pipeline(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.take().pipeline(commands);
  }

  transaction(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.take().transaction(commands);
  }

  onOneNode(commands: readonly (readonly string[])[]): Promise<unknown[]> {
    return this.take().onOneNode(commands);
  }

  one(): RedisConnection {
    return this.take().one();
  }

  /** Node-level commands (SCAN walks, stats) need no spreading: the first connection's. */
  masters(): Promise<RedisNodeCaller[]> {
    return this.connections[0]!.masters();
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  private take(): RedisConnection {
    const connection = this.connections[this.next]!;
    this.next = this.next + 1 === this.connections.length ? 0 : this.next + 1;
    return connection;
  }
}
