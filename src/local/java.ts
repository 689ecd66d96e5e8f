/**
 * Java and Maven for the local servers that run on the JVM (Cassandra, HBase, the Couchbase stand-in):
 * finding a suitable java, and fetching jars from Maven Central into the cache folder.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MissingPrerequisiteError, StartFailedError } from './process.ts';

/**
 * The first java for which `fits(path, major)` holds: JAVA_HOME, then `java` on PATH, then the
 * JDKs and JREs under /usr/lib/jvm (Debian's layout); null when none does.
 */
export function findJava(fits: (java: string, major: number) => boolean): string | null {
  const jvmDir = '/usr/lib/jvm';
  const candidates = [
    ...(process.env.JAVA_HOME ? [join(process.env.JAVA_HOME, 'bin', 'java')] : []),
    'java',
    ...(existsSync(jvmDir) ? readdirSync(jvmDir).map((d) => join(jvmDir, d, 'bin', 'java')) : []),
  ];
  for (const java of candidates) {
    const major = javaMajorVersion(java);
    if (major !== null && fits(java, major)) return java;
  }
  return null;
}

/** 17 for "17.0.9", 8 for "1.8.0"; null when it does not run. */
function javaMajorVersion(java: string): number | null {
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first;
}

/** A JDK, not only a runtime: it has the jdk.compiler module (needed to run a program from source). */
export function hasJavaCompiler(java: string): boolean {
  const result = spawnSync(java, ['--list-modules'], { encoding: 'utf8' });
  return result.status === 0 && /^jdk\.compiler@/m.test(result.stdout);
}

/**
 * Finds Maven (a missing one is a user error naming `what` is fetched), makes `outputDir`, and
 * answers Maven's arguments (batch mode, no colours) that copy the runtime jars `pom` depends on
 * into it: what both fetches share.
 */
function prepareDependencyCopy(pom: string, outputDir: string, what: string): string[] {
  try {
    execFileSync('mvn', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new MissingPrerequisiteError(
      `Maven (mvn) is needed to fetch ${what} from Maven Central (Debian: apt-get install maven)`,
    );
  }
  mkdirSync(outputDir, { recursive: true });
  return [
    '-B',
    '-Dstyle.color=never',
    '-f',
    pom,
    'dependency:copy-dependencies',
    '-DincludeScope=runtime',
    `-DoutputDirectory=${outputDir}`,
  ];
}

/** The runtime jars `pom` depends on, from Maven Central into `outputDir` (`what` names them in messages). */
export function fetchWithMaven(pom: string, outputDir: string, what: string): void {
  // Maven's output is kept, not shown: the caller has said what is fetched, and Maven's lines
  // (with colour codes even in batch mode) only matter when it fails.
  const result = spawnSync('mvn', ['-q', '--no-transfer-progress', ...prepareDependencyCopy(pom, outputDir, what)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    const tail = withoutColours(`${result.stdout ?? ''}${result.stderr ?? ''}`)
      .trim()
      .split('\n')
      .slice(-20)
      .join('\n');
    throw new StartFailedError(
      `fetching ${what} from Maven Central failed (mvn exit ${result.status ?? result.signal}); its last lines:\n${tail}`,
    );
  }
}

/** Text without ANSI colour and cursor codes (Maven writes them to pipes too). */
export function withoutColours(text: string): string {
  return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
}

/**
 * `fetchWithMaven` for a download large enough to want progress: Maven's own transfer lines are
 * read, and every `every` jars fetched from the registry (those already in the local Maven
 * repository are only copied) `log` gets one line with the count and megabytes so far.
 */
export async function fetchWithMavenProgress(
  pom: string,
  outputDir: string,
  what: string,
  log: (line: string) => void,
  every = 20,
): Promise<void> {
  const child = spawn('mvn', prepareDependencyCopy(pom, outputDir, what), { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  let jars = 0;
  let bytes = 0;
  let pending = '';
  const UNITS: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const raw of lines) {
      const line = withoutColours(raw);
      tail.push(line);
      if (tail.length > 20) tail.shift();
      // "Downloaded from central: https://…/x.jar (1.2 MB at 3.4 MB/s)"
      const done = /Downloaded from \S+: \S+\.jar \((\d+(?:\.\d+)?) (B|kB|MB|GB)/.exec(line);
      if (!done) continue;
      jars++;
      bytes += Number(done[1]) * (UNITS[done[2]!] ?? 1);
      if (jars % every === 0) log(`${what}: ${jars} jars fetched so far (${Math.round(bytes / 1e6)} MB)`);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => tail.push(...withoutColours(chunk).split('\n')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0)
    throw new StartFailedError(
      `fetching ${what} from Maven Central failed (mvn exit ${code}); its last lines:\n${tail.slice(-20).join('\n')}`,
    );
  log(
    `${what}: ${jars > 0 ? `${jars} jars fetched (${Math.round(bytes / 1e6)} MB)` : 'every jar was already in the local Maven repository'}; copied into ${outputDir}`,
  );
}
