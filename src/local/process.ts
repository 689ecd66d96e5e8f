import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../common/user-error.ts';

/** A prerequisite (Java, Maven, apt, cargo, …) is missing; the message names it and how to get it. */
export class MissingPrerequisiteError extends UserError {}

/** A local server did not come up; the message names the log file to read. */
export class StartFailedError extends UserError {}

export interface SpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  pidFile: string;
}

/** Start a long-lived server detached from this process, its output appended to `logFile`. */
export function spawnDetached(command: string, args: readonly string[], options: SpawnOptions): number {
  mkdirSync(dirname(options.logFile), { recursive: true });
  mkdirSync(dirname(options.pidFile), { recursive: true });
  const log = openSync(options.logFile, 'a');
  try {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    if (child.pid === undefined) throw new StartFailedError(`could not start ${command}`);
    child.unref();
    writeFileSync(options.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(log);
  }
}

export function readPid(pidFile: string): number | null {
  if (!existsSync(pidFile)) return null;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid from `pidFile` if that process still runs, else null (and a stale pid file is removed). */
export function livePid(pidFile: string): number | null {
  const pid = readPid(pidFile);
  if (pid === null) return null;
  if (isAlive(pid)) return pid;
  rmSync(pidFile, { force: true });
  return null;
}

/** Stop a process we started (by its pid file): SIGTERM, then SIGKILL after `graceMs`. */
export async function stopByPidFile(pidFile: string, graceMs = 15_000): Promise<boolean> {
  const pid = livePid(pidFile);
  if (pid === null) return false;
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) break;
    await sleep(100);
  }
  if (isAlive(pid)) signal(pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Poll `check` until it returns true or `timeoutMs` passes; `check` may throw to mean "not yet". */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  options: { timeoutMs: number; intervalMs?: number; aliveCheck?: () => boolean; logFile?: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (options.aliveCheck && !options.aliveCheck()) {
      throw new StartFailedError(`${what} exited during start-up${options.logFile ? `; see ${options.logFile}` : ''}`);
    }
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await sleep(options.intervalMs ?? 250);
  }
  throw new StartFailedError(
    `${what} was not ready after ${Math.round(options.timeoutMs / 1000)} s` +
      (lastError ? ` (last error: ${lastError})` : '') +
      (options.logFile ? `; see ${options.logFile}` : ''),
  );
}

/**
 * Run `fn` while holding an exclusive lock file, so two docbench processes that start the same
 * local server at once (two terminals, parallel test files) do not both spawn it: the second
 * waits, then finds the server running. A lock whose holder died is taken over.
 */
export async function withLockFile<T>(lockFile: string, fn: () => Promise<T>, timeoutMs = 900_000): Promise<T> {
  mkdirSync(dirname(lockFile), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      closeSync(openSync(lockFile, 'wx'));
      writeFileSync(lockFile, `${process.pid}\n`);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readPid(lockFile);
      // An empty lock file is one being written this instant; only a dead holder's lock is stale.
      if (holder !== null && !isAlive(holder)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new StartFailedError(`timed out waiting for ${lockFile} (held by pid ${holder ?? '?'})`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}
