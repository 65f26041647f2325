import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { sessions } from "@/db/schema";
import { withAppDatabase } from "@/test/app-database";
import { systemActor } from "@/db/queries/audit";
import { createUser } from "@/db/queries/users";
import { createPrincipals, origin, signInCookie } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { principalHeader, proxiedPrincipal, sealPrincipal } from "./proxied-principal";

withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
let proxy: typeof import("@/proxy").proxy;
let me: Handler;
let users: Handler;
let credentials: Awaited<ReturnType<typeof createPrincipals>>;

beforeAll(async () => {
  credentials = await createPrincipals(testDatabase().db);
  ({ proxy } = await import("@/proxy"));
  ({ GET: me } = (await import("@/app/api/v1/me/route")) as unknown as { GET: Handler });
  ({ GET: users } = (await import("@/app/api/v1/users/route")) as unknown as { GET: Handler });
});

const params = { params: Promise.resolve({}) };

/** The request headers the proxy hands on to the handler (NextResponse.next({ request: { headers } })). */
function forwarded(response: Response): Headers {
  const names = response.headers.get("x-middleware-override-headers")?.split(",") ?? [];
  const headers = new Headers();
  for (const name of names) {
    const value = response.headers.get(`x-middleware-request-${name}`);
    if (value !== null) headers.set(name, value);
  }
  return headers;
}

/** A request through the proxy, then the handler with what the proxy handed on (as Next.js does). */
async function throughProxy(path: string, headers: Record<string, string>, handler: Handler): Promise<Response> {
  const viaProxy = await proxy(new NextRequest(`${origin}${path}`, { headers }));
  if (viaProxy.headers.get("x-middleware-next") !== "1") return viaProxy;
  return handler(new Request(`${origin}${path}`, { headers: forwarded(viaProxy) }), params);
}

/** A header that claims an admin, as a client could send it: well formed, but not sealed by this process. */
function forgedAdmin(): string {
  const payload = Buffer.from(JSON.stringify({ p: { kind: "user", id: "x", username: "x", name: "x", role: "admin", sessionId: "x" }, at: Date.now() })).toString("base64url");
  return `${payload}.${Buffer.alloc(32, 7).toString("base64url")}`;
}

describe("the caller found by the proxy, handed to the handler", () => {
  it("is used by the handler without a second lookup: a session deleted in between still passes the request it was checked for", async () => {
    const user = await createUser(testDatabase().db, { username: "handed_on", password: "handed-on-password", role: "viewer" }, systemActor);
    const cookie = await signInCookie("handed_on", "handed-on-password");
    const viaProxy = await proxy(new NextRequest(`${origin}/api/v1/me`, { headers: { cookie } }));
    const handedOn = forwarded(viaProxy);
    expect(proxiedPrincipal(handedOn)?.principal).toMatchObject({ kind: "user", role: "viewer" });
    // The handler's own lookup would now find no session: the proxy's answer is what it used.
    await testDatabase().db.delete(sessions).where(eq(sessions.userId, user.id));
    const response = await me(new Request(`${origin}/api/v1/me`, { headers: handedOn }), params);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ kind: "user", role: "viewer" });
    // …and the next request, looked up by the proxy again, is refused.
    const next = await throughProxy("/api/v1/me", { cookie }, me);
    expect(next.status).toBe(401);
  });

  it("ignores a header a client forged, with or without credentials of its own", async () => {
    const anonymous = await me(new Request(`${origin}/api/v1/me`, { headers: { [principalHeader]: forgedAdmin() } }), params);
    expect(anonymous.status).toBe(401);
    const viewer = await users(new Request(`${origin}/api/v1/users`, { headers: { cookie: credentials.cookies.viewer, [principalHeader]: forgedAdmin() } }), params);
    expect(viewer.status).toBe(403);
    const asToken = await users(new Request(`${origin}/api/v1/users`, { headers: { authorization: `Bearer ${credentials.tokens.viewer}`, [principalHeader]: forgedAdmin() } }), params);
    expect(asToken.status).toBe(403);
  });

  it("ignores a sealed header sent with other credentials than those it was sealed for, or too old", async () => {
    const adminHeaders = new Headers({ cookie: credentials.cookies.admin });
    const sealedForAdmin = forwarded(await proxy(new NextRequest(`${origin}/api/v1/users`, { headers: adminHeaders }))).get(principalHeader)!;
    expect(proxiedPrincipal(new Headers({ cookie: credentials.cookies.admin, [principalHeader]: sealedForAdmin }))?.principal).toMatchObject({ role: "admin" });
    const replayed = await users(new Request(`${origin}/api/v1/users`, { headers: { cookie: credentials.cookies.viewer, [principalHeader]: sealedForAdmin } }), params);
    expect(replayed.status).toBe(403);
    const old = sealPrincipal({ kind: "user", id: "x", username: "x", name: "x", role: "admin", sessionId: "x" }, adminHeaders, Date.now() - 120_000);
    expect(proxiedPrincipal(new Headers({ cookie: credentials.cookies.admin, [principalHeader]: old }))).toBeUndefined();
  });

  it("is replaced by the proxy when a client sent one, and removed on public routes", async () => {
    const forged = forgedAdmin();
    const viaProxy = await proxy(new NextRequest(`${origin}/api/v1/me`, { headers: { cookie: credentials.cookies.viewer, [principalHeader]: forged } }));
    const handedOn = forwarded(viaProxy).get(principalHeader);
    expect(handedOn).not.toBe(forged);
    expect(proxiedPrincipal(forwarded(viaProxy))?.principal).toMatchObject({ role: "viewer" });
    const publicRoute = await proxy(new NextRequest(`${origin}/api/health`, { headers: { [principalHeader]: forged } }));
    expect(publicRoute.headers.get("x-middleware-next")).toBe("1");
    expect(forwarded(publicRoute).has(principalHeader)).toBe(false);
    const page = await proxy(new NextRequest(`${origin}/sign-in`, { headers: { [principalHeader]: forged } }));
    expect(proxiedPrincipal(forwarded(page))).toEqual({ principal: null });
  });
});
