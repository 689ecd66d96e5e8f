/**
 * A store server of the test's own, on a free port: fault tests kill, pause and restart it by its
 * pid, never the shared local servers other tests use.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findJava, hasJavaCompiler } from '../../src/local/java.ts';
import { installDir } from '../../src/local/paths.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivateServer {
  url: string;
  /** Why it cannot run here (the test then skips), or undefined. */
  missing?: string;
  start(): Promise<void>;
  /** SIGKILL the server and wait for it to be gone. */
  kill(): Promise<void>;
  /** SIGSTOP: the server keeps its sockets open but answers nothing, as a stalled host does; resolves once it has stopped. */
  pause(): Promise<void>;
  /** SIGCONT after pause(). */
  resume(): void;
  /** Kill it if it runs and remove its files. */
  dispose(): Promise<void>;
}

/**
 * `polls` × 100 ms is how long a start may take; `dir` holds its files (a new folder by default);
 * `tree`: every signal goes to the server's child processes too (stopping the parent first, so
 * that it starts no new ones).
 */
function serverOf(
  url: string,
  launch: (dir: string) => ChildProcess,
  ready: () => Promise<boolean>,
  missing?: string,
  options: { polls?: number; dir?: string; tree?: boolean } = {},
): PrivateServer {
  const { polls = 300, dir = mkdtempSync(join(tmpdir(), 'docbench-fault-')), tree = false } = options;
  let child: ChildProcess | undefined;
  const send = (running: ChildProcess, name: NodeJS.Signals) => {
    if (!tree) return void running.kill(name);
    if (name !== 'SIGCONT') running.kill('SIGSTOP');
    for (const pid of children(running.pid!)) process.kill(pid, name);
    running.kill(name);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    send(running, 'SIGKILL');
    await gone;
  };
  const signal = (name: NodeJS.Signals) => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the private server for ${url} is not running`);
    send(child, name);
  };
  return {
    url,
    ...(missing ? { missing } : {}),
    async start() {
      child = launch(dir);
      for (let i = 0; i < polls; i++) {
        if (child.exitCode !== null)
          throw new Error(`the private server for ${url} exited with code ${child.exitCode}`);
        if (await ready().catch(() => false)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`the private server for ${url} did not start`);
    },
    kill,
    async pause() {
      signal('SIGSTOP');
      // The signal is delivered asynchronously: a request sent at once could still be served.
      const pid = child!.pid!;
      for (let i = 0; i < 200 && !stopped(pid); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    resume: () => signal('SIGCONT'),
    async dispose() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The pids of a process's children (Linux's /proc; none elsewhere). */
function children(parent: number): number[] {
  const found: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const pid of entries) {
    try {
      // The parent's pid is the field after the state, after the command name in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Whether the process is stopped (Linux's /proc; elsewhere assumed, after the waits above). */
function stopped(pid: number): boolean {
  try {
    return /^\d+ \(.*\) [tT] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Is something accepting connections on the port? */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A throwaway certificate authority and a server certificate for 127.0.0.1 it signed, made with openssl. */
export interface TestCertificates {
  ca: string;
  cert: string;
  key: string;
}

export function makeCertificates(dir: string): TestCertificates {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=docbench test CA',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  );
  writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.crt'),
    '-days',
    '2',
    '-extfile',
    file('ext.cnf'),
  );
  return { ca: file('ca.crt'), cert: file('server.crt'), key: file('server.key') };
}

const hasOpenssl = () => spawnSync('openssl', ['version']).status === 0;

export interface RedisOptions {
  /** requirepass: the default user needs this password. */
  password?: string;
  /** Serve TLS only (--tls-port, no plain port), with a certificate made by openssl; `certificates` then says where its CA is. */
  tls?: boolean;
}

/**
 * A redis-server of the test's own. It persists (an append-only file synced every second), as a
 * production server does, so that after a kill and a restart the records are there again and a
 * run's reads measure records, not misses.
 */
export async function privateRedis(
  options: RedisOptions = {},
): Promise<PrivateServer & { certificates?: TestCertificates }> {
  const port = await freePort();
  let missing = spawnSync('redis-server', ['--version']).status === 0 ? undefined : 'redis-server is not on PATH';
  if (options.tls && !missing && !hasOpenssl()) missing = 'openssl is not on PATH';
  const dir = mkdtempSync(join(tmpdir(), 'docbench-fault-'));
  const certificates = options.tls && !missing ? makeCertificates(dir) : undefined;
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir];
  if (options.password) args.push('--requirepass', options.password);
  if (certificates)
    args.push(
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      certificates.cert,
      '--tls-key-file',
      certificates.key,
      '--tls-ca-cert-file',
      certificates.ca,
      '--tls-auth-clients',
      'no',
    );
  else args.push('--port', String(port));
  const server = serverOf(
    `${certificates ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    () => spawn('redis-server', args, { stdio: 'ignore' }),
    () => listening(port),
    missing,
    { dir },
  );
  return certificates ? { ...server, certificates } : server;
}

