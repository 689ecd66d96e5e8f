/**
 * How docbench runs a Cassandra node, for the single local server (local-target.ts) and each node
 * of a local ring (local-cluster.ts): Apache Cassandra 5.0.9's `cassandra-all` and its runtime
 * jars from Maven Central (fetched once into the cache folder), JDK 17 with Cassandra's own jvm17
 * flags, a generated cassandra.yaml and logback.xml in the node's folder, and the login every
 * local node asks for (PasswordAuthenticator, the default superuser cassandra/cassandra).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cassandra from 'cassandra-driver';
import { projectPath } from '../../common/project-root.ts';
import { fetchWithMaven, findJava } from '../../local/java.ts';
import { installDir } from '../../local/paths.ts';
import { MissingPrerequisiteError } from '../../local/process.ts';
import type { ServerCommand } from '../../local/managed-server.ts';

export const VERSION = '5.0.9';
/**
 * Every local node asks for a login (PasswordAuthenticator), as a production cluster does, so a
 * run with a wrong or missing password is refused here as it would be there. The login is
 * Cassandra's default superuser, made by the first node on its first start; loopback-only, like
 * every local target. Permissions are not checked (AllowAllAuthorizer): no cost on any operation.
 */
export const USER = 'cassandra';
export const PASSWORD = 'cassandra';
/** Lists cassandra-all as a dependency, so Maven fetches it and its runtime jars. */
const POM = projectPath('fixtures', 'cassandra', 'pom.xml');

/** Cassandra 5.0's conf/jvm17-server.options (G1 and JPMS sections), which JDK 17 needs to run it. */
const JVM17_OPTIONS = [
  '-XX:+UseG1GC',
  '-XX:+ParallelRefProcEnabled',
  '-XX:MaxTenuringThreshold=1',
  '-XX:G1HeapRegionSize=16m',
  '-XX:G1RSetUpdatingPauseTimePercent=5',
  '-XX:MaxGCPauseMillis=300',
  '-XX:InitiatingHeapOccupancyPercent=70',
  '-Djdk.attach.allowAttachSelf=true',
  '--add-exports',
  'java.base/jdk.internal.misc=ALL-UNNAMED',
  '--add-exports',
  'java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED',
  '--add-exports',
  'java.rmi/sun.rmi.registry=ALL-UNNAMED',
  '--add-exports',
  'java.rmi/sun.rmi.server=ALL-UNNAMED',
  '--add-exports',
  'java.sql/java.sql=ALL-UNNAMED',
  '--add-exports',
  'java.base/java.lang.ref=ALL-UNNAMED',
  '--add-exports',
  'jdk.unsupported/sun.misc=ALL-UNNAMED',
  '--add-exports',
  'jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED',
  '--add-exports',
  'jdk.attach/sun.tools.attach=ALL-UNNAMED',
  '--add-opens',
  'java.base/java.lang.module=ALL-UNNAMED',
  '--add-opens',
  'java.base/jdk.internal.loader=ALL-UNNAMED',
  '--add-opens',
  'java.base/jdk.internal.ref=ALL-UNNAMED',
  '--add-opens',
  'java.base/jdk.internal.reflect=ALL-UNNAMED',
  '--add-opens',
  'java.base/jdk.internal.math=ALL-UNNAMED',
  '--add-opens',
  'java.base/jdk.internal.module=ALL-UNNAMED',
  '--add-opens',
  'java.base/jdk.internal.util.jar=ALL-UNNAMED',
  '--add-opens',
  'jdk.management/com.sun.management.internal=ALL-UNNAMED',
  '--add-opens',
  'java.base/sun.nio.ch=ALL-UNNAMED',
  '--add-opens',
  'java.base/java.io=ALL-UNNAMED',
  '--add-opens',
  'java.base/java.lang.reflect=ALL-UNNAMED',
  '--add-opens',
  'jdk.compiler/com.sun.tools.javac=ALL-UNNAMED',
  '--add-opens',
  'java.base/java.lang=ALL-UNNAMED',
  '--add-opens',
  'java.base/java.util=ALL-UNNAMED',
  '-Dio.netty.tryReflectionSetAccessible=true',
  '-Dio.netty.allocator.useCacheForAllThreads=true',
  '-Dio.netty.allocator.maxOrder=11',
];

