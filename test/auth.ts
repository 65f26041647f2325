/** Helpers for tests that act as a signed-in user or a token holder. */
import { expect } from "vitest";
import { createApiToken } from "@/db/queries/tokens";
import { createUser } from "@/db/queries/users";
import { systemActor } from "@/db/queries/audit";
import type { Database } from "@/db/client";
import type { Role } from "@/lib/auth/roles";

export const origin = "http://localhost:3000";

export function jsonRequest(path: string, method: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${origin}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Signs in through the real route handler and returns the Cookie header value of the session. */
export async function signInCookie(username: string, password: string): Promise<string> {
  const { POST } = await import("@/app/api/auth/sign-in/route");
  const response = await POST(jsonRequest("/api/auth/sign-in", "POST", { username, password }, { origin }));
  expect(response.status, await response.clone().text()).toBe(200);
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]!);
  expect(cookies.some((c) => c.startsWith("rankscope.session_token="))).toBe(true);
  return cookies.join("; ");
}

/** GET /api/v1/me with a session cookie: 200 while the session is good. */
export async function asCookie(cookie: string): Promise<Response> {
  const { GET } = await import("@/app/api/v1/me/route");
  return GET(jsonRequest("/api/v1/me", "GET", undefined, { cookie }), { params: Promise.resolve({}) });
}

/** GET /api/v1/me with a Bearer token: 200 while the token is good. */
export async function asToken(token: string): Promise<Response> {
  const { GET } = await import("@/app/api/v1/me/route");
  return GET(jsonRequest("/api/v1/me", "GET", undefined, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });
}

/** One sign-in through the real route handler, from 10.0.0.7 as X-Forwarded-For says (believed only from a trusted proxy). */
export async function signInAttempt(username: string, password: string): Promise<Response> {
  const { POST } = await import("@/app/api/auth/sign-in/route");
  return POST(jsonRequest("/api/auth/sign-in", "POST", { username, password }, { origin, "x-forwarded-for": "10.0.0.7" }));
}

export const testPassword = (role: string) => `${role}-password-for-tests`;

/** A user per role (viewer, editor, admin) and a token per role; returns their credentials. */
export async function createPrincipals(db: Database): Promise<{
  cookies: Record<Role, string>;
  tokens: Record<Role, string>;
  userIds: Record<Role, string>;
}> {
  const roles: Role[] = ["viewer", "editor", "admin"];
  const cookies = {} as Record<Role, string>;
  const tokens = {} as Record<Role, string>;
  const userIds = {} as Record<Role, string>;
  for (const role of roles) {
    const user = await createUser(db, { username: `test_${role}`, password: testPassword(role), role }, systemActor);
    userIds[role] = user.id;
    cookies[role] = await signInCookie(`test_${role}`, testPassword(role));
    tokens[role] = (await createApiToken(db, { name: `test ${role}`, role }, systemActor)).token;
  }
  return { cookies, tokens, userIds };
}
