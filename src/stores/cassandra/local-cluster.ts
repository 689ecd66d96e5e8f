/**
 * A local Cassandra ring: `docbench up cassandra --nodes N` runs N nodes of the same server as
 * the single local one (server-config.ts), node i on 127.0.0.i+1 of the loopback range, all on
 * the same ports (CQL 19142, storage 17100; DOCBENCH_CASSANDRA_CLUSTER_PORT and
 * _CLUSTER_STORAGE_PORT move them) but each its own JMX port (17400 + i: JMX binds 127.0.0.1
 * only). Node 1 is the one seed; it starts first and the others join one by one (Cassandra
 * refuses two bootstrapping at once). Each node's heap is sized so N fit this machine's memory
 * (an eighth of it shared among the nodes, each between 512 MB and 1 GB). `system_auth` is
 * replicated as the data is (factor min(3, N)), so the login survives a node's loss; keyspaces
 * docbench creates get the same factor (handle.ts). With openssl on the machine, the ring also
 * speaks CQL over TLS on the same port (client_encryption_options with `optional: true`), with
 * a CA of its own in its folder (`tls/ca.pem`).
 */
import { totalmem } from 'node:os';
import { join } from 'node:path';
import cassandra from 'cassandra-driver';
import { UserError } from '../../common/user-error.ts';
import { hasOpenssl, localCertificates } from '../../local/certificates.ts';
import { ClusterNode } from '../../local/cluster-node.ts';
import {
  readClusterRecord,
  writeClusterRecord,
  type ClusterTargetStatus,
  type LocalClusterTarget,
} from '../../local/cluster-target.ts';
import { runDir } from '../../local/paths.ts';
import { localPort } from '../../local/ports.ts';
import { waitUntil } from '../../local/process.ts';
import { cqlReady, install, nodeCommand, PASSWORD, USER } from './server-config.ts';

export interface CassandraRingOptions {
  nodes: number;
  /** Holds a folder per node. */
  dir: string;
  cqlPort: number;
  storagePort: number;
  /** Node i's JMX port is jmxBasePort + i. */
  jmxBasePort: number;
  heapMiB: number;
  /** A PEM file with the nodes' key and certificate (one for every node address): CQL over TLS as well. */
  tlsPem?: string;
  /** The CA clients trust for it, when there is TLS (for messages). */
  tlsCa?: string;
}

export const ringAddress = (i: number): string => `127.0.0.${i + 1}`;
export const replicationFactorFor = (nodes: number): number => Math.min(3, nodes);

/** An eighth of the machine's memory shared among the nodes, each between 512 MB and 1 GB, in 128 MB steps. */
export function ringHeapMiB(nodes: number, memoryBytes = totalmem()): number {
  const share = Math.floor(memoryBytes / 2 ** 20 / (8 * nodes) / 128) * 128;
  return Math.min(1024, Math.max(512, share));
}

export function cassandraRingUrl(o: Pick<CassandraRingOptions, 'nodes' | 'cqlPort'>): string {
  const hosts = Array.from({ length: o.nodes }, (_, i) => ringAddress(i)).join(',');
  return `cassandra://${USER}:${PASSWORD}@${hosts}:${o.cqlPort}/?datacenter=datacenter1`;
}

export function cassandraRingNodes(o: CassandraRingOptions): ClusterNode[] {
  const seed = `${ringAddress(0)}:${o.storagePort}`;
  return Array.from({ length: o.nodes }, (_, i) => {
    const address = ringAddress(i);
    const dir = join(o.dir, `node-${address}`);
    return new ClusterNode({
      name: `cassandra ring node ${address}`,
      dir,
      host: address,
      ports: [o.cqlPort, o.storagePort, o.storagePort + 1],
      recognise: 'org.apache.cassandra.service.CassandraDaemon',
      files: 'cassandra',
      diagnosticLog: join(dir, 'system.log'),
      command: () =>
        nodeCommand({
          title: `node ${i + 1} of a local ring of ${o.nodes} on 127.0.0.1-${o.nodes}`,
          dir,
          address,
          cqlPort: o.cqlPort,
          storagePort: o.storagePort,
          sslStoragePort: o.storagePort + 1,
          jmxPort: o.jmxBasePort + i,
          seeds: [seed],
          heapMiB: o.heapMiB,
          memtableMiB: Math.floor(o.heapMiB / 4),
          keyCacheMiB: Math.max(16, Math.floor(o.heapMiB / 32)),
          ...(o.tlsPem ? { tlsPem: o.tlsPem } : {}),
        }),
      healthy: () => cqlReady(address, o.cqlPort, true),
      startTimeoutMs: 300_000,
      stopGraceMs: 30_000,
    });
  });
}

/**
 * Start the nodes that are not running, seed first, one at a time. On the ring's first start,
 * `system_auth` gets the data's replication factor (min(3, N)) while the seed is still alone,
 * so each node that joins streams the login as it bootstraps, and the login survives a node's
 * loss (the default superuser's login is read at QUORUM). Then the driver must see every node up.
 */
