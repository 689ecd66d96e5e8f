/**
 * Local Cassandra: the real Apache Cassandra 5.0.9 server (server-config.ts: `cassandra-all` and
 * its runtime jars from Maven Central, JDK 17), a 1 GB heap and a generated cassandra.yaml bound
 * to 127.0.0.1 (CQL on 19042; DOCBENCH_CASSANDRA_PORT moves it, and
 * DOCBENCH_CASSANDRA_STORAGE_PORT, _SSL_STORAGE_PORT and _JMX_PORT its other ports). A single
 * node: replication and multi-node effects are not measured on it; `docbench up cassandra --nodes
 * N` runs a ring beside it (local-cluster.ts). It asks for a login (PasswordAuthenticator, the
 * default superuser cassandra/cassandra in the local URL). It is the real server, so the store's
 * code needs no workaround for it.
 */
import { managedServer } from '../../local/managed-server.ts';
import { localPort, LOOPBACK } from '../../local/ports.ts';
import type { LocalTarget } from '../../local/target.ts';
import { localCluster } from './local-cluster.ts';
import { cqlReady, install, nodeCommand, PASSWORD, USER, VERSION } from './server-config.ts';

const CQL_PORT = localPort('cassandra', 19042);
const STORAGE_PORT = localPort('cassandra', 17000, 'storage');
const SSL_STORAGE_PORT = localPort('cassandra', 17001, 'ssl_storage');
const JMX_PORT = localPort('cassandra', 17199, 'jmx');
const LOCAL_URL = `cassandra://${USER}:${PASSWORD}@${LOOPBACK}:${CQL_PORT.port}/?datacenter=datacenter1`;

const single = managedServer({
  store: 'cassandra',
  program: `Cassandra ${VERSION}`,
  url: LOCAL_URL,
  ports: [CQL_PORT, STORAGE_PORT, SSL_STORAGE_PORT, JMX_PORT],
  recognise: 'org.apache.cassandra.service.CassandraDaemon',
  files: 'cassandra',
  diagnosticLogName: 'system.log',
  install,
  command: ({ dir }) =>
    nodeCommand({
      title: `a local single-node Cassandra on ${LOOPBACK}`,
      dir,
      address: LOOPBACK,
      cqlPort: CQL_PORT.port,
      storagePort: STORAGE_PORT.port,
      sslStoragePort: SSL_STORAGE_PORT.port,
      jmxPort: JMX_PORT.port,
      seeds: [`${LOOPBACK}:${STORAGE_PORT.port}`],
      heapMiB: 1024,
      memtableMiB: 256,
      keyCacheMiB: 32,
    }),
  healthy: () => cqlReady(LOOPBACK, CQL_PORT.port),
  startTimeoutMs: 180_000,
  pollMs: 1000,
  stopGraceMs: 30_000,
  startingNote: '(about 20-60 s)',
  info: async () => ({
    store: 'cassandra',
    product: `Apache Cassandra ${VERSION} (cassandra-all from Maven Central, JDK 17)`,
    standIn: false,
    limits:
      'a single node with a 1 GB heap: no replication or multi-node effects (docbench up cassandra --nodes 3 runs a ring)',
  }),
});

/** The single server, and a ring of several nodes (local-cluster.ts) on other addresses and ports. */
export const localTarget: LocalTarget = { ...single, cluster: localCluster };