export interface MongodbOptions {
  /** --auth (SCRAM-SHA-256), with this user created as root through the localhost exception; the URL carries it. */
  login?: { user: string; password: string };
  /** Serve TLS only, with a certificate made by openssl; `certificates` then says where its CA is. */
  tls?: boolean;
}

/** A SecantusDB (the local MongoDB stand-in) of the test's own; its data survives a kill, as a real server's. */
export async function privateMongodb(
  options: MongodbOptions = {},
): Promise<PrivateServer & { certificates?: TestCertificates }> {
  const port = await freePort();
  const binary = installDir('mongodb', 'bin', 'secantusd-rs');
  let missing = existsSync(binary) ? undefined : 'SecantusDB is not installed (docbench up mongodb)';
  if (options.tls && !missing && !hasOpenssl()) missing = 'openssl is not on PATH';
  const dir = mkdtempSync(join(tmpdir(), 'docbench-fault-'));
  const certificates = options.tls && !missing ? makeCertificates(dir) : undefined;
  const login = options.login ? `${options.login.user}:${options.login.password}@` : '';
  const server = serverOf(
    `mongodb://${login}127.0.0.1:${port}/?directConnection=true${certificates ? '&tls=true' : ''}`,
    () => {
      const config = join(dir, 'secantusd.toml');
      writeFileSync(config, '# empty: no configuration auto-discovery\n');
      const args = [
        '--config',
        config,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--storage-path',
        join(dir, 'data'),
        '--log-level',
        'ERROR',
        '--cache-size',
        '256M',
      ];
      if (options.login) args.push('--auth');
      if (certificates) args.push('--tls-cert-file', certificates.cert, '--tls-key-file', certificates.key);
      return spawn(binary, args, { stdio: 'ignore' });
    },
    () => listening(port),
    missing,
    { dir },
  );
  const start = async () => {
    await server.start();
    if (options.login) await createFirstUser(port, options.login);
  };
  return { ...server, start, ...(certificates ? { certificates } : {}) };
}

/** The first user of a server with --auth, made without a login (MongoDB's localhost exception); there already on a restart. */
async function createFirstUser(port: number, login: { user: string; password: string }): Promise<void> {
  const { MongoClient, MongoServerError } = await import('mongodb');
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
    serverSelectionTimeoutMS: 10_000,
  });
  try {
    await client.db('admin').command({ createUser: login.user, pwd: login.password, roles: ['root'] });
  } catch (error) {
    // 13: users exist, so the localhost exception is closed (a restart); 51003: this one exists.
    if (!(error instanceof MongoServerError && (error.code === 13 || error.code === 51003))) throw error;
  } finally {
    await client.close();
  }
}

/**
 * A pouchdb-server (the local CouchDB stand-in, from its install folder) of the test's own, with
 * a server admin as the local target configures one; the URL carries the admin's login.
 */
