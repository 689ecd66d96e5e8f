/**
 * Local MongoDB: a STAND-IN. No package registry ships MongoDB's server (its licence, the SSPL,
 * keeps it out of Debian and npm), so docbench runs SecantusDB: a server that speaks MongoDB's
 * wire protocol on the WiredTiger storage engine, built from the Rust crate registry with
 * `cargo install secantus-mdb` into the docbench cache (once per machine, a few minutes: it
 * compiles WiredTiger from source, which needs CMake and a C compiler).
 *
 * It runs on 127.0.0.1:27117 (DOCBENCH_MONGODB_PORT moves it) with its data, pid file and log in
 * the cache's run folder, and
 * announces itself as a single-node replica set (as Atlas and most production MongoDB do), so
 * the URL asks for a direct connection to that one node. Every result made on it is labelled:
 * the store's stats() (stats.ts) recognises SecantusDB by its buildInfo, and `info()` says what
 * the numbers cannot show.
 *
 * Stand-in workarounds live here, never in the store's other files:
 *   - STAND-IN WORKAROUND (configuration auto-discovery): secantusd-rs reads the first
 *     `secantusd.toml` it finds in the working directory, `~/.secantus/` or `/etc/secantus/`,
 *     which could turn on auth or TLS behind docbench's back. start() writes its own (empty)
 *     config file and passes it with --config, which skips the search.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { managedServer } from '../../local/managed-server.ts';
import { installDir } from '../../local/paths.ts';
import { localPort, LOOPBACK } from '../../local/ports.ts';
import { MissingPrerequisiteError, StartFailedError } from '../../local/process.ts';
import { answersPing } from './local-target-ping.ts';

const PORT = localPort('mongodb', 27117);
const URL = `mongodb://${LOOPBACK}:${PORT.port}/?directConnection=true`;
const CRATE = 'secantus-mdb';
const VERSION = '0.5.3-beta.196';
const BINARY = 'secantusd-rs';
/** WiredTiger's cache: the daemon's default is 4 GB, too much beside the other local servers. */
const CACHE_SIZE = '1G';

const LIMITS = [
  "SecantusDB is a MongoDB-wire-protocol server, not MongoDB: it stores data in WiredTiger, but its query, index and write paths are its own, so its numbers say nothing about MongoDB's performance",
  'it reports server version 8.2.11 (its own version is in buildInfo.secantusVersion)',
  "an open-ended `$gte` range query costs time in proportion to the whole range up to the last key, not to the documents returned, so workload E scans are much slower than on MongoDB (and explain's executionStats does not show it: it reports only the keys returned)",
  'dbStats and collStats report storageSize equal to the uncompressed data size, not the size of files on disk (all collections share a few WiredTiger tables), dbStats reports fsUsedSize/fsTotalSize as 0, and both count documents, taking time in proportion to the data',
  'write concern `j: true` (mongodb.journal) is accepted but does not wait for a journal flush',
  'one node advertised as a one-member replica set: no replication effects',
].join('; ');

/** `cargo install --root` puts the binary in bin/ under the install folder. */
const binaryPath = () => installDir('mongodb', 'bin', BINARY);

/** The installed binary's version (`secantusd-rs 0.5.3-beta.196`), or null when it does not run. */
function installedVersion(binary: string): string | null {
  try {
    return (
      /^secantusd-rs (\S+)/m.exec(execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 }))?.[1] ??
      null
    );
  } catch {
    return null;
  }
}

