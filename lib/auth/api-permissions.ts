import type { Permission } from "./roles";

/** API paths only admins may use, whatever the method. */
const adminPrefixes = ["/api/v1/users", "/api/v1/tokens", "/api/v1/audit"];

/** POST endpoints that only compute an answer and change nothing: viewers may use them. */
const readOnlyPosts = new Set(["/api/v1/rank-tables/validate", "/api/v1/affinity/check", "/api/v1/affinity/plan"]);

function under(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * The least permission any request to an API path needs, checked centrally (proxy.ts) before the route handler's
 * own `route(permission, …)` check: /api/v1 reads need `read`, writes `write`, user/token/audit endpoints `admin`.
 * Signing out needs a session (`read`); /api/health, sign-in and unknown /api paths (404) are public.
 */
export function apiPermission(pathname: string, method: string): Permission {
  if (pathname === "/api/auth/sign-out" || pathname === "/api/auth/sign-out-everywhere") return "read";
  if (!under(pathname, "/api/v1")) return "public";
  if (adminPrefixes.some((prefix) => under(pathname, prefix))) return "admin";
  if (method === "POST" && readOnlyPosts.has(pathname)) return "read";
  return method === "GET" || method === "HEAD" || method === "OPTIONS" ? "read" : "write";
}
