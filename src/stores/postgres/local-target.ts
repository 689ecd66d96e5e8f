/**
 * Local PostgreSQL: the Debian package's binaries (`apt-get install postgresql` where missing),
 * our own cluster made by `initdb` with a password, on 127.0.0.1:15432 (DOCBENCH_POSTGRES_PORT
 * moves it), its log in docbench's run folder. A system PostgreSQL on 5432 is left alone. The real
 * server, so there is no stand-in workaround here; the cluster keeps PostgreSQL's defaults (fsync,
 * synchronous_commit, shared_buffers) as a fresh install has them, except:
 *
 *   - max_connections 300, since docbench opens a pool per worker process and a wide run would
 *     otherwise be refused connections (a setting every real deployment tunes too);
 *   - UTF8 with the C.UTF-8 locale, so the cluster's default collation is the same on every
 *     machine; the scenarios' dialects name the collation their answers need in each query, so
 *     a user's server with another default gives the same answers.
 *
 * PostgreSQL refuses to run as root. When docbench runs as root, the server runs as the
 * `postgres` system user (the Debian package's), through setpriv, which execs it (so the pid file
 * holds the postmaster's own pid), and its data directory lives in that user's home, since root's
 * home is closed to other users.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aptInstall } from '../../local/apt.ts';
import { managedServer } from '../../local/managed-server.ts';
import { localPort, LOOPBACK, tcpProbe } from '../../local/ports.ts';
import { MissingPrerequisiteError, onPath, StartFailedError } from '../../local/process.ts';
import type { LocalTarget } from '../../local/target.ts';

const PORT = localPort('postgres', 15432);

/** The cluster's superuser and its password: a local server on the loopback interface only. */
export const LOCAL_USER = 'docbench';
export const LOCAL_PASSWORD = 'docbench';
/** The database docbench's runs use on the local server (made at the first start). */
export const LOCAL_DATABASE = 'docbench';

/** The local server's URL for a database on it (FerretDB keeps its own database there). */
export function localPostgresUrl(database: string = LOCAL_DATABASE): string {
  return `postgres://${LOCAL_USER}:${LOCAL_PASSWORD}@${LOOPBACK}:${PORT.port}/${database}`;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Where the server's programs are: on PATH, else Debian's versioned folder (the newest). */
function binDir(): string | undefined {
  if (onPath('initdb') && onPath('postgres')) {
    try {
      return execFileSync('sh', ['-c', 'dirname "$(readlink -f "$(command -v postgres)")"'], {
        encoding: 'utf8',
      }).trim();
    } catch {
      return undefined;
    }
  }
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], 'bin');
}

function program(name: 'initdb' | 'postgres'): string {
  const dir = binDir();
  if (dir === undefined) throw new MissingPrerequisiteError('postgres: the PostgreSQL server is not installed');
  return join(dir, name);
}

async function install(log: (line: string) => void): Promise<void> {
  if (binDir() !== undefined) return;
  aptInstall(
    { packages: ['postgresql'], missing: 'postgres: the PostgreSQL server is not installed', noRecommends: true },
    log,
    'postgres',
  );
}

