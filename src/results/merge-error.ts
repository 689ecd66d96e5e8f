import { UserError } from '../common/user-error.ts';

/** Result files that cannot be merged into one: one line naming why. */
export class MergeError extends UserError {}
