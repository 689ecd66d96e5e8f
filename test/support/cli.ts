/**
 * Running the docbench CLI from tests, and the one shape every user error must have.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface CliRun {
  code: number | null;
  /** The signal that ended the process (the time limit's SIGTERM), or null when it exited. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `docbench args…` to completion. The time limit (a minute by default; a user error takes a
 * second or two) only turns a hang into a failure, which then says so.
 */
export function runDocbench(args: readonly string[], options: { cwd?: string; timeoutMs?: number } = {}): CliRun {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'docbench.js'), ...args], {
    cwd: options.cwd ?? root,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A user error: exit 2, one line naming the culprit, no stack trace, no result file. */
export function assertUserError(r: CliRun, pattern: RegExp, out?: string): void {
  assert.equal(
    r.code,
    2,
    `exit code${r.signal ? ` (killed by ${r.signal}: over the time limit?)` : ''} (stderr: ${r.stderr})`,
  );
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, got: ${r.stderr}`);
  assert.match(lines[0]!, /^docbench: /);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  if (out) assert.equal(existsSync(out), false, 'no result file written');
}
