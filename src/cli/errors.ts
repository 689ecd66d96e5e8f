import { MissingPrerequisiteError, StartFailedError } from '../local/process.ts';
import { UnknownTargetError } from '../local/targets.ts';
import { UnknownStoreError } from '../stores/registry.ts';
import { UnreachableError } from '../stores/store.ts';
import { WorkloadError } from '../workload/properties.ts';

/** A mistake in what the user asked for: bad argument, bad combination, missing file. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Errors that are the user's to fix (input, environment, an unreachable server). The CLI prints
 * them as one line and exits 2, without a stack trace; anything else is a docbench bug and keeps
 * its stack.
 */
export function isUserError(error: unknown): error is Error {
  return (
    error instanceof UsageError ||
    error instanceof WorkloadError ||
    error instanceof UnknownStoreError ||
    error instanceof UnknownTargetError ||
    error instanceof UnreachableError ||
    error instanceof MissingPrerequisiteError ||
    error instanceof StartFailedError
  );
}

export const USER_ERROR_EXIT_CODE = 2;
