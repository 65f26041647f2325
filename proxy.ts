import { NextResponse, type NextRequest } from "next/server";
import { apiPermission } from "@/lib/auth/api-permissions";
import { can, minimumRole } from "@/lib/auth/roles";
import { unauthenticated } from "@/server/auth/guard";
import { resolvePrincipal, sessionPrincipal } from "@/server/auth/principal";
import { principalHeader, withProxiedPrincipal } from "@/server/auth/proxied-principal";
import { isSecureRequest } from "@/server/auth/request";
import { errorResponse, isDatabaseUnavailable, toErrorResponse } from "@/server/http/errors";
import { methodNotAllowed } from "@/server/http/method-not-allowed";
import { databaseUnavailablePage } from "@/server/http/unavailable-page";
import { localeCookie } from "@/i18n/locales";
import { apiContentSecurityPolicy, contentSecurityPolicy, withSecurityHeaders as withHeaders } from "@/server/http/security-headers";

/**
 * No request body may be larger than this, whatever the route (each route has its own, usually much smaller,
 * limit too: `readJson(request, schema, limit)`, cut short before Next.js buffers it by scripts/body-limit.mjs).
 * Next.js buffers bodies for the proxy up to `proxyClientMaxBodySize` (next.config.ts), set just above this. The
 * routes that take bodies over 1 MiB (rank tables and jobs: 32 MiB, fault-event batches: 16 MiB, diagnosis uploads:
 * more) do not pass the proxy when they carry one (`config.matcher`): their bodies stream to the handler, which
 * checks its own limit.
 */
export const maxBodyBytes = 32 * 1024 * 1024 + 64 * 1024;

/** Pages anyone may open. */
const publicPages = new Set(["/sign-in"]);

/**
 * In front of every request (Node.js runtime): security headers and the CSP nonce; for /api/v1 the central
 * permission check (route handlers check again with `route()`); for pages, a redirect to the sign-in page when
 * there is no valid session (pages check again with `requirePage()`, which also knows each page's role). The caller
 * found here is handed on, sealed, in a request header (server/auth/proxied-principal.ts), so the handler's or page's
 * check does not look the session up a second time.
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  const secure = isSecureRequest(request.headers, request.url);

  if (pathname === "/api" || pathname.startsWith("/api/")) {
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > maxBodyBytes) {
      return withHeaders(errorResponse(413, "payload_too_large", `the body is larger than ${maxBodyBytes} bytes`, { limit: maxBodyBytes }), secure, apiContentSecurityPolicy);
    }
    // Next.js answers a method the route does not export with an empty 405; answer it in the error shape instead (the
    // streamed routes answer it themselves when the request has a body, which skips the proxy: methodNotAllowedRoute).
    const notAllowed = methodNotAllowed(request.method, pathname);
    if (notAllowed) return withHeaders(notAllowed, secure, apiContentSecurityPolicy);
    const permission = apiPermission(pathname, request.method);
    if (permission === "public") {
      if (!request.headers.has(principalHeader)) return withHeaders(NextResponse.next(), secure, apiContentSecurityPolicy);
      const stripped = new Headers(request.headers);
      stripped.delete(principalHeader);
      return withHeaders(NextResponse.next({ request: { headers: stripped } }), secure, apiContentSecurityPolicy);
    }
    let principal: Awaited<ReturnType<typeof resolvePrincipal>>;
    try {
      principal = await resolvePrincipal(request.headers, request.url);
    } catch (error) {
      // The database is unreachable (503 with Retry-After) or failed: the same answer the route handler gives.
      return withHeaders(toErrorResponse(error), secure, apiContentSecurityPolicy);
    }
    if (principal.kind === "anonymous") {
      return withHeaders(toErrorResponse(unauthenticated(principal.reason)), secure, apiContentSecurityPolicy);
    }
    if (!can(principal.role, permission)) {
      return withHeaders(errorResponse(403, "forbidden", `this needs the ${minimumRole(permission)} role`), secure, apiContentSecurityPolicy);
    }
    return withHeaders(NextResponse.next({ request: { headers: withProxiedPrincipal(request.headers, principal) } }), secure, apiContentSecurityPolicy);
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", secure });
  let user: Awaited<ReturnType<typeof sessionPrincipal>>;
  try {
    user = await sessionPrincipal(request.headers, request.url);
  } catch (error) {
    // A session that cannot be read is not a missing one: say the database is away rather than ask to sign in.
    if (!isDatabaseUnavailable(error)) throw error;
    return withHeaders(databaseUnavailablePage(request.headers, request.cookies.get(localeCookie)?.value), secure, csp);
  }
  const signedIn = user !== undefined;
  if (!signedIn && !publicPages.has(pathname)) {
    const target = new URL("/sign-in", request.url);
    if (pathname !== "/") target.searchParams.set("next", `${pathname}${request.nextUrl.search}`);
    return withHeaders(NextResponse.redirect(target), secure, csp);
  }
  if (signedIn && pathname === "/sign-in") return withHeaders(NextResponse.redirect(new URL("/", request.url)), secure, csp);

  const requestHeaders = withProxiedPrincipal(request.headers, user ?? null);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), secure, csp);
}

export const config = {
  // The routes that take bodies of megabytes (streamedApiRoutes in server/http/body-limits.ts: rank tables, their
  // validation and inventory import, jobs, fault-event batches, diagnosis uploads) go straight to their route handler
  // when the request carries a body (Content-Type or Transfer-Encoding): Next.js buffers the whole body of a request the proxy sees (and cuts it at
  // proxyClientMaxBodySize), and the garbage collections of those copies stalled every other request. Their handlers
  // are unproxiedRoute()s (server/auth/guard.ts): the same guard, limits and headers as here, applied by themselves.
  // Requests to them without a body (their GETs and DELETEs, other methods) still come here, for the 405 shape.
  // A literal, as Next.js requires: server/auth/unproxied.test.ts holds both entries to streamedApiRoutes.
  matcher: [
    "/((?!_next/static|_next/image|favicon.ico|icon.svg|api/v1/(?:jobs(?:/rings-config|/[^/]+/diagnoses)?|fault-events|rank-tables(?:/[^/]+|/[^/]+/text)?|clusters/[^/]+/inventory(?:/preview)?)/?$).*)",
    {
      source: "/api/v1/:streamed(jobs(?:/rings-config|/[^/]+/diagnoses)?|fault-events|rank-tables(?:/[^/]+|/[^/]+/text)?|clusters/[^/]+/inventory(?:/preview)?)",
      // Not Content-Length: clients send "Content-Length: 0" on a PUT or DELETE without a body, whose 405 is the proxy's.
      missing: [
        { type: "header", key: "content-type" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};
