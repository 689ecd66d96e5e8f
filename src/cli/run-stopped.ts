/**
 * A run that stopped on its failures (`--on-error abort`, `maxerrorrate`) has printed its YCSB
 * text and written its result, marked partial; the command then ends with one line saying why
 * and exit code 2, so a script sees the failure. (An interrupted run exits 130/143 instead.)
 */
import { UserError } from '../common/user-error.ts';
import type { Result } from '../results/schema.ts';

export class RunStoppedError extends UserError {}

/** The error to end the command with after a run its failures stopped, else null. */
export function runStoppedError(result: Result, what: string): RunStoppedError | null {
  const partial = result.partial;
  if (partial === undefined || (partial.reason !== 'on-error' && partial.reason !== 'error-budget')) return null;
  const sample = result.operations.flatMap((o) => o.errorSamples ?? [])[0];
  const first = sample === undefined ? '' : ` (first error: ${sample.replace(/\s+/g, ' ').slice(0, 160)})`;
  return new RunStoppedError(`${what}: ${partial.detail}${first}; the partial result was still printed and written`);
}
