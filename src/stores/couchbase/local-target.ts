/**
 * Local Couchbase: a STAND-IN. No package registry ships Couchbase Server, so docbench runs
 * CouchbaseMock 1.5.27 (com.couchbase.mock:CouchbaseMock from Maven Central, the in-memory Java
 * mock Couchbase's own SDKs were tested against), fetched once into the cache folder with Maven.
 *
 * It runs as one bucket `docbench` on one node, on fixed loopback ports: KV (memcached protocol)
 * 127.0.0.1:11310 and REST 127.0.0.1:18191. The SDK bootstraps over KV, so the URL names the KV
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
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installDir, runDir } from '../../local/paths.ts';
import { livePid, MissingPrerequisiteError, spawnDetached, StartFailedError, stopByPidFile, waitUntil } from '../../local/process.ts';
import type { LocalTarget, TargetInfo, TargetStatus } from '../../local/target.ts';

const VERSION = '1.5.27';
const HOST = '127.0.0.1';
const KV_PORT = 11310;
const REST_PORT = 18191;
const BUCKET = 'docbench';
/** The mock's KV login is the bucket name and the bucket's password; loopback-only, like every local target. */
const USER = BUCKET;
const PASSWORD = 'password';
/** The stand-in workarounds, as store settings (see the header). */
const STAND_IN_SETTINGS = 'couchbase.management=false&couchbase.query=false&couchbase.upsert=true';
const LOCAL_URL = `couchbase://${USER}:${PASSWORD}@${HOST}:${KV_PORT}/${BUCKET}?${STAND_IN_SETTINGS}`;

const FIXTURES = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..', 'fixtures', 'couchbase');
const POM = join(FIXTURES, 'pom.xml');
const LAUNCHER = join(FIXTURES, 'DocbenchCouchbaseMock.java');

const LIMITS = [
  'CouchbaseMock is an in-memory Java mock of Couchbase for SDK tests, not Couchbase Server: its numbers say nothing about Couchbase Server',
  'KV only: no SQL++ (scans report UNSUPPORTED), no GSI indexes, no views, no management API (some SDK management calls crash the SDK against it)',
  'no collections (only _default), no durable writes, one node without replicas, data lost on stop',
  'drop() cannot empty it, so the local URL writes inserts as upserts',
  'it does not check passwords',
].join('; ');

const paths = () => {
  const install = installDir('couchbase');
  const dir = runDir('couchbase');
  return {
    lib: join(install, 'lib'),
    jar: join(install, 'lib', `CouchbaseMock-${VERSION}.jar`),
    installed: join(install, `installed-${VERSION}`),
    dir,
    pidFile: join(dir, 'couchbase-mock.pid'),
    logFile: join(dir, 'couchbase-mock.log'),
  };
};

/**
 * A java that can run the launcher from source: Java 11+ with the jdk.compiler module (a JDK).
 * JAVA_HOME first, then `java` on PATH, then the JDKs under /usr/lib/jvm (Debian's layout).
 */
function findJdk(): string {
  const jvmDir = '/usr/lib/jvm';
  const candidates = [
    ...(process.env.JAVA_HOME ? [join(process.env.JAVA_HOME, 'bin', 'java')] : []),
    'java',
    ...(existsSync(jvmDir) ? readdirSync(jvmDir).map((d) => join(jvmDir, d, 'bin', 'java')) : []),
  ];
  let jreOnly: string | undefined;
  for (const java of candidates) {
    const major = javaMajorVersion(java);
    if (major === null || major < 11) continue;
    if (hasCompiler(java)) return java;
    jreOnly ??= java;
  }
  throw new MissingPrerequisiteError(
    jreOnly
      ? `the CouchbaseMock launcher runs from Java source, which needs a JDK (the jdk.compiler module); ${jreOnly} is only a runtime (Debian: apt-get install openjdk-17-jdk-headless, or set JAVA_HOME to a JDK)`
      : 'CouchbaseMock needs a Java 11+ JDK and none was found (Debian: apt-get install openjdk-17-jdk-headless, or set JAVA_HOME)',
  );
}

function javaMajorVersion(java: string): number | null {
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first; // "1.8.0" is Java 8
}

function hasCompiler(java: string): boolean {
  const result = spawnSync(java, ['--list-modules'], { encoding: 'utf8' });
  return result.status === 0 && /^jdk\.compiler@/m.test(result.stdout);
}

