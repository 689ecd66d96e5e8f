/**
 * The life cycle every local server shares, so each store's local-target.ts only says what is
 * its own (how to install it, its command line, its health probe, a stand-in's workarounds):
 *
 *   - start is idempotent: a server whose pid file is still ours and that answers is left as it is;
 *   - a stale pid file (its process gone, or its pid reused by another program) is removed,
 *     and that other program is never signalled;
 *   - before starting, every port the server needs must be free; a port held by anything else is
 *     reported with the program holding it, never stopped;
 *   - stop signals only the pid from our pid file, after checking it is still our server;
 *   - start, stop and install hold a lock file, so two docbench processes never race.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/user-error.ts';
import { checkPidFile, ownPid, stopPidFileServer } from './pid-file.ts';
import { isSameProcess, processIdentity } from './process-identity.ts';
import { serverRunDir } from './paths.ts';
import { LOOPBACK, portFree, portHolder, type LocalPort } from './ports.ts';
import { spawnDetached, StartFailedError, waitUntil, withLockFile } from './process.ts';
import type { LocalTarget, TargetInfo, TargetStatus } from './target.ts';

/** A port the server needs is held by a program docbench did not start. */
export class PortInUseError extends UserError {}

/** A server's command line; it runs in its run folder. */
export interface ServerCommand {
  command: string;
  args: readonly string[];
  /** Its environment, when not docbench's own. */
  env?: NodeJS.ProcessEnv;
}

export interface ServerSpec {
  store: string;
  /** The program as messages name it, e.g. "redis-server" or "SecantusDB (MongoDB stand-in)". */
  program: string;
  url: string;
  /** Every port it listens on (on LOOPBACK), the clients' port first; all must be free before it starts. */
  ports: readonly LocalPort[];
  /**
   * The port whose moving (DOCBENCH_<STORE>_PORT) moves its run folder; default the first of
   * `ports`. Two processes of one store (HBase's master and its REST gateway) name the same one.
   */
  runFolderPort?: LocalPort;
  /** A part of its command line as the system shows it (its binary or main class): how its pid is recognised. */
  recognise: string;
  /** `<files>.pid` and `<files>.log` (its stdout and stderr) in its run folder. */
  files: string;
  /** In the run folder: the log to point users at when it fails, when not `<files>.log`. */
  diagnosticLogName?: string;
  /** Install into the cache folder when missing (idempotent). */
  install(log: (line: string) => void): Promise<void>;
  /**
   * Called before each start, once installed: writes its config, returns its command line.
   * `dir` is its run folder, `data` the folder for its data inside it (both exist by then).
   */
  command(where: { dir: string; data: string }): ServerCommand | Promise<ServerCommand>;
  /** True once it serves requests; false (or a throw) while not. */
  healthy(): Promise<boolean>;
  /** Checked once healthy after a start (e.g. that the admin login works); throws StartFailedError. */
  verify?(dir: string): Promise<void>;
  startTimeoutMs: number;
  pollMs?: number;
  /** How long it gets to exit after its stop signal before SIGKILL. */
  stopGraceMs?: number;
  /** The signal that stops it promptly (default SIGTERM; PostgreSQL's SIGTERM waits for every client). */
  stopSignal?: NodeJS.Signals;
  /** Appended to the "starting" line, e.g. "(about 20-60 s)". */
  startingNote?: string;
  info(): Promise<TargetInfo>;
}

