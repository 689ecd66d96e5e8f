/**
 * HdrHistogram's own Java log reader (the reference implementation of the interval log format),
 * fetched from Maven Central into docbench's cache folder once (Maven), and run from source
 * (fixtures/hdrhistogram/ReadLogs.java, a JDK's single-file launch): what it reads back from a
 * log is what HdrHistogram's tools (HistogramLogProcessor, HistogramLogAnalyzer) see.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fetchWithMaven, findJava, hasJavaCompiler } from '../../src/local/java.ts';
import { installDir } from '../../src/local/paths.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'hdrhistogram');

export interface ReadInterval {
  startMs: number;
  endMs: number;
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface ReadLog {
  file: string;
  intervals: ReadInterval[];
  total: number;
  startTimeSec: number;
}

/** The HdrHistogram jar, fetched on first use. */
function hdrHistogramJar(): string {
  const dir = installDir('hdrhistogram');
  const find = () => (existsSync(dir) ? readdirSync(dir).find((f) => /^HdrHistogram-.*\.jar$/.test(f)) : undefined);
  if (find() === undefined) fetchWithMaven(join(FIXTURES, 'pom.xml'), dir, "HdrHistogram's Java library");
  const jar = find();
  if (jar === undefined) throw new Error(`no HdrHistogram jar in ${dir} after fetching it`);
  return join(dir, jar);
}

/** Read logs with HdrHistogram's Java HistogramLogReader. */
export function readLogsWithJava(files: readonly string[]): ReadLog[] {
  const java = findJava((path, major) => major >= 11 && hasJavaCompiler(path));
  if (java === null)
    throw new Error(
      'a JDK 11+ is needed to read HdrHistogram logs with the Java reader (Debian: apt-get install openjdk-17-jdk-headless)',
    );
  const out = execFileSync(java, ['-cp', hdrHistogramJar(), join(FIXTURES, 'ReadLogs.java'), ...files], {
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ReadLog);
}
