import { UserError } from '../common/user-error.ts';

export { isUserError, USER_ERROR_EXIT_CODE } from '../common/user-error.ts';

/** A mistake in what the user asked for: bad argument, bad combination, missing file. */
export class UsageError extends UserError {}
