/** Passwords, session cookies and their end, and the cross-site check, through the auth route handlers against PostgreSQL. */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accounts, sessions } from "@/db/schema";
import { createUser, updateUser } from "@/db/queries/users";
import { systemActor } from "@/db/queries/audit";
import { withAppDatabase } from "@/test/app-database";
import { asCookie, jsonRequest, origin, signInAttempt, signInCookie } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { peerAddressHeader, peerSchemeHeader } from "./request";

withAppDatabase();

let signInPost: typeof import("@/app/api/auth/sign-in/route").POST;
let signOutPost: typeof import("@/app/api/auth/sign-out/route").POST;
let signOutEverywhere: typeof import("@/app/api/auth/sign-out-everywhere/route").POST;

beforeAll(async () => {
  ({ POST: signInPost } = await import("@/app/api/auth/sign-in/route"));
  ({ POST: signOutPost } = await import("@/app/api/auth/sign-out/route"));
  ({ POST: signOutEverywhere } = await import("@/app/api/auth/sign-out-everywhere/route"));
});

describe("passwords", () => {
  it("are stored as scrypt hashes, never as given, and salted per user", async () => {
    const { db } = testDatabase();
    const a = await createUser(db, { username: "hash_a", password: "same-password-1", role: "viewer" }, systemActor);
    const b = await createUser(db, { username: "hash_b", password: "same-password-1", role: "viewer" }, systemActor);
    const stored = await db.select({ userId: accounts.userId, password: accounts.password }).from(accounts);
    const hashA = stored.find((r) => r.userId === a.id)?.password ?? "";
    const hashB = stored.find((r) => r.userId === b.id)?.password ?? "";
    expect(hashA).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/); // salt:key, scrypt N=16384 r=16 p=1
    expect(hashA).not.toContain("same-password-1");
    expect(hashA).not.toBe(hashB);
    const cookie = await signInCookie("hash_a", "same-password-1");
    expect((await asCookie(cookie)).status).toBe(200);
    expect((await signInAttempt("hash_a", "same-password-2")).status).toBe(401);
  });
});

