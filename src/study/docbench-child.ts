/**
 * A docbench command run as a process of its own (a scenario sweep's seeds and runs): started in
 * a process group of its own so that a terminal's Ctrl-C reaches this process only, which passes
 * exactly one signal on (the child then stops its run and writes what it measured; a second
 * signal would make it exit without); a forced exit of this process kills it. Its stdout (the
 * tables it also writes to its folder) is dropped; its stderr passes through, except its own
 * one-line user error (`docbench: …`), which is handed back, so the caller reports it as its own,
 * and the lines saying where it wrote (the caller says where the whole went).
 */
import { spawn } from 'node:child_process';
import { projectPath } from '../common/project-root.ts';
import { interrupts, type RunSignal } from '../common/interrupts.ts';
import { shellWord } from './text-wrap.ts';

const DOCBENCH = projectPath('bin', 'docbench.js');

export interface ChildRun {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  /** The signal passed on to it, when this process was interrupted while it ran. */
  interrupted?: RunSignal;
  /** Its last `docbench: …` line, without the prefix (its user error when it exited 2). */
  error?: string;
}

const PREFIX = 'docbench: ';
const WHERE_IT_WROTE = /^(results written to |report: )/;

export function runDocbenchChild(args: readonly string[]): Promise<ChildRun> {
  const child = spawn(process.execPath, [DOCBENCH, ...args], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let interrupted: RunSignal | undefined;
  const forgetSignal = interrupts.onSignal((signal) => {
    interrupted = signal;
    child.kill(signal);
  });
  const forgetExit = interrupts.onForcedExit(() => child.kill('SIGKILL'));
  // Its `docbench: …` lines are held until it exits: a user error is the caller's to print, once.
  const held: string[] = [];
  let partial = '';
  const line = (text: string) => {
    if (text.startsWith(PREFIX)) held.push(text);
    else if (!WHERE_IT_WROTE.test(text)) process.stderr.write(`${text}\n`);
  };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const text of lines) line(text);
  });
  return new Promise((resolveRun, reject) => {
    child.once('error', reject);
    // 'close', not 'exit': stderr is read to its end first.
    child.once('close', (code) => {
      forgetSignal();
      forgetExit();
      if (partial !== '') line(partial);
      const error = held.at(-1)?.slice(PREFIX.length);
      if (code !== 2) for (const text of held) process.stderr.write(`${text}\n`);
      resolveRun({ code, ...(interrupted ? { interrupted } : {}), ...(error !== undefined ? { error } : {}) });
    });
  });
}

/** A command as one types it, for messages. */
export function commandText(args: readonly string[]): string {
  return `docbench ${args.map(shellWord).join(' ')}`;
}
