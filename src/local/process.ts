import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writePidFile } from './pid-file.ts';
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

/** Start a long-lived server detached from this process, its output appended to `logFile`, its pid file written. */
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
    writePidFile(options.pidFile, child.pid);
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** The pid on a lock file's first line, or null. */
function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
      if (Date.now() > deadline)
        throw new StartFailedError(`timed out waiting for ${lockFile} (held by pid ${holder ?? '?'})`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

/** True when `command` is a program on PATH. */
export function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v "$1"', 'sh', command], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