export const LIB = () => installDir('cassandra', 'lib');

/** A JDK 17 java binary: JAVA_HOME, then `java` on PATH, then the usual Debian locations. */
export function findJava17(): string {
  const java = findJava((_, major) => major === 17);
  if (java === null) {
    throw new MissingPrerequisiteError(
      'Cassandra 5.0 needs a Java 17 runtime and none was found (set JAVA_HOME, or on Debian: apt-get install openjdk-17-jre-headless)',
    );
  }
  return java;
}

export async function install(log: (line: string) => void): Promise<void> {
  const marker = installDir('cassandra', `installed-${VERSION}`);
  if (existsSync(marker)) return;
  findJava17();
  log(`cassandra: fetching cassandra-all ${VERSION} and its runtime jars from Maven Central (once)`);
  fetchWithMaven(POM, LIB(), 'Cassandra');
  // Written last: a half-finished download is retried, never used.
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}

/** Where one node listens and what it is given. */
export interface NodeConfig {
  /** Its folder: config, data, commit log, logs. */
  dir: string;
  address: string;
  cqlPort: number;
  storagePort: number;
  sslStoragePort: number;
  jmxPort: number;
  /** `address:storagePort` of the seed nodes. */
  seeds: readonly string[];
  heapMiB: number;
  /** Sized to the heap. */
  memtableMiB: number;
  keyCacheMiB: number;
  /** A PEM file with the node's private key and certificate: CQL over TLS as well as plain (client_encryption_options, optional). */
  tlsPem?: string;
  /** Written at the top of cassandra.yaml. */
  title: string;
}

function cassandraYaml(c: NodeConfig): string {
  const tls = c.tlsPem
    ? `# CQL over TLS, and plain on the same port (optional: true), with a PEM key and certificate.
client_encryption_options:
  enabled: true
  optional: true
  ssl_context_factory:
    class_name: org.apache.cassandra.security.PEMBasedSslContextFactory
  keystore: ${c.tlsPem}
  require_client_auth: false
`
    : '';
  return `# Generated by docbench: ${c.title}.
cluster_name: docbench
num_tokens: 16
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
storage_compatibility_mode: NONE
data_file_directories:
  - ${join(c.dir, 'data')}
commitlog_directory: ${join(c.dir, 'commitlog')}
saved_caches_directory: ${join(c.dir, 'saved_caches')}
hints_directory: ${join(c.dir, 'hints')}
cdc_raw_directory: ${join(c.dir, 'cdc_raw')}
commitlog_sync: periodic
commitlog_sync_period: 10000ms
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "${c.seeds.join(',')}"
listen_address: ${c.address}
rpc_address: ${c.address}
storage_port: ${c.storagePort}
ssl_storage_port: ${c.sslStoragePort}
native_transport_port: ${c.cqlPort}
start_native_transport: true
endpoint_snitch: SimpleSnitch
authenticator: PasswordAuthenticator
authorizer: AllowAllAuthorizer
role_manager: CassandraRoleManager
# Each new connection's login costs the node a bcrypt check; a verified login is kept this long,
# so runs and tests that open many connections do not pay it again and again.
credentials_validity: 1h
# Benchmarks drop and re-create tables often; snapshots on drop would only fill the disk.
auto_snapshot: false
# Sized for the heap.
key_cache_size: ${c.keyCacheMiB}MiB
memtable_heap_space: ${c.memtableMiB}MiB
memtable_offheap_space: ${c.memtableMiB}MiB
${tls}`;
}

const LOGBACK = (logFile: string) => `<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>${logFile}</file>
    <encoder><pattern>%date %-5level [%thread] %logger{20} %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
`;