function version(): string {
  try {
    return /([\d.]+)/.exec(execFileSync(program('postgres'), ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  } catch {
    return 'not installed';
  }
}

/** The `postgres` system user's uid, gid and home (root runs the server as it). */
function systemUser(): { uid: number; gid: number; home: string } {
  try {
    const [, , uid, gid, , home] = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' })
      .trim()
      .split(':');
    return { uid: Number(uid), gid: Number(gid), home: home ?? '/var/lib/postgresql' };
  } catch {
    throw new MissingPrerequisiteError(
      'postgres: docbench runs as root, and PostgreSQL refuses to; it runs the server as the "postgres" system user, which does not exist (the Debian package creates it: apt-get install postgresql), or give --url',
    );
  }
}

/** The cluster's data directory: in the run folder, or (as root) in the postgres user's home. */
function dataDir(data: string): string {
  if (!isRoot()) return join(data, 'cluster');
  return join(systemUser().home, 'docbench', `cluster-${PORT.port}`);
}

/** How a program is run: as ourselves, or as root through setpriv as the postgres user (exec'd, same pid). */
function asServerUser(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (!isRoot()) return { command, args: [...args] };
  return {
    command: 'setpriv',
    args: ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args],
  };
}

/**
 * `initdb` once: UTF8, C.UTF-8, password logins (scram-sha-256) for every connection, the
 * superuser LOCAL_USER with LOCAL_PASSWORD. As root, the cluster's folder and its parent are
 * given to the postgres user. (Also the fault tests' private servers' cluster.)
 */
export function initCluster(cluster: string): void {
  if (existsSync(join(cluster, 'PG_VERSION'))) return;
  rmSync(cluster, { recursive: true, force: true });
  mkdirSync(cluster, { recursive: true, mode: 0o700 });
  // Beside the cluster, in a folder only the server's user reads; gone once initdb has read it.
  const passwordFile = join(cluster, '..', `.pw-${process.pid}`);
  writeFileSync(passwordFile, `${LOCAL_PASSWORD}\n`, { mode: 0o600 });
  if (isRoot()) {
    const { uid, gid } = systemUser();
    for (const path of [join(cluster, '..'), cluster, passwordFile]) chownSync(path, uid, gid);
  }
  const init = asServerUser(program('initdb'), [
    '-D',
    cluster,
    '-U',
    LOCAL_USER,
    `--pwfile=${passwordFile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
  ]);
  try {
    execFileSync(init.command, init.args, { stdio: 'pipe' });
  } catch (error) {
    rmSync(cluster, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').at(-1) ?? String(error);
    throw new StartFailedError(`postgres: initdb failed: ${stderr}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** The postmaster on `cluster`, on 127.0.0.1:`port` only; `settings` are more `-c name=value`. */
export function serverCommand(
  cluster: string,
  port: number,
  settings: readonly string[] = [],
): { command: string; args: string[] } {
  return asServerUser(program('postgres'), [
    '-D',
    cluster,
    '-c',
    `listen_addresses=${LOOPBACK}`,
    '-p',
    String(port),
    // No Unix socket: its default folder (/var/run/postgresql) may not exist or be someone else's.
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
    ...settings.flatMap((setting) => ['-c', setting]),
  ]);
}

/** Give a file or folder to the server's user when docbench runs as root (the server reads it as that user). */
export function giveToServerUser(path: string): void {
  if (!isRoot()) return;
  const { uid, gid } = systemUser();
  chownSync(path, uid, gid);
}

/** Make the runs' database once the server answers (the `pg` driver is docbench's own peer dependency). */
async function createDatabase(database: string): Promise<void> {
  const { default: pg } = await import('pg');
  let client: InstanceType<typeof pg.Client>;
  // The postmaster answers the probe while it still replays its log ("the database system is
  // starting up", 57P03): the first login may need a few tries.
  for (let attempt = 0; ; attempt++) {
    // A pg client connects once: each try has its own.
    client = new pg.Client({ connectionString: localPostgresUrl('postgres') });
    try {
      await client.connect();
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== '57P03' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
}

export const localTarget: LocalTarget = managedServer({
  store: 'postgres',
  program: 'PostgreSQL',
  url: localPostgresUrl(),
  ports: [PORT],
  // The postmaster keeps its command line; setpriv execs it, so the pid is its own.
  recognise: 'postgres',
  files: 'postgres',
  install,
  command: ({ data }) => {
    const cluster = dataDir(data);
    initCluster(cluster);
    return serverCommand(cluster, PORT.port);
  },
  // PostgreSQL answers an SSLRequest with one byte ('N' without TLS, 'S' with) once it accepts connections.
  healthy: () =>
    tcpProbe(LOOPBACK, PORT.port, {
      send: Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]),
      reply: (text) => text === 'N' || text === 'S',
    }),
  verify: () => createDatabase(LOCAL_DATABASE),
  startTimeoutMs: 60_000,
  // SIGTERM is PostgreSQL's smart shutdown, which waits for every client to leave; SIGINT is its
  // fast shutdown (clients disconnected, a clean checkpoint).
  stopSignal: 'SIGINT',
  info: async () => ({
    store: 'postgres',
    product: `PostgreSQL ${version()} (Debian package)`,
    standIn: false,
    limits: '',
  }),
});
