import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, username } from "better-auth/plugins";
import { appDatabase } from "@/db/client";
import { ensureAuthSecret } from "@/db/queries/app-secrets";
import * as schema from "@/db/schema";
import { passwordLength, usernamePattern } from "@/db/schema/user/constants";
import { hashSessionTokens } from "./session-token-hash";

/** Sessions last 12 hours from the last use (refreshed at most once an hour), then the user signs in again. */
export const sessionLifetimeSeconds = 12 * 60 * 60;
export const sessionRefreshSeconds = 60 * 60;
/** better-auth's name for the session cookie (`advanced.cookiePrefix` + `.session_token`; `__Secure-` over HTTPS). */
export const sessionCookieName = (secure: boolean) => `${secure ? "__Secure-" : ""}rankscope.session_token`;

function createAuth(secret: string, secure: boolean) {
  return betterAuth({
    appName: "Rankscope",
    secret,
    baseURL: process.env.RANKSCOPE_BASE_URL ?? `http://localhost:${process.env.PORT ?? "3000"}`,
    // sessions.token holds SHA-256 of the cookie's token, never the token (session-token-hash.ts).
    database: hashSessionTokens(
      drizzleAdapter(appDatabase().db, {
        provider: "pg",
        usePlural: true,
        schema: { users: schema.users, sessions: schema.sessions, accounts: schema.accounts, verifications: schema.verifications },
      }),
    ),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: passwordLength.min,
      maxPasswordLength: passwordLength.max,
    },
    session: {
      expiresIn: sessionLifetimeSeconds,
      updateAge: sessionRefreshSeconds,
      // Every request reads the session from PostgreSQL, so sign-out, disabling and role changes act at once.
      cookieCache: { enabled: false },
    },
    advanced: {
      cookiePrefix: "rankscope",
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      ipAddress: { ipAddressHeaders: ["x-rankscope-client-ip"] },
    },
    // better-auth's HTTP endpoints are not mounted (Rankscope's own /api/auth/* routes call auth.api on the server,
    // with the back-off and the audit log around them), so its rate limiter has nothing to do.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { level: "error" },
    plugins: [
      username({
        minUsernameLength: 3,
        maxUsernameLength: 30,
        usernameValidator: (name) => usernamePattern.test(name),
      }),
      admin({ defaultRole: "viewer", adminRoles: ["admin"] }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

interface Instances {
  secure: Auth;
  plain: Auth;
  /** The secret better-auth signs its cookies with (server/auth/session-lookup.ts checks the signature itself). */
  secret: string;
}

const globalForAuth = globalThis as typeof globalThis & { rankscopeAuth?: Promise<Instances> };

async function instances(): Promise<Instances> {
  const secret = await ensureAuthSecret(appDatabase().db);
  return { secure: createAuth(secret, true), plain: createAuth(secret, false), secret };
}

function loaded(): Promise<Instances> {
  globalForAuth.rankscopeAuth ??= instances().catch((error: unknown) => {
    globalForAuth.rankscopeAuth = undefined;
    throw error;
  });
  return globalForAuth.rankscopeAuth;
}

/**
 * The better-auth instance for a request: over HTTPS its cookies are `Secure` (and `__Secure-` prefixed), over
 * plain HTTP (a console on a private network or localhost) they are not, since a browser would drop them.
 */
export async function authFor(secure: boolean): Promise<Auth> {
  const { secure: s, plain } = await loaded();
  return secure ? s : plain;
}

/** The cookie-signing secret of the instances authFor() answers with. */
export async function authSecret(): Promise<string> {
  return (await loaded()).secret;
}

/** Forgets the instances (tests switch databases between files). */
export function resetAuth(): void {
  globalForAuth.rankscopeAuth = undefined;
}
