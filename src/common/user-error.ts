/**
 * The one class of errors that are the user's to fix: a bad argument, property, setting, URL or
 * file, a missing prerequisite, a server that does not answer. Every entry point (the CLI, the
 * service's start-up) prints such an error as one line naming the culprit and exits 2, without a
 * stack trace; anything else is a docbench bug and keeps its stack.
 *
 * Lives in `common/`, below every layer, so that `workload/`, `stores/`, `local/` and
 * `scenarios/` can all throw it without importing the CLI.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A mistake in what the user asked for: bad argument, bad combination, missing file. */
export class UsageError extends UserError {}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** Exit code for every user error, as YCSB-style tools and shells expect for bad usage. */
export const USER_ERROR_EXIT_CODE = 2;