/** Writes the node's cassandra.yaml and logback.xml (its log: `system.log` in its folder); returns its command line. */
export function nodeCommand(c: NodeConfig): ServerCommand {
  const java = findJava17();
  for (const sub of ['data', 'commitlog', 'saved_caches', 'hints', 'cdc_raw'])
    mkdirSync(join(c.dir, sub), { recursive: true });
  const yaml = join(c.dir, 'cassandra.yaml');
  const logback = join(c.dir, 'logback.xml');
  writeFileSync(yaml, cassandraYaml(c));
  writeFileSync(logback, LOGBACK(join(c.dir, 'system.log')));
  const args = [
    `-Xms${c.heapMiB}M`,
    `-Xmx${c.heapMiB}M`,
    '-Xss256k',
    ...JVM17_OPTIONS,
    `-Dcassandra.config=file://${yaml}`,
    `-Dcassandra.storagedir=${join(c.dir, 'data')}`,
    `-Dcassandra.logdir=${c.dir}`,
    `-Dlogback.configurationFile=${logback}`,
    '-Dcassandra-foreground=yes',
    // A node that joins through a seed waits up to the ring delay for the seed's answer to its
    // first gossip round (the shadow round), then gives up ("Unable to contact any seeds"): a
    // seed busy with the previous node's join can take seconds. A seed has no one to ask.
    `-Dcassandra.ring_delay_ms=${c.seeds.includes(`${c.address}:${c.storagePort}`) ? 1000 : 15_000}`,
    '-Dcassandra.skip_wait_for_gossip_to_settle=0',
    // Make the default superuser (the local URL's login) at once, not 10 s after start.
    '-Dcassandra.superuser_setup_delay_ms=0',
    `-Dcassandra.jmx.local.port=${c.jmxPort}`,
    '-Djava.net.preferIPv4Stack=true',
    '-cp',
    `${LIB()}/*`,
    'org.apache.cassandra.service.CassandraDaemon',
  ];
  return { command: java, args };
}

/**
 * CQL answers with the local login: the node is up when `system.local` reads. On a first start
 * the default superuser is made a moment after CQL opens, so until then the login fails and the
 * node is not ready yet. `loginMayWaitForReplicas`: a ring node whose login could not be checked
 * because too few of `system_auth`'s replicas are up yet (a ring started again from cold, its
 * first node alone) counts as up: its CQL answers, and the login works once the others are.
 */
export async function cqlReady(address: string, port: number, loginMayWaitForReplicas = false): Promise<boolean> {
  const client = new cassandra.Client({
    contactPoints: [`${address}:${port}`],
    localDataCenter: 'datacenter1',
    // The ring's nodes share the CQL port; the driver would use 9042 for the peers it discovers.
    protocolOptions: { port },
    credentials: { username: USER, password: PASSWORD },
    socketOptions: { connectTimeout: 2000, readTimeout: 5000 },
    // Only this node: a ring's other nodes may not be up yet.
    policies: {
      loadBalancing: new cassandra.policies.loadBalancing.AllowListPolicy(
        new cassandra.policies.loadBalancing.RoundRobinPolicy(),
        [`${address}:${port}`],
      ),
    },
  });
  try {
    await client.connect();
    await client.execute('SELECT release_version FROM system.local');
    return true;
  } catch (error) {
    if (
      loginMayWaitForReplicas &&
      /Cannot achieve consistency level|Cannot perform authentication|Unable to perform authentication/i.test(
        allMessages(error),
      )
    )
      return true;
    throw error;
  } finally {
    await client.shutdown().catch(() => {});
  }
}

/** The error's message and, for a NoHostAvailableError, each host's. */
function allMessages(error: unknown): string {
  const inner =
    error instanceof cassandra.errors.NoHostAvailableError
      ? Object.values((error.innerErrors ?? {}) as Record<string, unknown>)
      : [];
  return [error, ...inner].map((e) => (e instanceof Error ? e.message : String(e))).join(' | ');
}
