/**
 * The pid file of a server docbench started: the pid on the first line (what other tools read),
 * its start time on the second. docbench believes a pid file only while that pid is still the
 * server it started: the same start time, and a command line that names the server. A pid file
 * whose process is gone, or whose pid now belongs to another program, is stale: it is removed,
 * and the program holding the pid is never signalled.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isSameProcess, processIdentity, shortCommand } from './process-identity.ts';

export type PidFileCheck =
  | { state: 'none' }
  /** `startTime` as the system reports it now; `recorded` false for an old pid file without one. */
  | { state: 'ours'; pid: number; startTime: string; recorded: boolean }
  | { state: 'stale'; why: string };

export function writePidFile(pidFile: string, pid: number): void {
  writeFileSync(pidFile, `${pid}\n${processIdentity(pid)?.startTime ?? ''}\n`);
}

/**
 * Whether `pidFile` names the running server. `recognise` is a part of the server's command line
 * (its program or main class). A pid file written before start times were recorded has only the
 * pid, and is believed on the command line alone.
 */
export function checkPidFile(pidFile: string, recognise: string): PidFileCheck {
  if (!existsSync(pidFile)) return { state: 'none' };
  const [pidLine = '', startLine = ''] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine.trim());
  if (!Number.isInteger(pid) || pid <= 0)
    return { state: 'stale', why: `it holds no pid ("${shortCommand(pidLine.trim(), 20)}")` };
  const startTime = startLine.trim() || undefined;
  const now = processIdentity(pid);
  if (now === null) return { state: 'stale', why: `pid ${pid} is no longer running` };
  if ((startTime !== undefined && now.startTime !== startTime) || !now.commandLine.includes(recognise)) {
    return {
      state: 'stale',
      why: `pid ${pid} now belongs to another program (${shortCommand(now.commandLine, 60)}), which docbench leaves alone`,
    };
  }
  return { state: 'ours', pid, startTime: now.startTime, recorded: startTime !== undefined };
}

/**
 * The pid of our running server, or null. A stale pid file is removed (`log` says why); an old
 * pid file without a start time is completed with it, so a later reuse of the pid is caught.
 */
export function ownPid(pidFile: string, recognise: string, log: (line: string) => void): number | null {
  const check = checkPidFile(pidFile, recognise);
  if (check.state === 'stale') {
    rmSync(pidFile, { force: true });
    log(`removed the stale pid file ${pidFile}: ${check.why}`);
  }
  if (check.state !== 'ours') return null;
  if (!check.recorded) writePidFile(pidFile, check.pid);
  return check.pid;
}

/**
 * Stop our server: SIGTERM (or the server's own stop signal), then SIGKILL if it is still the
 * same process after `graceMs`. Each signal goes only to the pid the file names, and only after
 * checking it is still our server.
 */
export async function stopPidFileServer(
  pidFile: string,
  recognise: string,
  graceMs: number,
  log: (line: string) => void,
  stopSignal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  const check = checkPidFile(pidFile, recognise);
  if (check.state !== 'ours') {
    ownPid(pidFile, recognise, log);
    return null;
  }
  const { pid, startTime } = check;
  const stillOurs = () => isSameProcess(pid, startTime);
  signal(pid, stopSignal);
  const deadline = Date.now() + graceMs;
  while (stillOurs() && Date.now() < deadline) await sleep(100);
  if (stillOurs()) {
    log(`pid ${pid} did not stop within ${Math.round(graceMs / 1000)} s of ${stopSignal}; sending SIGKILL`);
    signal(pid, 'SIGKILL');
    // SIGKILL cannot be ignored; the bound only keeps a process stuck in the kernel from hanging us.
    for (let i = 0; i < 100 && stillOurs(); i++) await sleep(100);
  }
  rmSync(pidFile, { force: true });
  return pid;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
