/**
 * k6, the load generator of end-to-end mode. k6 is in neither npm (only a placeholder package)
 * nor Debian, so docbench builds it once per machine from the Go module proxy with
 * `go install go.k6.io/k6@<version>` and keeps the binary in the cache folder next to the local
 * servers. Every Go path of the build (module cache, build cache, GOPATH) points into a scratch
 * folder under that install folder, so nothing lands in the user's Go workspace; the scratch
 * folder is removed once the binary is there (it is hundreds of MB, and only the binary is used).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installDir } from './paths.ts';
import { MissingPrerequisiteError, StartFailedError, withLockFile } from './process.ts';

export const K6_VERSION = 'v1.8.1';
const MODULE = 'go.k6.io/k6';
/** A cold build takes about 6 minutes on 2 idle cores; a busy machine can take several times that. */
const BUILD_TIMEOUT_MS = 60 * 60_000;

const paths = () => {
  const dir = installDir('k6');
  const scratch = join(dir, 'build');
  return {
    dir,
    binary: join(dir, process.platform === 'win32' ? 'k6.exe' : 'k6'),
    /** Written after a build whose binary answered `k6 version`: names the version it holds. */
    done: join(dir, '.docbench-installed'),
    /** Held while a build runs, so parallel callers (test files, two terminals) wait for it. */
    lock: join(dir, 'install.lock'),
    log: join(dir, 'go-install.log'),
    scratch,
    gopath: join(scratch, 'gopath'),
    gocache: join(scratch, 'gocache'),
  };
};

/** The cached k6 binary if it is installed at the pinned version, else null. */
export function installedK6(): string | null {
  const p = paths();
  if (!existsSync(p.binary) || !existsSync(p.done)) return null;
  return readFileSync(p.done, 'utf8').trim() === K6_VERSION ? p.binary : null;
}

/** The Go toolchain's version (`go1.24.2`), or null when `go` is not on PATH. */
function goVersion(): string | null {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim() || 'unknown';
}

function runGoInstall(p: ReturnType<typeof paths>): Promise<number | null> {
  mkdirSync(p.gopath, { recursive: true });
  mkdirSync(p.gocache, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GOBIN: p.dir,
    GOPATH: p.gopath,
    GOMODCACHE: join(p.gopath, 'pkg', 'mod'),
    GOCACHE: p.gocache,
    // -modcacherw: the module cache is writable, so the scratch folder can simply be deleted.
    // -trimpath: no local paths inside the binary. A user's own GOFLAGS would not apply to this
    // build anyway (it is ours, not their workspace), so they are replaced, not merged.
    GOFLAGS: '-modcacherw -trimpath -buildvcs=false',
    // k6's releases are static binaries; no C compiler is needed.
    CGO_ENABLED: '0',
  };
  const log = openSync(p.log, 'w');
  try {
    const child = spawn('go', ['install', `${MODULE}@${K6_VERSION}`], { env, stdio: ['ignore', log, log] });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => resolve(code));
    });
  } finally {
    closeSync(log);
  }
}

function binaryVersion(binary: string): string | null {
  const result = spawnSync(binary, ['version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  return /k6 (v[\d.]+)/.exec(result.stdout)?.[1] ?? null;
}

/**
 * Build k6 into the cache folder unless it is already there; idempotent, and safe to call from
 * several processes at once (one builds, the others wait for its result). Returns the binary.
 */
export async function installK6(log: (line: string) => void): Promise<string> {
  const ready = installedK6();
  if (ready) return ready;
  const p = paths();
  if (existsSync(p.lock))
    log(`k6: another docbench process is building k6 ${K6_VERSION}; waiting for it (log: ${p.log})`);
  return withLockFile(p.lock, () => build(p, log), BUILD_TIMEOUT_MS);
}

async function build(p: ReturnType<typeof paths>, log: (line: string) => void): Promise<string> {
  // The build we waited for may have finished it.
  const built = installedK6();
  if (built) return built;
  const go = goVersion();
  if (go === null) {
    throw new MissingPrerequisiteError(
      `k6 is built from source and that needs Go, which was not found on PATH; install Go 1.24 or newer ` +
        `(https://go.dev/dl, or Debian/Ubuntu: sudo apt-get install golang-go if its version is recent enough), then run again`,
    );
  }
  log(
    `k6: building k6 ${K6_VERSION} with ${go} (go install ${MODULE}@${K6_VERSION}); takes several minutes, once per machine; log: ${p.log}`,
  );
  const code = await runGoInstall(p);
  if (code !== 0) {
    const output = existsSync(p.log) ? readFileSync(p.log, 'utf8') : '';
    const needs = /requires go >= ([\d.]+)/.exec(output)?.[1];
    if (needs)
      throw new MissingPrerequisiteError(
        `k6 ${K6_VERSION} needs Go ${needs} or newer to build, and ${go} was found; install a newer Go (https://go.dev/dl)`,
      );
    throw new StartFailedError(`go install ${MODULE}@${K6_VERSION} failed (exit ${code}); see ${p.log}`);
  }
  const version = binaryVersion(p.binary);
  if (version !== K6_VERSION)
    throw new StartFailedError(
      `the k6 built into ${p.binary} reports ${version ?? 'no version'}, expected ${K6_VERSION}; see ${p.log}`,
    );
  writeFileSync(p.done, `${K6_VERSION}\n`);
  rmSync(p.scratch, { recursive: true, force: true });
  log(`k6: ${K6_VERSION} ready at ${p.binary}`);
  return p.binary;
}
