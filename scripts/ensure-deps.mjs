// Shared by the npm scripts that must work on a fresh clone: install the npm dependencies
// (from package-lock.json) when they are missing, before anything imports them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDependencies() {
  if (existsSync(join(root, 'node_modules', '.package-lock.json'))) return;
  console.error('docbench: installing npm dependencies (npm ci)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
