/**
 * Java and Maven for the local servers that run on the JVM (Cassandra, the Couchbase stand-in):
 * finding a suitable java, and fetching jars from Maven Central into the cache folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MissingPrerequisiteError } from './process.ts';

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

/** The runtime jars `pom` depends on, from Maven Central into `outputDir` (`what` names them in messages). */
export function fetchWithMaven(pom: string, outputDir: string, what: string): void {
  try {
    execFileSync('mvn', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new MissingPrerequisiteError(`Maven (mvn) is needed to fetch ${what} from Maven Central (Debian: apt-get install maven)`);
  }
  mkdirSync(outputDir, { recursive: true });
  execFileSync(
    'mvn',
    ['-q', '-B', '-Dstyle.color=never', '--no-transfer-progress', '-f', pom, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${outputDir}`],
    { stdio: 'inherit' },
  );
}
