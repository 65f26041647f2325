import "server-only";
import type { AuditActor } from "@/db/queries/audit";
import { can, minimumRole, type Permission } from "@/lib/auth/roles";
import { ApiError, handler } from "@/server/http/errors";
import { rememberWrite } from "@/server/http/read-routing";
import { apiContentSecurityPolicy, withSecurityHeaders } from "@/server/http/security-headers";
import { assertStorableUrl } from "@/server/http/url-text";
import { auditActor, resolvePrincipal, type Principal } from "./principal";
import { proxiedPrincipal } from "./proxied-principal";
import { limits } from "./rate-limit";
import { isSameOrigin, isSecureRequest, isUnsafeMethod } from "./request";

export const unauthenticatedMessages = {
  no_credentials: "sign in, or send an API token as Authorization: Bearer <token>",
  invalid_token: "the API token is unknown, revoked or expired",
  invalid_session: "the session has ended or is not valid: sign in again",
} as const;

/**
 * THE permission check for API route handlers: who is calling (API token or session cookie), may they do
 * `permission`, and for mutations the CSRF check (cookie callers) or the write rate limit (token callers).
 * Throws ApiError 401 (no or bad credentials), 403 (role too low, or cross-site), 429 (rate limit).
 * Use it through `route()`, which also gives the standard error shape.
 */
export async function authorize(request: Request, permission: Exclude<Permission, "public">): Promise<Principal> {
  // Found by proxy.ts for this very request (sealed: a client cannot forge it), else looked up here.
  const principal = proxiedPrincipal(request.headers)?.principal ?? (await resolvePrincipal(request.headers, request.url));
  if (principal.kind === "anonymous") throw unauthenticated(principal.reason);
  if (!can(principal.role, permission)) {
    throw new ApiError(403, "forbidden", `this needs the ${minimumRole(permission)} role; ${describe(principal)} has the ${principal.role} role`);
  }
  if (isUnsafeMethod(request.method)) {
    if (principal.kind === "user" && !isSameOrigin(request.headers, request.url)) {
      throw new ApiError(403, "csrf_rejected", "cross-site request refused: send Origin from this site, or use an API token");
    }
    if (principal.kind === "token") {
      const waitMs = await limits.tokenWrites.hit(`token:${principal.id}`);
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new ApiError(429, "rate_limited", `too many writes with this token: retry in ${seconds} s`, { retryAfterSeconds: seconds }, {
          "retry-after": String(seconds),
        });
      }
    }
  }
  return principal;
}

/** The 401 for a caller without usable credentials, saying which (none, a bad token, an ended session). */
export function unauthenticated(reason: keyof typeof unauthenticatedMessages): ApiError {
  return new ApiError(401, "unauthenticated", unauthenticatedMessages[reason], undefined, {
    "www-authenticate": reason === "invalid_token" ? 'Bearer error="invalid_token"' : "Bearer",
  });
}

function describe(principal: Principal): string {
  return principal.kind === "user" ? `user ${principal.username}` : `token ${principal.name}`;
}

export interface Guarded<Context> {
  request: Request;
  context: Context;
  principal: Principal;
  /** Who and from where, for `recordAudit`. */
  actor: AuditActor;
}

/**
 * Wraps a route handler: `export const POST = route("write", async ({ request, principal, actor }) => ...)`.
 * Every /api/v1 handler is built this way; the authorisation matrix test (app/authorization.int.test.ts) fails for
 * a route file that it does not list.
 */
export function route<Context = unknown>(
  permission: Exclude<Permission, "public">,
  fn: (guarded: Guarded<Context>) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return handler(async (request: Request, context: Context) => {
    const principal = await authorize(request, permission);
    assertStorableUrl(request);
    const response = await fn({ request, context, principal, actor: auditActor(principal, request.headers) });
    // With a read replica, the caller's next reads must see this write (server/http/read-routing.ts).
    return isUnsafeMethod(request.method) ? rememberWrite(request, response) : response;
  });
}

/**
 * route() for the API routes proxy.ts does not see when a request carries a body (`streamedApiRoutes` in
 * server/http/body-limits.ts; the proxy's `config.matcher` leaves them out so that large request bodies stream to the
 * handler instead of being buffered whole first): the same guard (credentials, role, CSRF, rate limit), and the
 * security headers the proxy puts on every answer, errors included. Every handler of such a route uses it (a GET with
 * a body skips the proxy too). The body limit is the preload's (scripts/body-limit.mjs) and the handler's own.
 */
export function unproxiedRoute<Context = unknown>(
  permission: Exclude<Permission, "public">,
  fn: (guarded: Guarded<Context>) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  const guarded = route(permission, fn);
  return async (request, context) => withSecurityHeaders(await guarded(request, context), isSecureRequest(request.headers, request.url), apiContentSecurityPolicy);
}
