/**
 * What the Cassandra scenario dialects work with: the connected driver client, the keyspace the
 * store is configured for, and the one way to create that keyspace (with the configured
 * replication), so scenarios write CQL in Cassandra's own idiom without reaching into the store.
 */
import type cassandra from 'cassandra-driver';
import type { PlanEvidence } from '../query-plan.ts';
import { traceStatement } from './explain.ts';

/** A quoted CQL identifier: keeps the name's case, and any name is safe in a statement. */
export const cqlIdentifier = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export class CassandraHandle {
  constructor(
    /** The driver client (connected once the store is). */
    readonly client: cassandra.Client,
    /** The keyspace docbench works in (`cassandra.keyspace`, else the URL's path, else ycsb). */
    readonly keyspace: string,
    /** The CQL replication map the keyspace is created with (`cassandra.replication`); undefined: the default below. */
    private readonly replication?: string,
  ) {}

  /**
   * The replication the keyspace is created with: `cassandra.replication`, else SimpleStrategy
   * with factor min(3, nodes the driver knows), so a ring's data survives a node's loss and a
   * single node still works. Known once connected.
   */
  replicationMap(): string {
    return (
      this.replication ??
      `{'class': 'SimpleStrategy', 'replication_factor': ${Math.min(3, Math.max(1, this.client.hosts.length))}}`
    );
  }

  /** `"keyspace"."table"`. */
  table(name: string): string {
    return `${cqlIdentifier(this.keyspace)}.${cqlIdentifier(name)}`;
  }

  /** How Cassandra runs a statement: executed once with tracing, its first page's trace read back (explain.ts). */
  trace(cql: string, params: unknown[], fetchSize = 5000): Promise<PlanEvidence> {
    return traceStatement(this.client, cql, params, fetchSize);
  }

  /** Create the keyspace with the configured replication if it does not exist yet. */
  async ensureKeyspace(): Promise<void> {
    await this.client.execute(
      `CREATE KEYSPACE IF NOT EXISTS ${cqlIdentifier(this.keyspace)} WITH replication = ${this.replicationMap()}`,
    );
  }
}