function hasCommand(command: string, args: readonly string[] = ['--version']): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** cargo on PATH, else where rustup puts it (its PATH change only reaches new login shells). */
function findCargo(): string | null {
  const candidates = ['cargo', join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin', 'cargo')];
  return candidates.find((c) => hasCommand(c)) ?? null;
}

/**
 * Run cargo, its every line into `logFile` and only a progress line to `log` now and then (every
 * `every` crates compiled): a user sees that the build moves, not cargo's hundreds of lines. A
 * failure names the log and quotes its last lines.
 */
function cargoBuild(
  command: string,
  args: readonly string[],
  log: (line: string) => void,
  logFile: string,
  every = 50,
): Promise<void> {
  return new Promise((resolve, reject) => {
    writeFileSync(logFile, `$ ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const started = Date.now();
    let compiled = 0;
    const forward = (stream: NodeJS.ReadableStream) => {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        pending += chunk;
        const parts = pending.split('\n');
        pending = parts.pop()!;
        for (const part of parts) {
          const line = part.trim();
          if (!line) continue;
          lines.push(line);
          if (/^Compiling /.test(line) && ++compiled % every === 0)
            log(`mongodb: ${compiled} crates compiled (${Math.round((Date.now() - started) / 60_000)} min so far)`);
        }
      });
    };
    forward(child.stdout!);
    forward(child.stderr!);
    child.on('error', reject);
    child.on('close', (code) => {
      writeFileSync(logFile, `$ ${command} ${args.join(' ')}\n${lines.join('\n')}\nexit ${code}\n`);
      if (code === 0) {
        log(
          `mongodb: built (${compiled} crates, ${Math.round((Date.now() - started) / 60_000)} min; cargo's output in ${logFile})`,
        );
        resolve();
      } else
        reject(
          new StartFailedError(
            `${command} ${args[0]} exited with code ${code}; its last lines:\n${lines.slice(-15).join('\n')}\n(all of it in ${logFile})`,
          ),
        );
    });
  });
}

async function install(log: (line: string) => void): Promise<void> {
  const root = installDir('mongodb');
  const buildLog = join(root, 'cargo-install.log');
  if (existsSync(binaryPath()) && installedVersion(binaryPath()) === VERSION) return;
  const cargo = findCargo();
  if (cargo === null) {
    throw new MissingPrerequisiteError(
      `the MongoDB stand-in (SecantusDB) is built with Rust's cargo, which was not found; install Rust (https://rustup.rs, or Debian: apt-get install cargo) or give --url`,
    );
  }
  // WiredTiger is compiled from bundled C sources by secantus-mdb's build script.
  if (!hasCommand('cmake') || !(hasCommand('cc') || hasCommand('gcc') || hasCommand('clang'))) {
    throw new MissingPrerequisiteError(
      'building SecantusDB compiles WiredTiger, which needs CMake and a C compiler (Debian: apt-get install cmake build-essential)',
    );
  }
  mkdirSync(root, { recursive: true });
  log(
    `mongodb: building ${CRATE} ${VERSION} (SecantusDB, the MongoDB stand-in) with cargo into ${root}; about 5 minutes on 2 cores, once`,
  );
  // --locked: the crate's own Cargo.lock, so every machine builds the same dependency versions.
  // --ignore-rust-version: the crate declares a newer minimum Rust than it needs.
  await cargoBuild(
    cargo,
    ['install', CRATE, '--version', VERSION, '--ignore-rust-version', '--locked', '--root', root],
    log,
    buildLog,
  );
  if (!existsSync(binaryPath()))
    throw new StartFailedError(`cargo install finished but ${binaryPath()} is missing; see ${buildLog}`);
}

export const localTarget = managedServer({
  store: 'mongodb',
  program: `SecantusDB ${VERSION} (MongoDB stand-in)`,
  url: URL,
  ports: [PORT],
  recognise: BINARY,
  files: 'secantusd',
  install,
  command({ dir, data }) {
    const config = join(dir, 'secantusd.toml');
    // STAND-IN WORKAROUND (configuration auto-discovery): see the header.
    writeFileSync(
      config,
      '# Written by docbench: passing this file with --config stops secantusd-rs searching for another.\n',
    );
    return {
      command: binaryPath(),
      args: [
        '--config',
        config,
        '--host',
        LOOPBACK,
        '--port',
        String(PORT.port),
        '--storage-path',
        data,
        '--log-level',
        'WARNING',
        '--cache-size',
        CACHE_SIZE,
      ],
    };
  },
  healthy: () => answersPing(URL),
  startTimeoutMs: 60_000,
  pollMs: 500,
  // SIGTERM makes it take a final WiredTiger checkpoint before it exits.
  stopGraceMs: 30_000,
  // Nothing a study runs is beyond it: YCSB A–H, the persons and e-commerce queries (slower in places: LIMITS).
  info: async () => ({ store: 'mongodb', product: `SecantusDB ${VERSION}`, standIn: true, limits: LIMITS, cannot: {} }),
});