export function managedServer(spec: ServerSpec): LocalTarget {
  const files = () => {
    const dir = serverRunDir(spec.store, spec.runFolderPort ?? spec.ports[0]!);
    return {
      dir,
      pidFile: join(dir, `${spec.files}.pid`),
      logFile: join(dir, `${spec.files}.log`),
      diagnosticLog: join(dir, spec.diagnosticLogName ?? `${spec.files}.log`),
      lock: join(dir, '.start.lock'),
    };
  };
  const tagged = (log: (line: string) => void) => (line: string) => log(`${spec.store}: ${line}`);
  const locked = <T>(fn: () => Promise<T>) => withLockFile(files().lock, fn);
  const healthy = () => spec.healthy().catch(() => false);
  const statusOf = (pid: number | null, running: boolean, extra: Partial<TargetStatus> = {}): TargetStatus => ({
    running,
    pid,
    url: spec.url,
    logFile: files().diagnosticLog,
    ...extra,
  });

  /** Our server is running: wait (up to a start's time) for it to answer, as it may be starting or busy. */
  async function answers(): Promise<boolean> {
    if (await healthy()) return true;
    try {
      await waitUntil(spec.program, healthy, {
        timeoutMs: spec.startTimeoutMs,
        intervalMs: spec.pollMs ?? 250,
        aliveCheck: () => checkPidFile(files().pidFile, spec.recognise).state === 'ours',
      });
      return true;
    } catch (error) {
      if (error instanceof StartFailedError) return false;
      throw error;
    }
  }

  async function refuseTakenPorts(): Promise<void> {
    for (const { port, variable } of spec.ports) {
      if (await portFree(LOOPBACK, port)) continue;
      const holder = portHolder(port);
      throw new PortInUseError(
        `${spec.store}: cannot start ${spec.program}: port ${port} on ${LOOPBACK} is in use by ` +
          `${holder ? `another program (${holder})` : 'another program (which one could not be found)'}, ` +
          `not by a server docbench started; stop that program, or move docbench's server with ${variable}=<a free port>, or give --url`,
      );
    }
  }

  async function start(log: (line: string) => void): Promise<TargetStatus> {
    const say = tagged(log);
    const f = files();
    const running = ownPid(f.pidFile, spec.recognise, say);
    if (running !== null) {
      if (await answers()) return statusOf(running, true, { started: false });
      if (ownPid(f.pidFile, spec.recognise, say) !== null) {
        say(
          `${spec.program} (pid ${running}) runs but did not answer within ${Math.round(spec.startTimeoutMs / 1000)} s; restarting it (see ${f.diagnosticLog})`,
        );
        await stopPidFileServer(f.pidFile, spec.recognise, spec.stopGraceMs ?? 15_000, say, spec.stopSignal);
      }
    }
    await refuseTakenPorts();
    await spec.install(log);
    const data = join(f.dir, 'data');
    mkdirSync(data, { recursive: true });
    const launch = await spec.command({ dir: f.dir, data });
    say(
      `starting ${spec.program} on ${LOOPBACK}:${spec.ports[0]!.port}${spec.startingNote ? ` ${spec.startingNote}` : ''}`,
    );
    const pid = spawnDetached(launch.command, launch.args, {
      cwd: f.dir,
      logFile: f.logFile,
      pidFile: f.pidFile,
      ...(launch.env ? { env: launch.env } : {}),
    });
    // Pid and start time, not the command line: until it has exec'd, the child still shows ours.
    const startTime = processIdentity(pid)?.startTime;
    await waitUntil(spec.program, healthy, {
      timeoutMs: spec.startTimeoutMs,
      intervalMs: spec.pollMs ?? 250,
      aliveCheck: () => isSameProcess(pid, startTime),
      logFile: f.diagnosticLog,
    });
    await spec.verify?.(f.dir);
    return statusOf(pid, true, { started: true });
  }

  async function stop(log: (line: string) => void): Promise<void> {
    const say = tagged(log);
    const pid = await stopPidFileServer(
      files().pidFile,
      spec.recognise,
      spec.stopGraceMs ?? 15_000,
      say,
      spec.stopSignal,
    );
    if (pid !== null) say(`stopped ${spec.program} (pid ${pid})`);
  }

  /** Read-only: a stale pid file is reported here and removed by the next start or stop (they hold the lock). */
  async function status(): Promise<TargetStatus> {
    const check = checkPidFile(files().pidFile, spec.recognise);
    if (check.state === 'ours') return statusOf(check.pid, await healthy());
    const notes = check.state === 'stale' ? [`stale pid file (${check.why})`] : [];
    const main = spec.ports[0]!.port;
    if (!(await portFree(LOOPBACK, main)))
      notes.push(`port ${main} is in use by another program (${portHolder(main) ?? 'which one could not be found'})`);
    return statusOf(null, false, notes.length > 0 ? { note: notes.join('; ') } : {});
  }

  return {
    store: spec.store,
    url: spec.url,
    install: (log) => locked(() => spec.install(log)),
    start: (log) => locked(() => start(log)),
    stop: (log) => locked(() => stop(log)),
    status,
    info: () => spec.info(),
  };
}
