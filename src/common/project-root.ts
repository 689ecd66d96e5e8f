/**
 * docbench's own folder: where package.json, bin/, fixtures/, k6/ and docker/ are. Found once,
 * by walking up from this module to the first package.json, so the same code finds its
 * resources whether it runs from the TypeScript sources (src/common/) or from the compiled tree
 * (dist/src/common/), which sits one level deeper.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: docbench's files are incomplete`);
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside docbench's folder: `projectPath('fixtures', 'workloads')`. */
export function projectPath(...parts: string[]): string {
  return join(PROJECT_ROOT, ...parts);
}