export async function privateCouchdb(): Promise<PrivateServer> {
  const port = await freePort();
  const script = installDir('couchdb', 'node_modules', 'pouchdb-server', 'bin', 'pouchdb-server');
  const missing = existsSync(script) ? undefined : 'pouchdb-server is not installed (docbench up couchdb)';
  const login = `Basic ${Buffer.from('admin:password').toString('base64')}`;
  return serverOf(
    `http://admin:password@127.0.0.1:${port}`,
    (dir) => {
      const config = join(dir, 'config.json');
      writeFileSync(config, JSON.stringify({ admins: { admin: 'password' }, log: { file: join(dir, 'couch.log') } }));
      mkdirSync(join(dir, 'data'), { recursive: true });
      return spawn(
        process.execPath,
        [
          script,
          '--host',
          '127.0.0.1',
          '--port',
          String(port),
          '--dir',
          join(dir, 'data'),
          '--config',
          config,
          '-n',
          '--no-color',
        ],
        { cwd: dir, stdio: 'ignore' },
      );
    },
    // Up once the admin's login works (the server hashes the configured password as it starts).
    async () =>
      (
        await fetch(`http://127.0.0.1:${port}/_session`, {
          headers: { authorization: login },
          signal: AbortSignal.timeout(1000),
        })
      ).ok,
    missing,
  );
}

/**
 * A CouchbaseMock (the local Couchbase stand-in, from its install folder, through docbench's
 * launcher) of the test's own: bucket `docbench`, KV and REST on free ports. The URL carries the
 * store settings the local target's URL carries for the mock.
 */
export async function privateCouchbase(): Promise<PrivateServer> {
  const [kvPort, restPort] = [await freePort(), await freePort()];
  const jar = installDir('couchbase', 'lib', 'CouchbaseMock-1.5.27.jar');
  const launcher = join(import.meta.dirname, '..', '..', 'fixtures', 'couchbase', 'DocbenchCouchbaseMock.java');
  const java = existsSync(jar) ? findJava((j, major) => major >= 11 && hasJavaCompiler(j)) : null;
  const missing = !existsSync(jar)
    ? 'CouchbaseMock is not installed (docbench up couchbase)'
    : java === null
      ? 'no Java 11+ JDK'
      : undefined;
  const settings = 'couchbase.management=false&couchbase.query=false&couchbase.upsert=true';
  return serverOf(
    `couchbase://docbench:password@127.0.0.1:${kvPort}/docbench?${settings}`,
    () =>
      spawn(
        java!,
        [
          '-Xms64m',
          '-Xmx256m',
          '-Djava.net.preferIPv4Stack=true',
          '-cp',
          jar,
          launcher,
          '--host',
          '127.0.0.1',
          '--rest-port',
          String(restPort),
          '--kv-port',
          String(kvPort),
          '--bucket',
          'docbench',
          '--password',
          'password',
          '--vbuckets',
          '64',
        ],
        { stdio: 'ignore' },
      ),
    async () => (await listening(restPort)) && (await listening(kvPort)),
    missing,
    { polls: 600 },
  );
}

/**
 * A standalone HBase and its REST gateway of the test's own, on free ports: `master` (master,
 * region server and ZooKeeper in one JVM; its data survives a kill, replayed from its WAL) and
 * `gateway`, each killed and restarted alone.
 */
