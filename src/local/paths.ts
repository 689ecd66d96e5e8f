import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The one docbench cache folder. Everything installed on demand (Cassandra jars, stand-in
 * servers, the k6 binary) and every local server's data, pid file and log live under it,
 * so a build happens once per machine and `docbench down` knows exactly what it started.
 */
export function cacheDir(): string {
  if (process.env.DOCBENCH_CACHE) return process.env.DOCBENCH_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'docbench');
}

/** Where a target's installed software lives (kept across runs). */
export function installDir(target: string): string {
  return join(cacheDir(), 'install', target);
}

/** Where a running target keeps its data, pid file and log (removed by `docbench down --purge`). */
export function runDir(target: string): string {
  return join(cacheDir(), 'run', target);
}
