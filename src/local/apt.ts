/**
 * Installing a local server's Debian packages on demand: only as root on a machine with apt-get;
 * anywhere else, one line saying what to install (or to give --url).
 */
import { execFileSync } from 'node:child_process';
import { MissingPrerequisiteError, onPath } from './process.ts';

export interface AptPackages {
  /** The packages, as `apt-get install` takes them. */
  readonly packages: readonly string[];
  /** What is missing, as the message's opening words say it (e.g. "redis-server is not installed"). */
  readonly missing: string;
  /** Leave the packages' recommendations out (a server whose recommends pull in much more). */
  readonly noRecommends?: boolean;
}

export function aptInstall(what: AptPackages, log: (line: string) => void, store: string): void {
  const list = what.packages.join(' ');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    throw new MissingPrerequisiteError(
      `${what.missing}; install it (Debian/Ubuntu: sudo apt-get install ${list}) or give --url`,
    );
  }
  log(`${store}: installing ${what.packages.join(' and ')} with apt-get`);
  const install = () =>
    execFileSync(
      'apt-get',
      ['install', '-y', '-qq', ...(what.noRecommends ? ['--no-install-recommends'] : []), ...what.packages],
      { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } },
    );
  try {
    install();
  } catch {
    // A fresh machine may have no package lists yet.
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    install();
  }
}
