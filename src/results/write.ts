import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../common/user-error.ts';
import { interrupts } from '../common/interrupts.ts';
import { resultSchema, type Result } from './schema.ts';

/**
 * Write a file so that it is either absent, the old version, or the whole new version: write
 * a temporary file beside it, flush it to disk, then rename it over the target (atomic on
 * POSIX). A run that dies mid-write leaves no half-written result behind, and a second Ctrl-C
 * that exits in the middle of a write removes the temporary file first.
 */
export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const forget = interrupts.onForcedExit(() => rmSync(temporary, { force: true }));
  try {
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    forget();
  }
}

/** `--out -`: the result goes to stdout, for a container's log (see claimStdoutForResult). */
export const STDOUT_PATH = '-';

/** stdout's own write, kept when `--out -` hands everything else printed there to stderr. */
let resultStdout: ((text: string) => void) | undefined;

/**
 * `--out -` makes stdout the result's alone, so that a pod's log (or a pipe) carries one result
 * that a reader can find: whatever else a command prints on stdout (YCSB text, tables) goes to
 * stderr from here on, beside the status lines. Called by checkOutPath, which every command with
 * `--out` calls before any work.
 */
function claimStdoutForResult(): void {
  if (resultStdout !== undefined) return;
  const stdout = process.stdout.write.bind(process.stdout);
  resultStdout = (text) => void stdout(text);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
}

/**
 * Validate a result against its schema, then write it atomically as pretty JSON; with `--out -`,
 * on stdout as one line, which a log reader finds among the status lines (written before it,
 * never while it is written: the phase is over).
 */
export function writeResult(path: string, result: Result): void {
  const valid = resultSchema.parse(result);
  if (path === STDOUT_PATH) {
    claimStdoutForResult();
    resultStdout!(`${JSON.stringify(valid)}\n`);
    return;
  }
  writeFileAtomic(path, `${JSON.stringify(valid, null, 2)}\n`);
}

/**
 * Check an output path before any work, so a bad --out (or exportfile) fails fast, not after the
 * run, and nothing is half-written. `--out -` (stdout) claims stdout for the result from here on.
 */
export function checkOutPath(out: string | undefined, what = '--out'): void {
  if (out === undefined) return;
  if (out === STDOUT_PATH && what === '--out') return claimStdoutForResult();
  if (out.trim() === '') throw new UsageError(`${what}: expected a file path, got an empty one`);
  if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`${what} ${out} is a directory; expected a file path`);
  const dir = dirname(out);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${what} ${out}: ${dir} is not a directory`);
}
