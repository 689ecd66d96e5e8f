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

/** Where a target's installed software lives (kept across runs), or a path inside it. */
export function installDir(target: string, ...inside: string[]): string {
  return join(cacheDir(), 'install', target, ...inside);
}

/** Where a running target keeps its data, pid file and log (removed by `docbench down --purge`). */
export function runDir(target: string): string {
  return join(cacheDir(), 'run', target);
}

/**
 * The run folder of one local server: `run/<store>`, or `run/<store>-<port>` for a server moved
 * off its default port (DOCBENCH_<STORE>_PORT), which is another instance with its own data and
 * pid file, so it never takes the default server's pid file for its own.
 */
export function serverRunDir(store: string, port: { port: number; moved: boolean }): string {
  return runDir(port.moved ? `${store}-${port.port}` : store);
}