/** GET on the mock's REST API with the bucket's login; null when nothing (or nothing JSON) answers. */
async function restGet(path: string, timeoutMs = 1000): Promise<unknown> {
  try {
    const response = await fetch(`http://${HOST}:${REST_PORT}${path}`, {
      headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

function kvPortOpen(timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port: KV_PORT });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * Healthy: the REST API serves the bucket's config with its node on our KV port, and that port
 * accepts connections. Plain HTTP and TCP only: the SDK's native core is never used here.
 */
async function healthy(): Promise<boolean> {
  const config = (await restGet(`/pools/default/buckets/${BUCKET}`)) as { nodesExt?: Array<{ services?: { kv?: number } }> } | null;
  if (config?.nodesExt?.[0]?.services?.kv !== KV_PORT) return false;
  return kvPortOpen();
}

/** Something answers HTTP on the REST port (ours or not). */
async function restPortAnswers(): Promise<boolean> {
  try {
    await fetch(`http://${HOST}:${REST_PORT}/pools`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

export const localTarget: LocalTarget = {
  store: 'couchbase',
  url: LOCAL_URL,

  async install(log) {
    const p = paths();
    if (existsSync(p.installed) && existsSync(p.jar)) return;
    findJdk();
    try {
      execFileSync('mvn', ['-v'], { stdio: 'ignore' });
    } catch {
      throw new MissingPrerequisiteError('Maven (mvn) is needed to fetch CouchbaseMock from Maven Central (Debian: apt-get install maven)');
    }
    log(`couchbase: fetching CouchbaseMock ${VERSION} from Maven Central (once)`);
    mkdirSync(p.lib, { recursive: true });
    execFileSync('mvn', ['-q', '-B', '-Dstyle.color=never', '--no-transfer-progress', '-f', POM, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${p.lib}`], {
      stdio: 'inherit',
    });
    if (!existsSync(p.jar)) throw new StartFailedError(`Maven finished but ${p.jar} is missing`);
    // Written last: a half-finished download is retried, never used.
    writeFileSync(p.installed, `${new Date().toISOString()}\n`);
  },

  async start(log) {
    const p = paths();
    if (livePid(p.pidFile) !== null) {
      if (await healthy()) return this.status();
      // Ours (by pid file) but not answering: restart it rather than start a second one.
      await stopByPidFile(p.pidFile);
    }
    if ((await restPortAnswers()) || (await kvPortOpen())) {
      throw new StartFailedError(`port ${REST_PORT} or ${KV_PORT} on ${HOST} is already in use by a server docbench did not start; stop it or give --url`);
    }
    await this.install(log);
    const java = findJdk();
    mkdirSync(p.dir, { recursive: true });
    log(`couchbase: starting CouchbaseMock ${VERSION} (stand-in, KV only) on ${HOST}:${KV_PORT} (KV) and ${HOST}:${REST_PORT} (REST)`);
    const pid = spawnDetached(
      java,
      [
        // Every document lives in the heap; 1 GB holds a few hundred thousand 1 KB records.
        '-Xms64m',
        '-Xmx1g',
        '-Djava.net.preferIPv4Stack=true',
        '-cp',
        p.jar,
        LAUNCHER,
        '--host', HOST,
        '--rest-port', String(REST_PORT),
        '--kv-port', String(KV_PORT),
        '--bucket', BUCKET,
        '--password', PASSWORD,
        '--vbuckets', '1024',
      ],
      { logFile: p.logFile, pidFile: p.pidFile, cwd: p.dir },
    );
    await waitUntil('CouchbaseMock', healthy, {
      timeoutMs: 60_000,
      aliveCheck: () => livePid(p.pidFile) === pid,
      logFile: p.logFile,
    });
    return this.status();
  },

  async stop(log) {
    if (await stopByPidFile(paths().pidFile)) log('couchbase: stopped CouchbaseMock');
  },

  async status(): Promise<TargetStatus> {
    const p = paths();
    const pid = livePid(p.pidFile);
    return { running: pid !== null && (await healthy()), pid, url: LOCAL_URL, logFile: p.logFile };
  },

  async info(): Promise<TargetInfo> {
    return { store: 'couchbase', product: `CouchbaseMock ${VERSION}`, standIn: true, limits: LIMITS };
  },
};
