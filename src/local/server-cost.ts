/**
 * The store server's own cost during a run, for a local server docbench started: CPU time of
 * its process and every descendant (a launcher's children included), and its peak resident set,
 * read from Linux's /proc. Elsewhere (or for a remote store) nothing is measured and the result
 * says nothing rather than something wrong.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Result } from '../results/schema.ts';
import { localTarget } from './targets.ts';

/** Linux's USER_HZ: /proc times are in ticks of 1/100 s on every architecture Node supports. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks: the process, its threads and its reaped children. */
  ticks: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(fields[i - 3]);
    return { pid, ppid: n(4), ticks: n(14) + n(15) + n(16) + n(17) };
  } catch {
    return undefined;
  }
}

/** The process and its living descendants. */
function processTree(root: number): ProcStat[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readStat(Number(d)))
    .filter((s) => s !== undefined);
  const tree: ProcStat[] = [];
  const wanted = new Set([root]);
  // Parents come before children often but not always: repeat until no new member is found.
  for (let grew = true; grew;) {
    grew = false;
    for (const s of all) {
      if ((s.pid === root || wanted.has(s.ppid)) && !tree.includes(s)) {
        tree.push(s);
        wanted.add(s.pid);
        grew = true;
      }
    }
  }
  return tree;
}

function peakRss(pids: readonly number[]): number | undefined {
  let total = 0;
  let found = false;
  for (const pid of pids) {
    try {
      const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) {
        total += Number(match[1]) * 1024;
        found = true;
      }
    } catch {
      // The process ended between listing and reading: it no longer holds memory.
    }
  }
  return found ? total : undefined;
}

export interface ServerCostMeter {
  /** The server's cost since the meter started, as the result records it. */
  stop(): NonNullable<Result['serverCost']>;
}

/**
 * Start measuring the local server of `store`, when docbench runs it on this machine (Linux):
 * undefined otherwise, so callers simply record nothing.
 */
export async function startServerCostMeter(store: string, local: boolean): Promise<ServerCostMeter | undefined> {
  if (!local || process.platform !== 'linux' || !existsSync('/proc/self/stat')) return undefined;
  let pid: number | null = null;
  try {
    const status = await (await localTarget(store)).status();
    pid = status.running ? status.pid : null;
  } catch {
    return undefined;
  }
  if (pid === null) return undefined;
  const root = pid;
  const ticksOf = (tree: readonly ProcStat[]) => tree.reduce((sum, s) => sum + s.ticks, 0);
  const before = new Map(processTree(root).map((s) => [s.pid, s.ticks]));
  return {
    stop: () => {
      const tree = processTree(root);
      // A process born during the run counts from zero; one that ended is in its parent's cutime.
      const ticks = ticksOf(tree) - tree.reduce((sum, s) => sum + (before.get(s.pid) ?? 0), 0);
      const rss = peakRss(tree.map((s) => s.pid));
      return {
        cpuMs: Math.max(0, (ticks * 1000) / TICKS_PER_SECOND),
        ...(rss !== undefined ? { peakRssBytes: rss } : {}),
        source: `/proc of the local ${store} server (pid ${root} and ${tree.length - 1} descendant${tree.length === 2 ? '' : 's'}), warm-up included`,
      };
    },
  };
}
