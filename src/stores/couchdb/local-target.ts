/**
 * Local CouchDB: a STAND-IN. No package registry ships Apache CouchDB, so docbench runs
 * pouchdb-server (the CouchDB HTTP API on PouchDB over LevelDB) from npm, on 127.0.0.1:15984
 * (DOCBENCH_COUCHDB_PORT moves it), installed into its own folder of the docbench cache (never
 * into docbench's node_modules).
 *
 * It is configured the way a real CouchDB 3.x is used: with a server admin, so the store's
 * credentials travel in the URL exactly as they would against CouchDB.
 *
 * Stand-in workarounds live here, never in the store's other files:
 *   - STAND-IN WORKAROUND (npm install-script policy): leveldown, the native LevelDB binding, has
 *     an install script (node-gyp-build: use a prebuilt binary or compile one). npm may block
 *     dependency install scripts unless the project allows them, so the install folder gets its
 *     own package.json whose `allowScripts` allows exactly that package.
 *   - STAND-IN WORKAROUND (pouchdb-server issue #374): a PUT /{db} sent WITHOUT admin
 *     credentials while an admin is configured crashes the whole server ("db.info is not a
 *     function"). The local URL always carries the admin credentials, so docbench never sends one;
 *     the limits line tells users who point other tools at it.
 *   - STAND-IN WORKAROUND (port check): pouchdb-server keeps running when its port is taken, so
 *     a start would "succeed" against whatever answers there. The port check every local server
 *     gets before it starts (src/local/managed-server.ts) refuses up front instead, naming the
 *     program that holds the port.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { managedServer } from '../../local/managed-server.ts';
import { installDir } from '../../local/paths.ts';
import { localPort, LOOPBACK } from '../../local/ports.ts';
import { MissingPrerequisiteError, StartFailedError } from '../../local/process.ts';

const PORT = localPort('couchdb', 15984);
/** The admin the stand-in is configured with; loopback-only, like every local target. */
const ADMIN_USER = 'admin';
const ADMIN_PASSWORD = 'password';
const URL = `http://${ADMIN_USER}:${ADMIN_PASSWORD}@${LOOPBACK}:${PORT.port}`;
const PLAIN_URL = `http://${LOOPBACK}:${PORT.port}`;
const AUTH_HEADER = `Basic ${Buffer.from(`${ADMIN_USER}:${ADMIN_PASSWORD}`).toString('base64')}`;

const SERVER_VERSION = '4.2.0';
/**
 * What goes into the install folder. pouchdb-adapter-leveldb is only an optional dependency of
 * pouchdb-server, yet the server cannot start without it; listing it here (a direct dependency)
 * keeps it while `--omit=optional` skips the SQLite adapter, whose native build takes minutes.
 */
const INSTALL_MANIFEST = {
  name: 'docbench-couchdb-stand-in',
  private: true,
  description: 'pouchdb-server, installed by docbench as a local stand-in for Apache CouchDB',
  dependencies: { 'pouchdb-server': SERVER_VERSION, 'pouchdb-adapter-leveldb': '7.3.1' },
  allowScripts: { leveldown: true },
};
const DONE_MARKER = `pouchdb-server ${SERVER_VERSION} + pouchdb-adapter-leveldb 7.3.1\n`;

const LIMITS = [
  'pouchdb-server is a CouchDB-API stand-in on PouchDB/LevelDB, not Apache CouchDB: numbers say nothing about CouchDB',
  'views build slowly on first query',
  '`_find` returns no bookmark',
  'database info has no `sizes` object, only the pre-3.0 `disk_size` (the LevelDB folder size)',
  'no `/_node/_local/_system`, so no memory figure',
  'HEAD on a document returns a body ETag, not the revision',
  'creating a database without admin credentials crashes the server (pouchdb-server #374)',
].join('; ');

const installed = () => {
  const dir = installDir('couchdb');
  return {
    dir,
    manifest: join(dir, 'package.json'),
    done: join(dir, '.docbench-installed'),
    npmLog: join(dir, 'npm-install.log'),
    serverScript: join(dir, 'node_modules', 'pouchdb-server', 'bin', 'pouchdb-server'),
    serverPackage: join(dir, 'node_modules', 'pouchdb-server', 'package.json'),
  };
};

/** GET / answered with CouchDB's welcome object (any server that speaks the API). */
async function welcome(timeoutMs = 1000): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetch(`${PLAIN_URL}/`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    const body = (await response.json()) as Record<string, unknown>;
    return typeof body.version === 'string' ? body : null;
  } catch {
    return null;
  }
}

