import "server-only";
import { appDatabase } from "@/db/client";
import { findActiveToken } from "@/db/queries/tokens";
import type { AuditActor } from "@/db/queries/audit";
import { isRole, type Role } from "@/lib/auth/roles";
import { authFor } from "./better-auth";
import { clientAddress, isSecureRequest } from "./request";
import { lookUpSession } from "./session-lookup";

/** Who is calling: a signed-in user (session cookie) or a machine (API token). */
export type Principal =
  | { kind: "user"; id: string; username: string; name: string; role: Role; sessionId: string }
  /** `ownerId`: the user who created the token (its tokens are suspended while that user is disabled). */
  | { kind: "token"; id: number; name: string; role: Role; ownerId: string | null };

/** A request without usable credentials; `reason` becomes the 401's message. */
export interface Anonymous {
  kind: "anonymous";
  reason: "no_credentials" | "invalid_token" | "invalid_session";
}

/**
 * The signed-in user behind a session cookie, read from PostgreSQL on every call: one prepared query on the common
 * path (session-lookup.ts), better-auth's getSession when the session has expired or is due for its refresh.
 */
export async function sessionPrincipal(headers: Headers, url?: string): Promise<Principal | undefined> {
  const cookie = headers.get("cookie");
  if (!cookie || !cookie.includes("rankscope.session_token")) return undefined;
  const secure = isSecureRequest(headers, url);
  const found = await lookUpSession(cookie, secure);
  if (found.kind === "none") return undefined;
  if (found.kind === "found") {
    const { session } = found;
    if (session.banned || !isRole(session.role)) return undefined;
    return { kind: "user", id: session.userId, username: session.username ?? session.name, name: session.name, role: session.role, sessionId: session.sessionId };
  }
  const auth = await authFor(secure);
  const session = await auth.api.getSession({ headers: new Headers({ cookie }) });
  if (!session) return undefined;
  const { user } = session;
  if (user.banned || !isRole(user.role)) return undefined;
  return {
    kind: "user",
    id: user.id,
    username: user.username ?? user.name,
    name: user.name,
    role: user.role,
    sessionId: session.session.id,
  };
}

/** Resolves the caller: `Authorization: Bearer <token>` first (when present it must be valid), then the session. */
export async function resolvePrincipal(headers: Headers, url?: string): Promise<Principal | Anonymous> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match?.[1] ? await findActiveToken(appDatabase().db, match[1]) : undefined;
    if (!token) return { kind: "anonymous", reason: "invalid_token" };
    return { kind: "token", id: token.id, name: token.name, role: token.role, ownerId: token.createdBy };
  }
  const user = await sessionPrincipal(headers, url);
  if (user) return user;
  return { kind: "anonymous", reason: headers.get("cookie")?.includes("rankscope.session_token") ? "invalid_session" : "no_credentials" };
}

/** The audit log's "who and from where" for a request. */
export function auditActor(principal: Principal | Anonymous | undefined, headers: Headers, attemptedName?: string): AuditActor {
  const from = { ip: clientAddress(headers), userAgent: headers.get("user-agent") };
  if (!principal || principal.kind === "anonymous") return { type: "anonymous", name: attemptedName ?? null, ...from };
  if (principal.kind === "user") return { type: "user", id: principal.id, name: principal.username, ...from };
  return { type: "token", id: String(principal.id), name: principal.name, ...from };
}
