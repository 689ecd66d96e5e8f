import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { projectPath } from './common/project-root.ts';

const require = createRequire(import.meta.url);

/** docbench's own version, from package.json. */
export function docbenchVersion(): string {
  return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
}

/** Installed version of an npm package (a driver), read from its package.json. */
export function packageVersion(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
