import "server-only";
import type { NextResponse } from "next/server";
import { allowedApiMethods } from "@/lib/auth/api-methods";
import { isSecureRequest } from "@/server/auth/request";
import { errorResponse, type ErrorBody } from "./errors";
import { apiContentSecurityPolicy, withSecurityHeaders } from "./security-headers";

/**
 * The 405 for `method` on the API path `pathname`, in the standard error shape with `Allow`; undefined when the route
 * has the method or no route serves the path. Next.js itself answers a method a route file does not export with an
 * empty 405 (no body, no Allow).
 */
export function methodNotAllowed(method: string, pathname: string): NextResponse<ErrorBody> | undefined {
  const allowed = allowedApiMethods(pathname);
  if (!allowed || allowed.includes(method)) return undefined;
  return errorResponse(405, "method_not_allowed", `${method} is not allowed on ${pathname}; use ${allowed.join(", ")}`, { allowed }, { allow: allowed.join(", ") });
}

const notAllowedHandlers = new WeakSet<object>();

/**
 * The handler a streamed route (`streamedApiRoutes`, server/http/body-limits.ts) exports for each method it lacks:
 * a request with a body to such a route skips proxy.ts (its `config.matcher`), whose 405 would otherwise answer it,
 * so the route answers the proxy's 405 itself, with the security headers the proxy adds. Not a route of its own:
 * `lib/auth/api-methods.ts` does not list these methods, and the tests that walk route exports skip them
 * (isMethodNotAllowedHandler).
 */
export const methodNotAllowedRoute = markNotAllowed(async (request: Request): Promise<Response> => {
  const response = methodNotAllowed(request.method, new URL(request.url).pathname) ?? errorResponse(405, "method_not_allowed", `${request.method} is not allowed here`);
  return withSecurityHeaders(response, isSecureRequest(request.headers, request.url), apiContentSecurityPolicy);
});

function markNotAllowed<T extends object>(handler: T): T {
  notAllowedHandlers.add(handler);
  return handler;
}

export const isMethodNotAllowedHandler = (handler: unknown): boolean => typeof handler === "function" && notAllowedHandlers.has(handler);
