/**
 * What the operating system says about a process: its command line and when it started. A pid
 * alone does not name a process for long: once the server exits, the kernel hands its number to
 * the next program that starts. The start time does not change while the process lives and is
 * (with the pid) unique, so docbench records it next to the pid and checks both before it
 * believes, let alone signals, a pid from a file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export interface ProcessIdentity {
  pid: number;
  /** Its arguments joined by spaces, as `ps` shows them (a program may rewrite them, as redis-server does). */
  commandLine: string;
  /** An opaque token that stays the same for the life of the process (Linux: clock ticks after boot). */
  startTime: string;
}

/** The running process with this pid, or null when there is none (a zombie counts as gone). */
export function processIdentity(pid: number): ProcessIdentity | null {
  return existsSync('/proc/self/stat') ? fromProc(pid) : fromPs(pid);
}

/** Same pid and same start time: the process a pid file or a spawn recorded is still the one running. */
export function isSameProcess(pid: number, startTime: string | undefined): boolean {
  const now = processIdentity(pid);
  return now !== null && (startTime === undefined || now.startTime === startTime);
}

/** A command line on one line (an argument may hold newlines), cut to a readable length for messages. */
export function shortCommand(commandLine: string, max = 80): string {
  const line = commandLine.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function fromProc(pid: number): ProcessIdentity | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may itself hold spaces or ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so field 22 (starttime) is fields[19].
    if (fields[0] === 'Z' || fields[0] === 'X') return null;
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, commandLine, startTime: fields[19] ?? '' };
  } catch {
    return null;
  }
}

function fromPs(pid: number): ProcessIdentity | null {
  const ps = (field: string) => spawnSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8' });
  const state = ps('state');
  if (state.status !== 0 || state.stdout.trim() === '' || state.stdout.trim().startsWith('Z')) return null;
  return { pid, commandLine: ps('command').stdout.trim(), startTime: ps('lstart').stdout.trim() };
}
