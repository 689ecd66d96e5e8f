/**
 * A run whose verdict is invalid (it measured failures, refusals, UNSUPPORTED calls or an empty
 * table; or its failures stopped it: `--on-error abort`, `maxerrorrate`) has printed its YCSB
 * text, with the verdict, and written its result; the command then ends with one line naming
 * the cause and the fix, and exit code 2, so a script never takes it for a measurement. (An
 * interrupted run exits 130/143 instead.)
 */
import { UserError } from '../common/user-error.ts';
import type { Result } from '../results/schema.ts';
import { verdictOf } from '../results/verdict.ts';

export class InvalidRunError extends UserError {}

/** The error to end a command with after an invalid run, else null. */
export function invalidRunError(result: Result, what: string): InvalidRunError | null {
  const verdict = verdictOf(result);
  if (verdict.status === 'valid') return null;
  const [first, ...more] = verdict.reasons;
  const sample = result.operations.flatMap((o) => o.errorSamples ?? [])[0];
  const firstError = first!.detail.includes(': ') || sample === undefined ? '' : ` (first error: ${sample.replace(/\s+/g, ' ').slice(0, 160)})`;
  const others = more.length > 0 ? `; also ${more.map((r) => r.detail).join('; ')}` : '';
  return new InvalidRunError(`${what}: INVALID: ${first!.detail}${firstError}; ${first!.fix}${others}; the result was still printed and written, marked invalid`);
}

/** A run its failures stopped (`--on-error abort`, `maxerrorrate`): a comparison ends there. */
export function runStoppedError(result: Result, what: string): InvalidRunError | null {
  const reason = result.partial?.reason;
  return reason === 'on-error' || reason === 'error-budget' ? invalidRunError(result, what) : null;
}
