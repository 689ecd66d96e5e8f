/**
 * Local Couchbase: a STAND-IN. No package registry ships Couchbase Server, so docbench runs
 * CouchbaseMock 1.5.27 (com.couchbase.mock:CouchbaseMock from Maven Central, the in-memory Java
 * mock Couchbase's own SDKs were tested against), fetched once into the cache folder with Maven.
 *
 * It runs as one bucket `docbench` on one node, on fixed loopback ports: KV (memcached protocol)
 * 127.0.0.1:11310 and REST 127.0.0.1:18191 (DOCBENCH_COUCHBASE_PORT and DOCBENCH_COUCHBASE_REST_PORT
 * move them). The SDK bootstraps over KV, so the URL names the KV
 * port. The mock's own command line gives every node a random KV port and binds REST on all
 * interfaces, so a small launcher run from source (fixtures/couchbase/DocbenchCouchbaseMock.java,
 * hence a JDK 11+) starts it through the mock's public API instead. The URL carries a user, a
 * password and the bucket exactly as for a real server; the mock's KV login is the bucket name
 * with the bucket's password.
 *
 * Stand-in workarounds live here, never in the store: the local URL carries general store
 * settings (declared in settings.ts, explained in index.ts), each marked below.
 *   - STAND-IN WORKAROUND (couchbase.management=false): the mock has no real management API, and
 *     some SDK management calls CRASH the SDK's native core against it (the bucket manager's
 *     getBucket and the query index manager abort the whole Node process: "JSON object key "uuid"
 *     not found"). The store then creates no index and makes no management REST call; stats()
 *     says what it skipped. The same switch serves least-privilege users on real clusters.
 *   - STAND-IN WORKAROUND (couchbase.query=false): the mock advertises a query service, but it is
 *     a fake that answers every real statement with "keyspace not found" (12003), which the SDK
 *     reports as BucketNotFoundError, not as a missing service. The switch makes scans report
 *     UNSUPPORTED, as a real cluster without the query service does.
 *   - STAND-IN WORKAROUND (couchbase.upsert=true): without SQL++ or management, drop() cannot
 *     empty the mock, so a fresh load would meet the previous load's documents; inserts are
 *     written as upserts (YCSB couchbase2's couchbase.upsert), so loads and inserts of keys left
 *     by an earlier run succeed. An insert of an existing key therefore overwrites here.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchWithMaven, findJava, hasJavaCompiler } from '../../local/java.ts';
import { managedServer } from '../../local/managed-server.ts';
import { installDir } from '../../local/paths.ts';
import { localPort, LOOPBACK, tcpProbe } from '../../local/ports.ts';
import { MissingPrerequisiteError, StartFailedError } from '../../local/process.ts';
import { projectPath } from '../../common/project-root.ts';

const VERSION = '1.5.27';
const KV_PORT = localPort('couchbase', 11310);
const REST_PORT = localPort('couchbase', 18191, 'rest');
const BUCKET = 'docbench';
/** The mock's KV login is the bucket name and the bucket's password; loopback-only, like every local target. */
const USER = BUCKET;
const PASSWORD = 'password';
/** The stand-in workarounds, as store settings (see the header). */
const STAND_IN_SETTINGS = 'couchbase.management=false&couchbase.query=false&couchbase.upsert=true';
const LOCAL_URL = `couchbase://${USER}:${PASSWORD}@${LOOPBACK}:${KV_PORT.port}/${BUCKET}?${STAND_IN_SETTINGS}`;

const FIXTURES = projectPath('fixtures', 'couchbase');
const POM = join(FIXTURES, 'pom.xml');
const LAUNCHER = join(FIXTURES, 'DocbenchCouchbaseMock.java');

const LIMITS = [
  'CouchbaseMock is an in-memory Java mock of Couchbase for SDK tests, not Couchbase Server: its numbers say nothing about Couchbase Server',
  'KV only: no SQL++ (scans report UNSUPPORTED), no GSI indexes, no views, no management API (some SDK management calls crash the SDK against it)',
  'no collections (only _default), no durable writes, one node without replicas, data lost on stop',
  'drop() cannot empty it, so the local URL writes inserts as upserts',
  'it does not check passwords',
].join('; ');

