import "server-only";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { can, type Permission } from "@/lib/auth/roles";
import { ApiError } from "@/server/http/errors";
import { auditActor, sessionPrincipal, type Principal } from "./principal";
import { proxiedPrincipal } from "./proxied-principal";

/** The signed-in user of the request being rendered (once per request), or undefined. */
export const currentUser = cache(async (): Promise<Principal | undefined> => {
  const all = await headers();
  // Read through cookies() too, so Next.js treats the page as dynamic (never cached across users).
  await cookies();
  // proxy.ts looked the session up for this request already (server/auth/proxied-principal.ts).
  const proxied = proxiedPrincipal(all);
  if (proxied) return proxied.principal ?? undefined;
  return sessionPrincipal(all);
});

/**
 * THE permission check for pages: call it first in every page (`await requirePage("read", "/topology")`).
 * Not signed in: redirect to the sign-in page (coming back to `path` afterwards); signed in without the role:
 * not found (a page you may not see does not exist for you).
 */
export async function requirePage(permission: Exclude<Permission, "public">, path = "/"): Promise<Principal> {
  const principal = await currentUser();
  if (!principal) redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  if (!can(principal.role, permission)) notFound();
  return principal;
}

/** THE permission check for server actions: throws (401/403 as ApiError) instead of redirecting. */
export async function requireAction(permission: Exclude<Permission, "public">) {
  const principal = await currentUser();
  if (!principal) throw new ApiError(401, "unauthenticated", "sign in again");
  if (!can(principal.role, permission)) throw new ApiError(403, "forbidden", `this needs more than the ${principal.role} role`);
  return { principal, actor: auditActor(principal, await headers()) };
}
