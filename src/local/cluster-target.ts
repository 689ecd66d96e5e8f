/**
 * A local cluster of one store (`docbench up redis --nodes 3 --replicas 1`, `docbench up
 * cassandra --nodes 3`): several processes on loopback addresses, each a ClusterNode with its own
 * folder and pid file under `run/<store>-cluster/`, and a `cluster.json` there saying what was
 * started, so `status` and `down` find every node of it by pid.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterNodeStatus } from './cluster-node.ts';

/** What `--nodes` and `--replicas` ask for. */
export interface ClusterLayout {
  nodes: number;
  /** Redis: replicas of each master. */
  replicas: number;
}

export interface ClusterTargetStatus {
  /** The cluster's URL: every node as a seed. */
  url: string;
  /** In words: "3 masters, 1 replica each (6 processes)", "3 nodes, replication factor 3". */
  layout: string;
  nodes: ClusterNodeStatus[];
  /** From start(): true when this call started a node. */
  started?: boolean;
}

export interface LocalClusterTarget {
  /** Fewest nodes the store's cluster can have (Redis Cluster: 3 masters). */
  readonly minNodes: number;
  /** What `--replicas` means for this store, or undefined when it takes none. */
  readonly replicasMeaning?: string;
  start(layout: ClusterLayout, log: (line: string) => void): Promise<ClusterTargetStatus>;
  /** Stop every node of the cluster docbench started (each by its own pid file); the pids stopped. */
  stop(log: (line: string) => void): Promise<number[]>;
  /** The cluster's nodes, when one was started here (its cluster.json is there); else undefined. */
  status(): Promise<ClusterTargetStatus | undefined>;
}

/** What was started, kept beside the nodes' folders. */
export function writeClusterRecord<T extends object>(dir: string, record: T): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cluster.json'), `${JSON.stringify(record, null, 2)}\n`);
}

export function readClusterRecord<T>(dir: string): T | undefined {
  const file = join(dir, 'cluster.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
