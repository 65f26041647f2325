import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, accounts, apiTokens, rateLimitWindows, sessions, users } from "@/db/schema";
import { createApiToken, revokeApiToken } from "@/db/queries/tokens";
import { createUser, updateUser } from "@/db/queries/users";
import { systemActor } from "@/db/queries/audit";
import { hashToken } from "@/lib/auth/tokens";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin, signInCookie } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { peerAddressHeader, peerSchemeHeader } from "./request";

withAppDatabase();

let signInPost: typeof import("@/app/api/auth/sign-in/route").POST;
let signOutPost: typeof import("@/app/api/auth/sign-out/route").POST;
let signOutEverywhere: typeof import("@/app/api/auth/sign-out-everywhere/route").POST;
let meGet: typeof import("@/app/api/v1/me/route").GET;
let limits: typeof import("./rate-limit").limits;

beforeAll(async () => {
  ({ POST: signInPost } = await import("@/app/api/auth/sign-in/route"));
  ({ POST: signOutPost } = await import("@/app/api/auth/sign-out/route"));
  ({ POST: signOutEverywhere } = await import("@/app/api/auth/sign-out-everywhere/route"));
  ({ GET: meGet } = await import("@/app/api/v1/me/route"));
  ({ limits } = await import("./rate-limit"));
});

const asCookie = (cookie: string) => meGet(jsonRequest("/api/v1/me", "GET", undefined, { cookie }), { params: Promise.resolve({}) });
const asToken = (token: string) => meGet(jsonRequest("/api/v1/me", "GET", undefined, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });
const attempt = (username: string, password: string) => signInPost(jsonRequest("/api/auth/sign-in", "POST", { username, password }, { origin, "x-forwarded-for": "10.0.0.7" }));

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
    expect((await attempt("hash_a", "same-password-2")).status).toBe(401);
  });
});

