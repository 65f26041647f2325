import "server-only";
import { NextResponse } from "next/server";
import { appDatabase } from "@/db/client";
import { recordAudit } from "@/db/queries/audit";
import { endSessions } from "@/db/queries/users";
import { clearSignInFailures, isUsualAddress, recordSignInFailure, signInKeys, signInLockMs } from "@/db/queries/sign-in-throttle";
import { signInSchema } from "@/db/schema/user/validation";
import { isRole } from "@/lib/auth/roles";
import { readJson } from "@/server/http/body";
import { ApiError } from "@/server/http/errors";
import { authFor } from "./better-auth";
import { auditActor } from "./principal";
import { limits } from "./rate-limit";
import { clientAddress, isSameOrigin, isSecureRequest } from "./request";

function locked(ms: number): ApiError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(429, "sign_in_locked", `too many failed sign-ins: try again in ${seconds} s`, { retryAfterSeconds: seconds }, {
    "retry-after": String(seconds),
  });
}

/** Headers better-auth may see: the client address and user agent it stores with the session, nothing else. */
function forwardedHeaders(headers: Headers, ip: string, cookie?: string): Headers {
  const forwarded = new Headers({ "x-rankscope-client-ip": ip, "user-agent": headers.get("user-agent") ?? "" });
  if (cookie) forwarded.set("cookie", cookie);
  return forwarded;
}

/**
 * POST /api/auth/sign-in with {"username","password"}: checks the back-off (per username and address, per address,
 * and per username unless the address is one the user signed in from lately: db/queries/sign-in-throttle.ts),
 * lets better-auth verify the password and create the session, records the outcome in the audit log, and answers
 * with the session cookie. Every failure looks the same to the caller (unknown user, wrong password, disabled).
 */
export async function signIn(request: Request): Promise<Response> {
  const headers = request.headers;
  if (headers.get("origin") && !isSameOrigin(headers, request.url)) {
    throw new ApiError(403, "csrf_rejected", "cross-site sign-in refused");
  }
  const ip = clientAddress(headers);
  const burst = await limits.signIn.hit(`ip:${ip}`);
  if (burst > 0) throw locked(burst);

  const { username, password } = await readJson(request, signInSchema, 4 * 1024);
  const db = appDatabase().db;
  const throttle = signInKeys(username, ip);
  const keys = [throttle.pair, throttle.address, throttle.account];
  const usual = await isUsualAddress(db, username, ip);
  // Failures count against all three keys; the account-wide lock does not hold at the user's usual address.
  const locking = usual ? [throttle.pair, throttle.address] : keys;
  const waitMs = await signInLockMs(db, locking);
  if (waitMs > 0) {
    await recordAudit(db, { actor: auditActor(undefined, headers, username), action: "auth.sign_in_locked", details: { retryAfterSeconds: Math.ceil(waitMs / 1000) } });
    throw locked(waitMs);
  }

  const auth = await authFor(isSecureRequest(headers, request.url));
  let result: { headers: Headers; user: { id: string; username?: string | null; role?: string | null } } | undefined;
  let reason = "invalid_credentials";
  try {
    const answer = await auth.api.signInUsername({ body: { username, password }, headers: forwardedHeaders(headers, ip), returnHeaders: true });
    if (answer.response?.user) result = { headers: answer.headers, user: answer.response.user };
  } catch (error) {
    if (!(error instanceof Error) || !("status" in error)) throw error;
    reason = (error as { body?: { code?: string } }).body?.code?.toLowerCase() ?? reason;
  }
  const user = result?.user;
  if (!result || !user || !isRole(user.role)) {
    const lockMs = await recordSignInFailure(db, keys, locking);
    await recordAudit(db, { actor: auditActor(undefined, headers, username), action: "auth.sign_in_failed", details: { reason } });
    throw new ApiError(401, "invalid_credentials", "the username or password is wrong, or the account is disabled", lockMs > 0 ? { retryAfterSeconds: Math.ceil(lockMs / 1000) } : undefined);
  }
  await clearSignInFailures(db, throttle.pair.key);
  await recordAudit(db, {
    actor: { type: "user", id: user.id, name: user.username ?? username, ip, userAgent: headers.get("user-agent") },
    action: "auth.sign_in",
    target: { type: "user", id: user.id },
  });
  const response = NextResponse.json({ user: { id: user.id, username: user.username ?? username, role: user.role } });
  for (const cookie of result.headers.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}

/** Ends the caller's session (or, with `everywhere`, every session of the user) and clears the cookie. */
export async function signOut(request: Request, user: { id: string; username: string }, everywhere: boolean): Promise<Response> {
  const headers = request.headers;
  const db = appDatabase().db;
  const auth = await authFor(isSecureRequest(headers, request.url));
  const count = everywhere ? await endSessions(db, user.id) : undefined;
  const result = await auth.api.signOut({ headers: forwardedHeaders(headers, clientAddress(headers), headers.get("cookie") ?? ""), returnHeaders: true });
  await recordAudit(db, {
    actor: { type: "user", id: user.id, name: user.username, ip: clientAddress(headers), userAgent: headers.get("user-agent") },
    action: everywhere ? "auth.sign_out_everywhere" : "auth.sign_out",
    target: { type: "user", id: user.id },
    details: count === undefined ? undefined : { sessionsEnded: count },
  });
  const response = new NextResponse(null, { status: 204 });
  for (const cookie of result.headers.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}