describe("sessions", () => {
  it("set an HTTP-only, SameSite=Lax cookie, Secure only over HTTPS", async () => {
    const { db } = testDatabase();
    await createUser(db, { username: "cookie_user", password: "cookie-password", role: "viewer" }, systemActor);
    const plain = await signInAttempt("cookie_user", "cookie-password");
    const [cookie] = plain.headers.getSetCookie();
    expect(cookie).toMatch(/^rankscope\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const overTls = await signInPost(
      jsonRequest("/api/auth/sign-in", "POST", { username: "cookie_user", password: "cookie-password" }, { [peerAddressHeader]: "10.0.0.8", [peerSchemeHeader]: "https" }),
    );
    expect(overTls.headers.getSetCookie()[0]).toMatch(/^__Secure-rankscope\.session_token=.*Secure/i);
    // X-Forwarded-Proto counts only from a configured proxy.
    const claimed = { [peerAddressHeader]: "10.0.0.9", "x-forwarded-proto": "https" };
    const unproxied = await signInPost(jsonRequest("/api/auth/sign-in", "POST", { username: "cookie_user", password: "cookie-password" }, claimed));
    expect(unproxied.headers.getSetCookie()[0]).not.toMatch(/Secure/i);
    process.env.RANKSCOPE_TRUSTED_PROXIES = "10.0.0.9";
    try {
      const proxied = await signInPost(jsonRequest("/api/auth/sign-in", "POST", { username: "cookie_user", password: "cookie-password" }, claimed));
      expect(proxied.headers.getSetCookie()[0]).toMatch(/^__Secure-rankscope\.session_token=.*Secure/i);
    } finally {
      delete process.env.RANKSCOPE_TRUSTED_PROXIES;
    }
  });

  it("expire: a session past its expiry is refused", async () => {
    const { db } = testDatabase();
    const user = await createUser(db, { username: "expiring", password: "expiring-password", role: "viewer" }, systemActor);
    const cookie = await signInCookie("expiring", "expiring-password");
    expect((await asCookie(cookie)).status).toBe(200);
    await db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    const response = await asCookie(cookie);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthenticated");
  });

  it("end at sign-out, and sign-out everywhere ends every browser's session", async () => {
    const { db } = testDatabase();
    await createUser(db, { username: "leaver", password: "leaver-password", role: "editor" }, systemActor);
    const first = await signInCookie("leaver", "leaver-password");
    const second = await signInCookie("leaver", "leaver-password");
    const third = await signInCookie("leaver", "leaver-password");
    const out = await signOutPost(jsonRequest("/api/auth/sign-out", "POST", undefined, { cookie: first, origin }), { params: Promise.resolve({}) });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/rankscope\.session_token=;|Max-Age=0/i);
    expect((await asCookie(first)).status).toBe(401);
    expect((await asCookie(second)).status).toBe(200);
    expect((await signOutEverywhere(jsonRequest("/api/auth/sign-out-everywhere", "POST", undefined, { cookie: second, origin }), { params: Promise.resolve({}) })).status).toBe(204);
    expect((await asCookie(second)).status).toBe(401);
    expect((await asCookie(third)).status).toBe(401);
  });

  it("end when the user is disabled or gets a new password, and a role change applies at once", async () => {
    const { db } = testDatabase();
    const user = await createUser(db, { username: "changing", password: "changing-password", role: "admin" }, systemActor);
    await createUser(db, { username: "other_admin", password: "other-admin-password", role: "admin" }, systemActor);
    const cookie = await signInCookie("changing", "changing-password");
    const { GET: usersGet } = await import("@/app/api/v1/users/route");
    const listUsers = () => usersGet(jsonRequest("/api/v1/users", "GET", undefined, { cookie }), { params: Promise.resolve({}) });
    expect((await listUsers()).status).toBe(200);
    await updateUser(db, user.id, { role: "viewer" }, systemActor);
    expect((await listUsers()).status).toBe(403);
    expect((await asCookie(cookie)).status).toBe(200);
    await updateUser(db, user.id, { disabled: true }, systemActor);
    expect((await asCookie(cookie)).status).toBe(401);
    expect((await signInAttempt("changing", "changing-password")).status).toBe(401);
    await updateUser(db, user.id, { disabled: false }, systemActor);
    const again = await signInCookie("changing", "changing-password");
    await updateUser(db, user.id, { password: "a-new-password" }, systemActor);
    expect((await asCookie(again)).status).toBe(401);
    await signInCookie("changing", "a-new-password");
  });

  it("refuse a forged or tampered cookie", async () => {
    const { db } = testDatabase();
    await createUser(db, { username: "forger", password: "forger-password", role: "admin" }, systemActor);
    const cookie = await signInCookie("forger", "forger-password");
    const [, value = ""] = cookie.split("=");
    const [token = ""] = decodeURIComponent(value).split(".");
    // the raw session token without the HMAC signature, a signature from another secret, garbage
    for (const forged of [`rankscope.session_token=${token}`, `rankscope.session_token=${token}.${"A".repeat(43)}=`, "rankscope.session_token=x.y"]) {
      expect((await asCookie(forged)).status).toBe(401);
    }
  });
});

describe("the cross-site check", () => {
  it("compares scheme, host and port with the request's own origin and ignores a client's X-Forwarded-Host", async () => {
    const { db } = testDatabase();
    await createUser(db, { username: "csrf_user", password: "csrf-user-password", role: "editor" }, systemActor);
    const cookie = await signInCookie("csrf_user", "csrf-user-password");
    const signOut = (headers: Record<string, string>) =>
      signOutPost(jsonRequest("/api/auth/sign-out", "POST", undefined, { cookie, host: "localhost:3000", [peerAddressHeader]: "192.0.2.30", ...headers }), { params: Promise.resolve({}) });
    const code = async (response: Response) => (response.status === 403 ? (await response.json()).error.code : response.status);
    expect(await code(await signOut({ origin: "https://evil.example", "x-forwarded-host": "evil.example" }))).toBe("csrf_rejected");
    expect(await code(await signOut({ origin: "http://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }))).toBe("csrf_rejected");
    expect(await code(await signOut({ origin: "https://localhost:3000" }))).toBe("csrf_rejected"); // another scheme
    expect(await code(await signOut({ origin: "http://localhost:3001" }))).toBe("csrf_rejected"); // another port
    expect(await code(await signOut({ origin: "http://localhost:3000" }))).toBe(204);
  });
});