/** What it cannot run at all (a study leaves such cells out and names the way to a real server). */
const CANNOT = {
  scan: 'no SQL++: YCSB scans are UNSUPPORTED',
  query: 'no SQL++: scenario queries (pagination, JOIN, search) are UNSUPPORTED, key-value operations run',
} as const;

const JAR = () => installDir('couchbase', 'lib', `CouchbaseMock-${VERSION}.jar`);

/**
 * A java that can run the launcher from source: Java 11+ with the jdk.compiler module (a JDK).
 * JAVA_HOME first, then `java` on PATH, then the JDKs under /usr/lib/jvm (Debian's layout).
 */
function findJdk(): string {
  const jdk = findJava((java, major) => major >= 11 && hasJavaCompiler(java));
  if (jdk !== null) return jdk;
  const jreOnly = findJava((_, major) => major >= 11);
  throw new MissingPrerequisiteError(
    jreOnly
      ? `the CouchbaseMock launcher runs from Java source, which needs a JDK (the jdk.compiler module); ${jreOnly} is only a runtime (Debian: apt-get install openjdk-17-jdk-headless, or set JAVA_HOME to a JDK)`
      : 'CouchbaseMock needs a Java 11+ JDK and none was found (Debian: apt-get install openjdk-17-jdk-headless, or set JAVA_HOME)',
  );
}

/** GET on the mock's REST API with the bucket's login; null when nothing (or nothing JSON) answers. */
async function restGet(path: string, timeoutMs = 1000): Promise<unknown> {
  try {
    const response = await fetch(`http://${LOOPBACK}:${REST_PORT.port}${path}`, {
      headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

/**
 * Healthy: the REST API serves the bucket's config with its node on our KV port, and that port
 * accepts connections. Plain HTTP and TCP only: the SDK's native core is never used here.
 */
async function healthy(): Promise<boolean> {
  const config = (await restGet(`/pools/default/buckets/${BUCKET}`)) as {
    nodesExt?: Array<{ services?: { kv?: number } }>;
  } | null;
  if (config?.nodesExt?.[0]?.services?.kv !== KV_PORT.port) return false;
  return tcpProbe(LOOPBACK, KV_PORT.port);
}

async function install(log: (line: string) => void): Promise<void> {
  const marker = installDir('couchbase', `installed-${VERSION}`);
  if (existsSync(marker) && existsSync(JAR())) return;
  findJdk();
  log(`couchbase: fetching CouchbaseMock ${VERSION} from Maven Central (once)`);
  fetchWithMaven(POM, installDir('couchbase', 'lib'), 'CouchbaseMock');
  if (!existsSync(JAR())) throw new StartFailedError(`Maven finished but ${JAR()} is missing`);
  // Written last: a half-finished download is retried, never used.
  writeFileSync(marker, `${new Date().toISOString()}\n`);
}

export const localTarget = managedServer({
  store: 'couchbase',
  program: `CouchbaseMock ${VERSION} (Couchbase stand-in, KV only)`,
  url: LOCAL_URL,
  ports: [KV_PORT, REST_PORT],
  recognise: 'DocbenchCouchbaseMock',
  files: 'couchbase-mock',
  install,
  // Its data lives in the heap only: it keeps nothing in the data folder.
  command: () => ({
    command: findJdk(),
    args: [
      // Every document lives in the heap; 1 GB holds a few hundred thousand 1 KB records.
      '-Xms64m',
      '-Xmx1g',
      '-Djava.net.preferIPv4Stack=true',
      '-cp',
      JAR(),
      LAUNCHER,
      '--host',
      LOOPBACK,
      '--rest-port',
      String(REST_PORT.port),
      '--kv-port',
      String(KV_PORT.port),
      '--bucket',
      BUCKET,
      '--password',
      PASSWORD,
      '--vbuckets',
      '1024',
    ],
  }),
  healthy,
  startTimeoutMs: 60_000,
  startingNote: `(REST on ${LOOPBACK}:${REST_PORT.port})`,
  info: async () => ({
    store: 'couchbase',
    product: `CouchbaseMock ${VERSION}`,
    standIn: true,
    limits: LIMITS,
    cannot: CANNOT,
  }),
});
