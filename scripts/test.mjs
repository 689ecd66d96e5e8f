#!/usr/bin/env node
// `npm test`: everything the tests need, then the tests. On a fresh machine this installs the
// npm dependencies, installs and starts the local servers (docbench up) and the tools some tests
// use (Chromium, promtool: scripts/test-tools.mjs), and runs unit and
// integration tests with node's own test runner. Servers it had to start are stopped again
// under CI, so a CI run leaves the machine as it found it.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDependencies, root } from './ensure-deps.mjs';
import { buildIfStale } from './build.mjs';
import { ensureTestTools } from './test-tools.mjs';

const run = (command, args, options = {}) => spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
ensureDependencies();

// Strict typecheck first: a type error is a failing test, not a surprise in production.
console.error('test: typecheck (tsc --noEmit)');
if (
  run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', root]).status !== 0
) {
  console.error('test: typecheck failed');
  process.exit(1);
}
// One formatter: code that Prettier would change fails the tests, as a type error does.
console.error('test: format check (prettier --check .)');
if (
  run(process.execPath, [
    join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
    '--check',
    '--log-level=warn',
    '.',
  ]).status !== 0
) {
  console.error('test: some files are not formatted: run npm run format');
  process.exit(1);
}
// The CLI the tests start runs the compiled tree: bring it up to date once, before any test.
buildIfStale();

const docbench = (args, options) => run(process.execPath, [join(root, 'bin', 'docbench.js'), ...args], options);
// `docbench status --json` lists every local store (the STORES table is the one list of them) and
// whether it runs; DOCBENCH_TEST_STORES=redis,cassandra narrows the tests and the servers started.
const servers = JSON.parse(
  execFileSync(process.execPath, [join(root, 'bin', 'docbench.js'), 'status', '--json'], {
    cwd: root,
    encoding: 'utf8',
  }),
);
const localStores = servers.map((server) => server.store);
const targets = process.env.DOCBENCH_TEST_STORES
  ? process.env.DOCBENCH_TEST_STORES.split(',').filter(Boolean)
  : localStores;
const wasRunning = new Set(servers.filter((server) => server.running).map((server) => server.store));
console.error(`test: starting local servers (${targets.join(', ')})`);
if (docbench(['up', ...targets]).status !== 0) {
  console.error('test: a local server did not start; see the message above');
  process.exit(1);
}

const files = ['unit', 'integration'].flatMap((dir) =>
  readdirSync(join(root, 'test', dir))
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => join('test', dir, f)),
);
const filter = process.argv.slice(2);
const selected = filter.length > 0 ? files.filter((f) => filter.some((s) => f.includes(s))) : files;
ensureTestTools(selected);
// Unit tests share nothing, so two files run at once (each its own process); integration tests
// share the local servers and their tables, so they run one file at a time.
const phases = [
  { name: 'unit', concurrency: 2, files: selected.filter((f) => f.startsWith(join('test', 'unit'))) },
  { name: 'integration', concurrency: 1, files: selected.filter((f) => f.startsWith(join('test', 'integration'))) },
].filter((phase) => phase.files.length > 0);
const failed = [];
for (const phase of phases) {
  console.error(`test: ${phase.name} tests (${phase.files.length} file${phase.files.length === 1 ? '' : 's'})`);
  const result = run(process.execPath, [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${phase.concurrency}`,
    ...phase.files,
  ]);
  if (result.status !== 0) failed.push(phase.name);
}
console.error(
  failed.length > 0
    ? `test: ${failed.join(' and ')} tests failed (see their summaries above)`
    : `test: ${phases.map((phase) => phase.name).join(' and ')} tests passed`,
);

if (process.env.CI) {
  const started = targets.filter((t) => !wasRunning.has(t));
  if (started.length > 0) docbench(['down', ...started]);
}
process.exit(failed.length > 0 ? 1 : 0);
