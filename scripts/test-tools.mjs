// The tools some tests need beside the servers, installed the way `docbench up` installs Redis:
// with apt-get when this is a Debian/Ubuntu machine and we are root, once; otherwise one line
// says which tests will be skipped and how to install what they need. Only the tools of the
// test files about to run are looked at, so `node scripts/test.mjs redis` installs nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';

const TOOLS = [
  {
    // The report's browser test renders it in Debian's Chromium (driven by playwright-core).
    name: 'chromium',
    packages: ['chromium'],
    present: () =>
      ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env.CHROMIUM_PATH].some((p) => p && existsSync(p)),
    neededBy: 'report-browser.test.ts',
  },
  {
    // The live metrics test validates a scrape with Prometheus's own promtool.
    name: 'promtool',
    packages: ['prometheus'],
    present: () => spawnSync('promtool', ['--version']).status === 0,
    neededBy: 'metrics.test.ts',
  },
];

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'ignore', env });
  try {
    install();
  } catch {
    // A fresh machine may have no package lists yet.
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    install();
  }
}

/** Install what the selected test files need; a tool that cannot be installed leaves its test to skip, said once. */
export function ensureTestTools(files) {
  const missing = TOOLS.filter((t) => files.some((f) => basename(f) === t.neededBy) && !t.present());
  if (missing.length === 0) return;
  const canInstall = typeof process.getuid === 'function' && process.getuid() === 0 && onPath('apt-get');
  for (const tool of missing) {
    if (!canInstall) {
      console.error(
        `test: ${tool.name} is not installed and cannot be installed here (needs root and apt-get): ${tool.neededBy} will skip its tests; install it with: sudo apt-get install ${tool.packages.join(' ')}`,
      );
      continue;
    }
    console.error(`test: installing ${tool.name} (${tool.packages.join(' ')}) with apt-get, for ${tool.neededBy}`);
    try {
      aptInstall(tool.packages);
    } catch {
      console.error(`test: apt-get could not install ${tool.packages.join(' ')}: ${tool.neededBy} will skip its tests`);
    }
  }
}
