/** API tokens: stored as hashes, revoked, expired, their owner disabled, and their writes rate-limited, against PostgreSQL. */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { apiTokens, rateLimitWindows } from "@/db/schema";
import { createApiToken, revokeApiToken } from "@/db/queries/tokens";
import { createUser, updateUser } from "@/db/queries/users";
import { systemActor } from "@/db/queries/audit";
import { hashToken } from "@/lib/auth/tokens";
import { withAppDatabase } from "@/test/app-database";
import { asToken, jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

let signOutPost: typeof import("@/app/api/auth/sign-out/route").POST;
let limits: typeof import("./rate-limit").limits;

beforeAll(async () => {
  ({ POST: signOutPost } = await import("@/app/api/auth/sign-out/route"));
  ({ limits } = await import("./rate-limit"));
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
