#!/usr/bin/env node
// docbench runs compiled JavaScript (dist/), made from its TypeScript sources by tsc (one file
// per source file, with the same layout, so resources are found the same way from either tree).
// `node scripts/build.mjs` (npm run build; npm's prepack, so a packed or published docbench
// carries a clean build) builds afresh. In a development checkout, bin/docbench.js calls
// buildIfStale() on every start: a build of other sources than these must never run silently,
// so a checkout with the compiler rebuilds (one line on stderr) and one without it refuses.
// An installed package never comes here (bin/docbench.js says how it knows one): it runs the
// build it was packed with, and does not ship this script.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp.json');
/** What the build reads: the compiled folders, and the settings that shape the output. */
const SOURCE_DIRS = ['src', 'scenarios', join('k6', 'lib')];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json'];

/** The files the build reads, as sorted paths relative to the root with `/` separators. */
function sourceFiles() {
  const files = [...SOURCE_FILES];
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.ts'))
        files.push(relative(root, join(entry.parentPath ?? entry.path, entry.name)));
    }
  }
  return files.map((f) => f.split(sep).join('/')).sort();
}

/**
 * A content hash of the sources, and one of their names: what the build compiled, whatever the
 * files' modification times say (a checkout, a branch switch, an unpacking or a copy sets them
 * anew without changing a byte; an edit undone leaves a newer time and the same build).
 * Hashing about 400 files takes some 25 ms on a 2-core machine.
 */
function sourceState() {
  const files = sourceFiles();
  const content = createHash('sha256');
  for (const file of files) {
    content.update(`${file}\0`);
    content.update(readFileSync(join(root, file)));
    content.update('\0');
  }
  return {
    files: files.length,
    names: createHash('sha256').update(files.join('\n')).digest('hex'),
    content: content.digest('hex'),
  };
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why the build cannot run as it is, or undefined when it was made from exactly these sources. */
export function staleness() {
  const stamp = readStamp();
  // A stamp without a content hash was written by an older build script.
  if (stamp?.content === undefined || !existsSync(join(dist, 'src', 'cli', 'main.js'))) return 'docbench is not built';
  const now = sourceState();
  if (now.names !== stamp.names) return 'source files were added or removed since the last build';
  if (now.content !== stamp.content) return 'sources changed since the last build';
  return undefined;
}

/** docbench's own TypeScript (a development dependency), never one found further up the tree. */
function compilerPath() {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return existsSync(tsc) ? tsc : undefined;
}

/** Compile into dist/; returns tsc's exit status. Errors are tsc's own (file, line, message). */
export function build({ clean = false } = {}) {
  const tsc = compilerPath();
  if (tsc === undefined) {
    process.stderr.write('docbench: cannot build: TypeScript is not installed (npm ci installs it)\n');
    return 2;
  }
  const state = sourceState(); // before compiling: an edit made during the build leaves it stale
  if (clean) rmSync(dist, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) return result.status ?? 1;
  mkdirSync(dist, { recursive: true });
  writeFileSync(stampFile, `${JSON.stringify(state)}\n`);
  return 0;
}

/**
 * Called by bin/docbench.js before it imports dist/. Several docbench processes may start at
 * once (a test, a sweep): one builds under a lock folder while the others wait for it.
 */
export function buildIfStale() {
  const reason = staleness();
  if (reason === undefined) return;
  if (compilerPath() === undefined) {
    process.stderr.write(`docbench: ${reason}: run \`npm run build\`\n`);
    process.exit(2);
  }
  const lock = join(root, '.build-lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock left by a build that died is older than any build takes.
      if (Date.now() > deadline || Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 120_000)
        rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    const still = staleness();
    if (still === undefined) return;
    process.stderr.write(`docbench: ${still}: building (npm run build)\n`);
    const status = build();
    if (status !== 0) process.exit(status);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(build({ clean: true }));
}
