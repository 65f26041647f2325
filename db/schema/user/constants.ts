export { roles, type Role } from "@/lib/auth/roles";

/** Usernames: what better-auth's username plugin accepts, lower-cased. */
export const usernamePattern = /^[a-z0-9_.]{3,30}$/;
export const passwordLength = { min: 10, max: 128 } as const;
/** Users have no e-mail in Rankscope; better-auth needs one, so each gets an address on a reserved domain. */
export const placeholderEmailDomain = "users.rankscope.invalid";