/** True when the configured admin can log in (the URL's credentials work). */
async function adminLoginWorks(): Promise<boolean> {
  const response = await fetch(`${PLAIN_URL}/_session`, {
    headers: { authorization: AUTH_HEADER },
    signal: AbortSignal.timeout(2000),
  });
  if (!response.ok) return false;
  const body = (await response.json()) as { userCtx?: { roles?: string[] } };
  return body.userCtx?.roles?.includes('_admin') === true;
}

function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; logFile?: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, maxBuffer: 64 * 1024 * 1024, shell: process.platform === 'win32' },
      (error, stdout, stderr) => {
        if (options.logFile) writeFileSync(options.logFile, `$ ${command} ${args.join(' ')}\n${stdout}${stderr}`);
        if (error) reject(Object.assign(error, { stderr }));
        else resolve();
      },
    );
  });
}

/**
 * The config file backing pouchdb-server's /_config: the admin (a plain-text password here is
 * hashed by the server at start-up, as CouchDB does with local.ini) and the log file, so nothing
 * is written to the current directory.
 */
function writeConfig(file: string, serverLog: string): void {
  let config: Record<string, Record<string, unknown>> = {};
  if (existsSync(file)) {
    try {
      config = JSON.parse(readFileSync(file, 'utf8')) as typeof config;
    } catch {
      config = {};
    }
  }
  config.admins = { ...config.admins };
  if (typeof config.admins[ADMIN_USER] !== 'string') config.admins[ADMIN_USER] = ADMIN_PASSWORD;
  config.log = { ...config.log, file: serverLog };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
}

async function install(log: (line: string) => void): Promise<void> {
  const i = installed();
  if (existsSync(i.done) && existsSync(i.serverScript)) return;
  mkdirSync(i.dir, { recursive: true });
  writeFileSync(i.manifest, `${JSON.stringify(INSTALL_MANIFEST, null, 2)}\n`);
  log(`couchdb: installing pouchdb-server ${SERVER_VERSION} (CouchDB API stand-in) with npm into ${i.dir}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    await runCommand(npm, ['install', '--omit=optional', '--no-audit', '--no-fund', '--loglevel=warn'], {
      cwd: i.dir,
      logFile: i.npmLog,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new MissingPrerequisiteError(
        'npm was not found; it comes with Node.js (https://nodejs.org), install it or give --url',
      );
    }
    throw new StartFailedError(`npm install of pouchdb-server failed; see ${i.npmLog}`);
  }
  // leveldown is native: a prebuilt binary for common platforms, else compiled at install time.
  try {
    await runCommand(process.execPath, ['-e', "require('leveldown')"], { cwd: i.dir });
  } catch (error) {
    const reason =
      String((error as { stderr?: string }).stderr ?? error)
        .split('\n')
        .find((l) => l.includes('Error')) ?? '';
    throw new MissingPrerequisiteError(
      `leveldown (LevelDB's native binding, needed by pouchdb-server) does not load: ${reason.trim()}; ` +
        `where no prebuilt binary exists it is compiled at install time, which needs python3, make and a C++ compiler ` +
        `(Debian/Ubuntu: sudo apt-get install python3 make g++), then delete ${i.dir} and start again`,
    );
  }
  writeFileSync(i.done, DONE_MARKER);
}

function version(): string {
  try {
    return (JSON.parse(readFileSync(installed().serverPackage, 'utf8')) as { version: string }).version;
  } catch {
    return SERVER_VERSION; // not installed yet: the version that will be
  }
}

export const localTarget = managedServer({
  store: 'couchdb',
  program: 'pouchdb-server (CouchDB API stand-in)',
  url: URL,
  ports: [PORT],
  recognise: 'pouchdb-server',
  // pouchdb-server.log holds start-up messages and crashes; its request log is couch.log.
  files: 'pouchdb-server',
  install,
  command({ dir, data }) {
    const config = join(dir, 'config.json');
    writeConfig(config, join(dir, 'couch.log'));
    // -n: request log lines go to couch.log only, not echoed to stdout as well.
    return {
      command: process.execPath,
      args: [
        installed().serverScript,
        '--host',
        LOOPBACK,
        '--port',
        String(PORT.port),
        '--dir',
        data,
        '--config',
        config,
        '-n',
        '--no-color',
      ],
    };
  },
  healthy: async () => (await welcome()) !== null,
  async verify(dir) {
    if (!(await adminLoginWorks())) {
      throw new StartFailedError(
        `pouchdb-server runs but the admin login ${ADMIN_USER} fails; check "admins" in ${join(dir, 'config.json')}`,
      );
    }
  },
  startTimeoutMs: 30_000,
  info: async () => ({
    store: 'couchdb',
    product: `pouchdb-server ${version()} (CouchDB HTTP API on PouchDB/LevelDB)`,
    standIn: true,
    limits: LIMITS,
    // Nothing a study runs is beyond it: YCSB A–H, the persons and e-commerce queries (slower in places: LIMITS).
    cannot: {},
  }),
});
