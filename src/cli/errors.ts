export { isUserError, USER_ERROR_EXIT_CODE, UsageError } from '../common/user-error.ts';
