/**
 * Client and server apart, on a machine they share: the local server's threads on every CPU but
 * the last, this process's on the last, for the length of a measurement (the original CPU masks
 * are put back after it). On a small machine with the server on it, the client's CPU per
 * operation otherwise depends on how much CPU it leaves the server: a client that takes more
 * slows the server, a slower server answers fewer requests per wake-up, and each operation then
 * costs the client more, so a small difference between two clients comes out several times
 * larger, and different from one round to the next. Apart, each has its cores, as on separate
 * machines. Linux only, with util-linux's `taskset`; elsewhere, or on one CPU, nothing is pinned.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { localTarget } from '../src/local/targets.ts';

export interface Pinning {
  /** What was pinned where, for the bench's output. */
  description: string;
  restore(): void;
}

function maskOf(pid: number): string {
  const text = execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' });
  const match = /mask: ([0-9a-f]+)/.exec(text);
  if (!match) throw new Error(`cannot read the CPU mask of ${pid}: ${text}`);
  return match[1]!;
}

/** Every thread of `pid` (-a) onto the CPUs of `list` (taskset's list form, e.g. `0-2`) or `mask`. */
function setAffinity(pid: number, cpus: { list: string } | { mask: string }): void {
  const args = 'list' in cpus ? ['-a', '-p', '-c', cpus.list, String(pid)] : ['-a', '-p', cpus.mask, String(pid)];
  execFileSync('taskset', args, { stdio: 'ignore' });
}

/** Pin the running local server of `store` apart from this process; undefined (and why, on stderr) when it cannot be. */
export async function pinApart(store: string): Promise<Pinning | undefined> {
  const cpus = availableParallelism();
  if (process.platform !== 'linux' || cpus < 2) return undefined;
  const status = await (await localTarget(store)).status();
  const servers = status.pids ?? (status.pid === null ? [] : [status.pid]);
  if (servers.length === 0) return undefined;
  let serverMasks: string[];
  let ownMask: string;
  try {
    serverMasks = servers.map(maskOf);
    ownMask = maskOf(process.pid);
  } catch (error) {
    console.error(`not pinning client and server apart: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const last = cpus - 1;
  const serverCpus = last === 1 ? '0' : `0-${last - 1}`;
  for (const server of servers) setAffinity(server, { list: serverCpus });
  setAffinity(process.pid, { list: String(last) });
  return {
    description: `server (pid ${servers.join(', ')}) on CPU ${serverCpus}, this client on CPU ${last}`,
    restore: () => {
      setAffinity(process.pid, { mask: ownMask });
      servers.forEach((server, i) => setAffinity(server, { mask: serverMasks[i]! }));
    },
  };
}