describe("sessions", () => {
  it("set an HTTP-only, SameSite=Lax cookie, Secure only over HTTPS", async () => {
    const { db } = testDatabase();
    await createUser(db, { username: "cookie_user", password: "cookie-password", role: "viewer" }, systemActor);
    const plain = await attempt("cookie_user", "cookie-password");
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
    expect((await attempt("changing", "changing-password")).status).toBe(401);
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

describe("sign-in back-off", () => {
  it("locks a username after five failures, doubles the lock, and records every failure", async () => {
    await limits.signIn.reset();
    const { db } = testDatabase();
    await createUser(db, { username: "target", password: "target-password", role: "viewer" }, systemActor);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await attempt("target", `wrong-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const locked = await attempt("target", "target-password");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await locked.json()).error.code).toBe("sign_in_locked");
    const failures = await db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in_failed"));
    expect(failures.filter((f) => f.actorName === "target")).toHaveLength(6);
    expect(failures[0]?.ip).toBe("10.0.0.7");
  });

  it("counts per username and address: failures elsewhere do not lock the user out where they usually sign in", async () => {
    await limits.signIn.reset();
    const { db } = testDatabase();
    await createUser(db, { username: "desk_user", password: "desk-user-password", role: "viewer" }, systemActor);
    const from = (address: string, password: string, extra: Record<string, string> = {}) =>
      signInPost(jsonRequest("/api/auth/sign-in", "POST", { username: "desk_user", password }, { origin, [peerAddressHeader]: address, ...extra }));
    expect((await from("192.0.2.10", "desk-user-password")).status).toBe(200); // the usual desk
    // An attacker at one address, rotating X-Forwarded-For (not believed: no trusted proxy is configured).
    const attacker: number[] = [];
    for (let i = 0; i < 8; i++) attacker.push((await from("198.51.100.66", `guess-${i}`, { "x-forwarded-for": `203.0.113.${i}` })).status);
    expect(attacker).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    expect((await from("198.51.100.66", "desk-user-password")).status).toBe(429);
    const failures = await db.select().from(auditLog).where(eq(auditLog.action, "auth.sign_in_failed"));
    expect(new Set(failures.filter((f) => f.actorName === "desk_user").map((f) => f.ip))).toEqual(new Set(["198.51.100.66"]));
    // The user at their desk is not locked out.
    expect((await from("192.0.2.10", "desk-user-password")).status).toBe(200);
  });

  it("limits guesses across addresses per account, except from the user's usual address, and an admin can unlock", async () => {
    await limits.signIn.reset();
    const { db } = testDatabase();
    const user = await createUser(db, { username: "spread_user", password: "spread-user-password", role: "viewer" }, systemActor);
    const from = (address: string, password: string) =>
      signInPost(jsonRequest("/api/auth/sign-in", "POST", { username: "spread_user", password }, { origin, [peerAddressHeader]: address }));
    expect((await from("192.0.2.20", "spread-user-password")).status).toBe(200);
    // A botnet: 3 guesses from each of many addresses, under every per-address limit.
    let lockedAt = -1;
    for (let i = 0; i < 60 && lockedAt < 0; i++) {
      if ((await from(`198.18.${Math.floor(i / 3)}.${i % 3}`, `guess-${i}`)).status === 429) lockedAt = i;
    }
    expect(lockedAt).toBe(51); // 50 free failures, the 51st locks
    expect((await from("198.18.200.1", "spread-user-password")).status).toBe(429); // a new address: locked
    expect((await from("192.0.2.20", "spread-user-password")).status).toBe(200); // the usual one: not
    const admin = await createUser(db, { username: "unlocker", password: "unlocker-password", role: "admin" }, systemActor);
    const cookie = await signInCookie("unlocker", "unlocker-password");
    const { POST: unlock } = await import("@/app/api/v1/users/[id]/unlock/route");
    const answer = await unlock(jsonRequest(`/api/v1/users/${user.id}/unlock`, "POST", undefined, { cookie, origin }), { params: Promise.resolve({ id: user.id }) });
    expect(answer.status).toBe(200);
    expect((await answer.json()).failuresCleared).toBeGreaterThanOrEqual(51);
    expect((await from("198.18.200.1", "spread-user-password")).status).toBe(200);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "user.unlock"));
    expect(audit).toMatchObject({ actorId: admin.id, targetId: user.id });
  });

  it("locks an address that guesses many usernames", async () => {
    await limits.signIn.reset();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      statuses.push((await signInPost(jsonRequest("/api/auth/sign-in", "POST", { username: `nobody_${i}`, password: "x" }, { origin, [peerAddressHeader]: "198.51.100.77" }))).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([401, 429]);
  });

  it("refuses a cross-site sign-in", async () => {
    const response = await signInPost(jsonRequest("/api/auth/sign-in", "POST", { username: "x", password: "y" }, { origin: "https://evil.example" }));
    expect(response.status).toBe(403);
  });
});

describe("API tokens", () => {
  it("are stored as a hash only, work as Bearer, and stop working when revoked or expired", async () => {
    const { db } = testDatabase();
    const created = await createApiToken(db, { name: "collector", role: "editor" }, systemActor);
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row?.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
    expect((await asToken(created.token)).status).toBe(200);
    const [used] = await db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(used?.lastUsedAt).not.toBeNull();
    await revokeApiToken(db, created.id, systemActor);
    const revoked = await asToken(created.token);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ error: { code: "unauthenticated", message: "the API token is unknown, revoked or expired" } });

    const expiring = await createApiToken(db, { name: "short", role: "viewer", expiresAt: new Date(Date.now() + 60_000) }, systemActor);
    expect((await asToken(expiring.token)).status).toBe(200);
    await db.update(apiTokens).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(apiTokens.id, expiring.id));
    expect((await asToken(expiring.token)).status).toBe(401);
    expect((await asToken("rsk_not-a-token")).status).toBe(401);
  });
});

describe("a disabled user's API tokens", () => {
  it("stop working at once and work again when the user is enabled; tokens minted with them belong to the same owner", async () => {
    const { db } = testDatabase();
    const owner = await createUser(db, { username: "token_owner", password: "token-owner-password", role: "admin" }, systemActor);
    await createUser(db, { username: "other_admin_2", password: "other-admin-password", role: "admin" }, systemActor);
    const created = await createApiToken(db, { name: "owned", role: "admin", createdBy: owner.id }, systemActor);
    const { POST: mint } = await import("@/app/api/v1/tokens/route");
    const minted = await mint(jsonRequest("/api/v1/tokens", "POST", { name: "minted by a token", role: "admin" }, { authorization: `Bearer ${created.token}` }), { params: Promise.resolve({}) });
    expect(minted.status).toBe(201);
    const child = (await minted.json()) as { token: string; createdBy: string | null };
    expect(child.createdBy).toBe(owner.id);
    const machine = await createApiToken(db, { name: "cli token", role: "viewer" }, systemActor);
    await updateUser(db, owner.id, { disabled: true }, systemActor);
    expect((await asToken(created.token)).status).toBe(401);
    expect((await asToken(child.token)).status).toBe(401);
    expect((await asToken(machine.token)).status).toBe(200);
    const refused = await mint(jsonRequest("/api/v1/tokens", "POST", { name: "after disabling", role: "admin" }, { authorization: `Bearer ${created.token}` }), { params: Promise.resolve({}) });
    expect(refused.status).toBe(401);
    await updateUser(db, owner.id, { disabled: false }, systemActor);
    expect((await asToken(created.token)).status).toBe(200);
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

describe("token-authenticated writes", () => {
  it("are rate-limited per token (1,800 a minute by default), with Retry-After; reads are not", async () => {
    await limits.tokenWrites.reset();
    const { db } = testDatabase();
    const busy = await createApiToken(db, { name: "busy collector", role: "editor" }, systemActor);
    const quiet = await createApiToken(db, { name: "quiet collector", role: "editor" }, systemActor);
    // Signing out is a write that needs no data: a token gets 400 from it once past the rate limit check.
    const write = (token: string) =>
      signOutPost(jsonRequest("/api/auth/sign-out", "POST", undefined, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });
    expect(limits.tokenWrites.limit).toBe(1800);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await write(busy.token)).status);
    // The writes counted in the token's window (one row in the shared table); the rest of the minute's budget is
    // spent there at once rather than by 1,790 more requests, which on a loaded machine outlast the minute.
    const [counted] = await db
      .update(rateLimitWindows)
      .set({ hits: sql`${rateLimitWindows.hits} + ${limits.tokenWrites.limit - 11}` })
      .where(sql`starts_with(${rateLimitWindows.key}, 'token-writes:')`)
      .returning({ hits: rateLimitWindows.hits });
    expect(counted?.hits).toBe(limits.tokenWrites.limit - 1);
    statuses.push((await write(busy.token)).status);
    expect(statuses.every((s) => s === 400)).toBe(true);
    const limited = await write(busy.token);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe("rate_limited");
    expect((await write(quiet.token)).status).toBe(400);
    expect((await asToken(busy.token)).status).toBe(200);
  });
});

describe("the audit log", () => {
  it("is append-only: the database refuses updates, deletes and truncation", async () => {
    const { pool } = testDatabase();
    await expect(pool.query("update audit_log set action = 'x'")).rejects.toThrow(/append-only/);
    await expect(pool.query("delete from audit_log")).rejects.toThrow(/append-only/);
    await expect(pool.query("truncate audit_log")).rejects.toThrow(/append-only/);
    const { rows } = await pool.query("select count(*)::int as n from audit_log where action = 'user.create'");
    expect(rows[0].n).toBeGreaterThan(0);
    const { db } = testDatabase();
    expect((await db.select().from(users)).length).toBeGreaterThan(0);
  });
});
