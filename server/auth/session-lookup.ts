import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { appDatabase } from "@/db/client";
import { findSessionByTokenHash, type SessionWithUser } from "@/db/queries/sessions";
import { hashToken } from "@/lib/auth/tokens";
import { authSecret, sessionCookieName, sessionLifetimeSeconds, sessionRefreshSeconds } from "./better-auth";

/**
 * The session lookup every request makes, without better-auth's machinery on the common path. better-auth's
 * `getSession` verified the cookie's signature through WebCrypto (a thread-pool job per call), then ran two queries
 * built afresh each time (the session by token, then its user): about 2-3 ms of CPU a call, and a request made it
 * twice (proxy.ts and the route's guard). Opening 1,000 event streams spent ~11 ms of server CPU each (a V8 profile
 * of `npm run bench -- sse`: HMAC jobs, query building, node-postgres), 36 s at load average 17-20.
 *
 * This does what getSession does for a valid, recently refreshed session, and nothing is cached: the signature
 * (HMAC-SHA256 with better-auth's secret, as better-call signs it) checked synchronously, then one prepared query
 * (session joined to its user, by the token's SHA-256) on the primary at every call, so a session deleted (sign-out,
 * sign-out everywhere, a disabled user, a new password) is refused on the very next request, on every instance.
 * Whatever else getSession would do is left to it (`"better-auth"`): an expired session (it deletes the row) and a
 * session due for its hourly refresh (it moves `expires_at`), so sessions still last 12 hours from the last use.
 */
export type SessionLookup =
  | { kind: "found"; session: SessionWithUser }
  | { kind: "none" }
  /** Let better-auth's getSession answer (and write what it writes). */
  | { kind: "better-auth" };

/** The first value of cookie `name` in a Cookie header, decoded as better-call decodes it (its parseCookies). */
export function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) value = value.slice(1, -1);
    try {
      return value.includes("%") ? decodeURIComponent(value) : value;
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * The token of a signed cookie value (`<token>.<base64 HMAC-SHA256 of the token>`), or undefined when the signature
 * is missing, malformed or wrong: better-call's getSignedCookie, with node:crypto's synchronous HMAC.
 */
export function verifiedToken(signed: string, secret: string): string | undefined {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return undefined;
  const token = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return undefined;
  const expected = createHmac("sha256", secret).update(token, "utf8").digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined;
}

/** better-auth's refresh rule: the session is refreshed once `updateAge` has passed since it was last extended. */
export function refreshDue(expiresAt: Date, now = Date.now()): boolean {
  return expiresAt.getTime() - sessionLifetimeSeconds * 1000 + sessionRefreshSeconds * 1000 <= now;
}

export async function lookUpSession(cookieHeader: string, secure: boolean): Promise<SessionLookup> {
  const signed = cookieValue(cookieHeader, sessionCookieName(secure));
  if (!signed) return { kind: "none" };
  const token = verifiedToken(signed, await authSecret());
  if (!token) return { kind: "none" };
  const session = await findSessionByTokenHash(appDatabase().db, hashToken(token));
  if (!session) return { kind: "none" };
  if (session.expiresAt.getTime() <= Date.now() || refreshDue(session.expiresAt)) return { kind: "better-auth" };
  return { kind: "found", session };
}
