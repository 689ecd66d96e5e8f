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

/** Validate a result against its schema, then write it atomically as pretty JSON. */
export function writeResult(path: string, result: Result): void {
  const valid = resultSchema.parse(result);
  writeFileAtomic(path, `${JSON.stringify(valid, null, 2)}\n`);
}

/**
 * Check an output path before any work, so a bad --out (or exportfile) fails fast, not after the
 * run, and nothing is half-written.
 */
export function checkOutPath(out: string | undefined, what = '--out'): void {
  if (out === undefined) return;
  if (out.trim() === '') throw new UsageError(`${what}: expected a file path, got an empty one`);
  if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`${what} ${out} is a directory; expected a file path`);
  const dir = dirname(out);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`${what} ${out}: ${dir} is not a directory`);
}
