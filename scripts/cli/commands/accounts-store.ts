/**
 * What the account commands need from the database, in one module that `accounts.ts` loads only when an account
 * command runs: the rank-table commands then start without loading the database layer.
 */
export { migrate } from "../../../db/migrate";
export { unlockSignIn } from "../../../db/queries/sign-in-throttle";
export { createApiToken, listApiTokens, revokeApiToken } from "../../../db/queries/tokens";
export { createUser, findUserByUsername, listUsers, updateUser, UserConflictError } from "../../../db/queries/users";
export { withDatabase } from "../../database";
