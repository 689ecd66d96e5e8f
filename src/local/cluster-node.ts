/**
 * One node of a local cluster docbench runs (a Redis Cluster node, a Cassandra node): its own
 * folder with its pid file, log and data, on its own loopback address and ports. The same rules
 * as a single local server (managed-server.ts): a pid file is believed only while its pid is
 * still that node (pid-file.ts), every port must be free before a start and a port held by
 * another program is named and left alone, and a stop signals only the pid the node's file names.
 * The cluster's own module (each store's local-cluster.ts) decides the order of starts and what
 * forms the cluster once its nodes run.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkPidFile, ownPid, stopPidFileServer } from './pid-file.ts';
import { isSameProcess, processIdentity } from './process-identity.ts';
import { PortInUseError } from './managed-server.ts';
import { portFree, portHolder } from './ports.ts';
import { spawnDetached, waitUntil } from './process.ts';
import type { ServerCommand } from './managed-server.ts';

export interface ClusterNodeSpec {
  /** How messages name it, e.g. "redis cluster node 127.0.0.1:17100". */
  name: string;
  /** Its folder: pid file, log, data. */
  dir: string;
  /** Where it listens: its address and every port it needs there (all must be free before a start). */
  host: string;
  ports: readonly number[];
  /** A part of its command line as the system shows it: how its pid is recognised. */
  recognise: string;
  /** `<files>.pid` and `<files>.log` in its folder. */
  files: string;
  /** Its command line, written config and all, once its folder exists. */
  command(dir: string): ServerCommand;
  /** True once it serves. */
  healthy(): Promise<boolean>;
  startTimeoutMs: number;
  stopGraceMs: number;
  /** The log to point at when it fails, when not `<files>.log`. */
  diagnosticLog?: string;
}

export interface ClusterNodeStatus {
  name: string;
  host: string;
  port: number;
  pid: number | null;
  running: boolean;
  logFile: string;
}

export class ClusterNode {
  constructor(readonly spec: ClusterNodeSpec) {}

  get pidFile(): string {
    return join(this.spec.dir, `${this.spec.files}.pid`);
  }

  get logFile(): string {
    return this.spec.diagnosticLog ?? join(this.spec.dir, `${this.spec.files}.log`);
  }

  /** Its pid while it runs (a stale pid file is removed, `log` says why), else null. */
  pid(log: (line: string) => void): number | null {
    return ownPid(this.pidFile, this.spec.recognise, log);
  }

  /** Start it unless it runs; resolves once it is healthy. True when this call started it. */
  async start(log: (line: string) => void): Promise<boolean> {
    const { spec } = this;
    const running = this.pid(log);
    if (running !== null) {
      await waitUntil(spec.name, () => spec.healthy().catch(() => false), {
        timeoutMs: spec.startTimeoutMs,
        intervalMs: 500,
        logFile: this.logFile,
      });
      return false;
    }
    for (const port of spec.ports) {
      if (await portFree(spec.host, port)) continue;
      const holder = portHolder(port);
      throw new PortInUseError(
        `${spec.name}: port ${port} on ${spec.host} is in use by ${holder ? `another program (${holder})` : 'another program (which one could not be found)'}, not by a node docbench started; stop that program, or move the cluster's ports`,
      );
    }
    mkdirSync(spec.dir, { recursive: true });
    const launch = spec.command(spec.dir);
    const pid = spawnDetached(launch.command, launch.args, {
      cwd: spec.dir,
      logFile: join(spec.dir, `${spec.files}.log`),
      pidFile: this.pidFile,
      ...(launch.env ? { env: launch.env } : {}),
    });
    const startTime = processIdentity(pid)?.startTime;
    await waitUntil(spec.name, () => spec.healthy().catch(() => false), {
      timeoutMs: spec.startTimeoutMs,
      intervalMs: 500,
      aliveCheck: () => isSameProcess(pid, startTime),
      logFile: this.logFile,
    });
    return true;
  }

  /** SIGTERM, then SIGKILL after the grace period; only the pid its own file names. Its pid, or null when it was not running. */
  stop(log: (line: string) => void): Promise<number | null> {
    return stopPidFileServer(this.pidFile, this.spec.recognise, this.spec.stopGraceMs, log);
  }

  /** Read-only: a stale pid file is reported as not running (start and stop remove it). */
  async status(): Promise<ClusterNodeStatus> {
    const check = checkPidFile(this.pidFile, this.spec.recognise);
    const pid = check.state === 'ours' ? check.pid : null;
    return {
      name: this.spec.name,
      host: this.spec.host,
      port: this.spec.ports[0]!,
      pid,
      running: pid !== null && (await this.spec.healthy().catch(() => false)),
      logFile: this.logFile,
    };
  }
}