export async function privateHbase(): Promise<{
  url: string;
  missing?: string;
  master: PrivateServer;
  gateway: PrivateServer;
  logs: string;
  dispose(): Promise<void>;
}> {
  const { gatewayCommand, masterCommand } = await import('../../src/stores/hbase/local-target.ts');
  const ports = {
    rest: await freePort(),
    zookeeper: await freePort(),
    master: await freePort(),
    regionserver: await freePort(),
  };
  const url = `hbase+rest://127.0.0.1:${ports.rest}`;
  const missing = existsSync(installDir('hbase', 'lib')) ? undefined : 'HBase is not installed (docbench up hbase)';
  const dir = mkdtempSync(join(tmpdir(), 'docbench-fault-hbase-'));
  const launch = (command: { command: string; args: readonly string[]; env?: NodeJS.ProcessEnv }, log: string) => {
    const out = openSync(join(dir, log), 'a');
    try {
      return spawn(command.command, command.args, {
        cwd: dir,
        stdio: ['ignore', out, out],
        env: command.env ?? process.env,
      });
    } finally {
      closeSync(out);
    }
  };
  const master = serverOf(
    url,
    () => launch(masterCommand(dir, join(dir, 'data'), ports), 'master.log'),
    async () => (await listening(ports.master)) && listening(ports.regionserver),
    missing,
    { polls: 1200 },
  );
  const gateway = serverOf(
    url,
    () => launch(gatewayCommand(dir, ports), 'gateway.log'),
    async () =>
      (await fetch(`http://127.0.0.1:${ports.rest}/version/cluster`, { signal: AbortSignal.timeout(2000) })).ok,
    missing,
    { polls: 1200 },
  );
  return {
    url,
    ...(missing ? { missing } : {}),
    master,
    gateway,
    logs: dir,
    async dispose() {
      await gateway.dispose();
      await master.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresOptions {
  /** Serve TLS, with a certificate made by openssl; `only`: refuse plain connections (pg_hba's hostssl). */
  tls?: 'offered' | 'only';
}

/**
 * A PostgreSQL of the test's own: a cluster initdb'd into a temporary folder as the local target
 * makes its own (user and password docbench/docbench, database postgres), run by the local
 * target's command. Each signal goes to the postmaster and every backend (each backend is a
 * session of its own, so not in the postmaster's process group): a kill takes the whole server,
 * as a crashed or powered-off host does (a postmaster killed alone leaves backends that keep
 * their sessions, and a restart waits for them), and a pause stops the sessions too.
 */
export async function privatePostgres(
  options: PostgresOptions = {},
): Promise<PrivateServer & { certificates?: TestCertificates }> {
  const target = await import('../../src/stores/postgres/local-target.ts');
  const port = await freePort();
  let missing =
    existsSync('/usr/lib/postgresql') || spawnSync('initdb', ['--version']).status === 0
      ? undefined
      : 'PostgreSQL is not installed (docbench up postgres)';
  if (options.tls && !missing && !hasOpenssl()) missing = 'openssl is not on PATH';
  const dir = mkdtempSync(join(tmpdir(), 'docbench-fault-pg-'));
  const certificates = options.tls && !missing ? makeCertificates(dir) : undefined;
  const settings: string[] = [];
  if (certificates) {
    for (const file of [certificates.cert, certificates.key]) target.giveToServerUser(file);
    settings.push('ssl=on', `ssl_cert_file=${certificates.cert}`, `ssl_key_file=${certificates.key}`);
  }
  if (options.tls === 'only') {
    const hba = join(dir, 'pg_hba.conf');
    writeFileSync(hba, 'hostssl all all 127.0.0.1/32 scram-sha-256\n');
    target.giveToServerUser(hba);
    settings.push(`hba_file=${hba}`);
  }
  const url = `postgres://${target.LOCAL_USER}:${target.LOCAL_PASSWORD}@127.0.0.1:${port}/postgres`;
  const server = serverOf(
    url,
    () => {
      const cluster = join(dir, 'cluster');
      target.initCluster(cluster);
      const command = target.serverCommand(cluster, port, settings);
      return spawn(command.command, command.args, { stdio: 'ignore' });
    },
    async () => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({
        connectionString: url,
        ssl: certificates ? { rejectUnauthorized: false } : false,
        connectionTimeoutMillis: 1000,
      });
      client.on('error', () => {});
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => {});
      }
    },
    missing,
    { dir, tree: true },
  );
  return certificates ? { ...server, certificates } : server;
}
