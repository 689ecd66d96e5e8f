/**
 * FerretDB is in neither npm nor Debian, so docbench builds it once per machine from the Go module
 * proxy, as it builds k6 (src/local/k6.ts), and keeps the binary in the cache folder.
 *
 * `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` builds a binary that panics at
 * its start: FerretDB embeds its version from `build/version/version.txt`, a file its release
 * process writes and the module does not carry. So the build downloads the module
 * (`go mod download`), copies its source into a scratch folder, writes the version there, and runs
 * `go build ./cmd/ferretdb`. Every Go path (module cache, build cache, GOPATH) points into that
 * scratch folder, which is removed once the binary answers `--version` (hundreds of MB).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installDir } from '../../local/paths.ts';
import { MissingPrerequisiteError, StartFailedError, withLockFile } from '../../local/process.ts';

export const FERRETDB_VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';
/** A cold build takes minutes on 2 cores (docs/stores.md has the figure); a busy machine several times that. */
const BUILD_TIMEOUT_MS = 60 * 60_000;

const paths = () => {
  const dir = installDir('ferretdb');
  const scratch = join(dir, 'build');
  return {
    dir,
    binary: join(dir, 'ferretdb'),
    /** Written after a build whose binary answered `--version`: names the version it holds. */
    done: join(dir, '.docbench-installed'),
    lock: join(dir, 'install.lock'),
    log: join(dir, 'go-build.log'),
    scratch,
    gopath: join(scratch, 'gopath'),
    gocache: join(scratch, 'gocache'),
    /** An empty module to run `go mod download` in. */
    host: join(scratch, 'host'),
    source: join(scratch, 'source'),
  };
};
type Paths = ReturnType<typeof paths>;

/** The cached binary if it is built at the pinned version, else null. */
export function installedFerretdb(): string | null {
  const p = paths();
  if (!existsSync(p.binary) || !existsSync(p.done)) return null;
  return readFileSync(p.done, 'utf8').trim() === FERRETDB_VERSION ? p.binary : null;
}

function goVersion(): string | null {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim() || 'unknown';
}

function goEnv(p: Paths): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GOPATH: p.gopath,
    GOMODCACHE: join(p.gopath, 'pkg', 'mod'),
    GOCACHE: p.gocache,
    // The module cache writable, so the scratch folder can simply be deleted; no local paths in
    // the binary. Ours, not the user's workspace: their GOFLAGS are replaced, not merged.
    GOFLAGS: '-modcacherw -trimpath -buildvcs=false',
    // FerretDB's releases are static binaries (its SQLite is the pure-Go modernc one).
    CGO_ENABLED: '0',
    GOWORK: 'off',
  };
}

/** Run a go command, its output appended to the build log; resolves with its exit code. */
function go(p: Paths, args: readonly string[], cwd: string): Promise<number | null> {
  const log = openSync(p.log, 'a');
  try {
    writeFileSync(p.log, `$ go ${args.join(' ')}\n`, { flag: 'a' });
    const child = spawn('go', args, { cwd, env: goEnv(p), stdio: ['ignore', log, log] });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) => resolve(code));
    });
  } finally {
    closeSync(log);
  }
}

/** The module's folder in the scratch module cache, from `go mod download -json`. */
function downloadedDir(p: Paths): string {
  const result = spawnSync('go', ['mod', 'download', '-json', `${MODULE}@${FERRETDB_VERSION}`], {
    cwd: p.host,
    env: goEnv(p),
    encoding: 'utf8',
  });
  let dir: unknown;
  try {
    dir = (JSON.parse(result.stdout) as { Dir?: unknown; Error?: unknown }).Dir;
  } catch {
    dir = undefined;
  }
  if (result.status !== 0 || typeof dir !== 'string')
    throw new StartFailedError(
      `go mod download ${MODULE}@${FERRETDB_VERSION} failed: ${(result.stdout + result.stderr).trim().split('\n').slice(-3).join(' ')}`,
    );
  return dir;
}

function binaryVersion(binary: string): string | null {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (result.error || result.status !== 0) return null;
  return /version:\s*(v[\w.-]+)/.exec(result.stdout + result.stderr)?.[1] ?? null;
}

/** Build FerretDB into the cache folder unless it is there; idempotent, safe from several processes at once. */
export async function installFerretdb(log: (line: string) => void): Promise<string> {
  const ready = installedFerretdb();
  if (ready) return ready;
  const p = paths();
  mkdirSync(p.dir, { recursive: true });
  if (existsSync(p.lock))
    log(`ferretdb: another docbench process is building FerretDB; waiting for it (log: ${p.log})`);
  return withLockFile(p.lock, () => build(p, log), BUILD_TIMEOUT_MS);
}

async function build(p: Paths, log: (line: string) => void): Promise<string> {
  const built = installedFerretdb();
  if (built) return built;
  const version = goVersion();
  if (version === null)
    throw new MissingPrerequisiteError(
      `FerretDB is built from source and that needs Go, which was not found on PATH; install Go 1.22 or newer (https://go.dev/dl, or Debian: apt-get install golang-go), or give --url`,
    );
  const started = Date.now();
  log(
    `ferretdb: building FerretDB ${FERRETDB_VERSION} with ${version} from the Go module proxy; takes several minutes, once per machine; log: ${p.log}`,
  );
  rmSync(p.scratch, { recursive: true, force: true });
  mkdirSync(p.host, { recursive: true });
  writeFileSync(p.log, '');
  writeFileSync(join(p.host, 'go.mod'), 'module docbench.local/ferretdb-build\n\ngo 1.21\n');
  const module = downloadedDir(p);
  cpSync(module, p.source, { recursive: true });
  // What FerretDB's release build writes, and the module lacks (see the header).
  writeFileSync(join(p.source, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
  const code = await go(p, ['build', '-o', p.binary, './cmd/ferretdb'], p.source);
  if (code !== 0) {
    const output = existsSync(p.log) ? readFileSync(p.log, 'utf8') : '';
    const needs = /requires go >= ([\d.]+)/.exec(output)?.[1];
    if (needs)
      throw new MissingPrerequisiteError(
        `FerretDB ${FERRETDB_VERSION} needs Go ${needs} or newer to build, and ${version} was found; install a newer Go (https://go.dev/dl)`,
      );
    throw new StartFailedError(`go build of FerretDB ${FERRETDB_VERSION} failed (exit ${code}); see ${p.log}`);
  }
  const answered = binaryVersion(p.binary);
  if (answered !== FERRETDB_VERSION)
    throw new StartFailedError(
      `the FerretDB built into ${p.binary} reports ${answered ?? 'no version'}, expected ${FERRETDB_VERSION}; see ${p.log}`,
    );
  writeFileSync(p.done, `${FERRETDB_VERSION}\n`);
  rmSync(p.scratch, { recursive: true, force: true });
  log(
    `ferretdb: FerretDB ${FERRETDB_VERSION} ready at ${p.binary} (built in ${Math.round((Date.now() - started) / 1000)} s)`,
  );
  return p.binary;
}