export async function startCassandraRing(
  o: CassandraRingOptions,
  log: (line: string) => void,
): Promise<ClusterTargetStatus> {
  await install(log);
  const previous = readClusterRecord<CassandraRingOptions & { authReplicated?: boolean }>(o.dir);
  let authReplicated = previous?.authReplicated === true;
  writeClusterRecord(o.dir, { ...o, authReplicated });
  let started = false;
  for (const [i, node] of cassandraRingNodes(o).entries()) {
    if (node.pid(log) === null)
      log(
        `cassandra: starting node ${i + 1} of ${o.nodes} on ${ringAddress(i)}:${o.cqlPort} (${o.heapMiB} MB heap; about 20-90 s each)`,
      );
    started = (await node.start(log)) || started;
    if (i === 0 && !authReplicated) {
      await withRingClient(o, [ringAddress(0)], (client) =>
        client.execute(
          `ALTER KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy', 'replication_factor': ${replicationFactorFor(o.nodes)}}`,
        ),
      );
      authReplicated = true;
      writeClusterRecord(o.dir, { ...o, authReplicated });
    }
  }
  await withRingClient(
    o,
    Array.from({ length: o.nodes }, (_, i) => ringAddress(i)),
    (client) =>
      waitUntil(
        'every node of the Cassandra ring',
        async () => client.hosts.values().filter((h) => h.isUp()).length === o.nodes,
        { timeoutMs: 120_000, intervalMs: 1000 },
      ),
  );
  return { ...(await ringStatus(o)), started };
}

async function withRingClient<T>(
  o: CassandraRingOptions,
  addresses: readonly string[],
  work: (client: cassandra.Client) => Promise<T>,
): Promise<T> {
  const client = new cassandra.Client({
    contactPoints: addresses.map((a) => `${a}:${o.cqlPort}`),
    localDataCenter: 'datacenter1',
    // The ring's nodes share the CQL port; the driver would use 9042 for the peers it discovers.
    protocolOptions: { port: o.cqlPort },
    credentials: { username: USER, password: PASSWORD },
    socketOptions: { connectTimeout: 5000, readTimeout: 30_000 },
  });
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.shutdown().catch(() => {});
  }
}

export async function stopCassandraRing(
  o: Pick<CassandraRingOptions, 'dir'>,
  log: (line: string) => void,
): Promise<number[]> {
  const record = readClusterRecord<CassandraRingOptions>(o.dir);
  if (!record) return [];
  // The last node first, the seed last: no node is left without the seed while others run.
  const stopped: number[] = [];
  for (const node of cassandraRingNodes(record).reverse()) {
    const pid = await node.stop(log);
    if (pid !== null) stopped.push(pid);
  }
  return stopped;
}

async function ringStatus(o: CassandraRingOptions): Promise<ClusterTargetStatus> {
  const nodes = await Promise.all(cassandraRingNodes(o).map((n) => n.status()));
  const tls = o.tlsCa ? `; CQL over TLS too (add &tls=true, trust ${o.tlsCa})` : '';
  return {
    url: cassandraRingUrl(o),
    layout: `${o.nodes} nodes on 127.0.0.1-${o.nodes}, one seed, replication factor ${replicationFactorFor(o.nodes)} for keyspaces docbench creates, ${o.heapMiB} MB heap each${tls}`,
    nodes,
  };
}

const ringDir = () => runDir('cassandra-cluster');

export const localCluster: LocalClusterTarget = {
  minNodes: 2,
  async start(layout, log) {
    const previous = readClusterRecord<CassandraRingOptions>(ringDir());
    if (previous && previous.nodes !== layout.nodes) {
      const running = (await ringStatus(previous)).nodes.some((n) => n.pid !== null);
      throw new UserError(
        `cassandra: a local ring of ${previous.nodes} nodes ${running ? 'runs' : 'was made'} in ${previous.dir}; ${running ? 'stop it (docbench down cassandra) and ' : ''}remove that folder to make one of ${layout.nodes}`,
      );
    }
    const dir = ringDir();
    const certificates = hasOpenssl()
      ? localCertificates(
          join(dir, 'tls'),
          Array.from({ length: layout.nodes }, (_, i) => ringAddress(i)),
        )
      : undefined;
    return startCassandraRing(
      {
        nodes: layout.nodes,
        dir,
        cqlPort: localPort('cassandra', 19142, 'cluster').port,
        storagePort: localPort('cassandra', 17100, 'cluster_storage').port,
        jmxBasePort: localPort('cassandra', 17400, 'cluster_jmx').port,
        heapMiB: ringHeapMiB(layout.nodes),
        ...(certificates ? { tlsPem: certificates.keyAndCert, tlsCa: certificates.ca } : {}),
      },
      log,
    );
  },
  stop: (log) => stopCassandraRing({ dir: ringDir() }, log),
  async status() {
    const record = readClusterRecord<CassandraRingOptions>(ringDir());
    return record ? ringStatus(record) : undefined;
  },
};
