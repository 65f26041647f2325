import { createHmac } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { connectDatabase } from "@/db/client";
import { migrate, defaultMigrationsFolder } from "@/db/migrate";
import { ensureAuthSecret } from "@/db/queries/app-secrets";
import { systemActor } from "@/db/queries/audit";
import { createUser } from "@/db/queries/users";
import { sessions } from "@/db/schema";
import { hashToken } from "@/lib/auth/tokens";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin, signInCookie } from "@/test/auth";
import { createEmptyDatabase, testDatabase } from "@/test/database";

withAppDatabase();

let signOutPost: typeof import("@/app/api/auth/sign-out/route").POST;
let meGet: typeof import("@/app/api/v1/me/route").GET;
beforeAll(async () => {
  ({ POST: signOutPost } = await import("@/app/api/auth/sign-out/route"));
  ({ GET: meGet } = await import("@/app/api/v1/me/route"));
});

const asCookie = (cookie: string) => meGet(jsonRequest("/api/v1/me", "GET", undefined, { cookie }), { params: Promise.resolve({}) });
/** The token inside `rankscope.session_token=<token>.<signature>`. */
const cookieToken = (cookie: string) => decodeURIComponent(/rankscope\.session_token=([^;]+)/.exec(cookie)?.[1] ?? "").split(".")[0]!;
/** A cookie as better-auth signs one (better-call's signCookieValue: HMAC-SHA256, base64), for any value. */
const signedCookie = (value: string, secret: string) =>
  `rankscope.session_token=${encodeURIComponent(`${value}.${createHmac("sha256", secret).update(value).digest("base64")}`)}`;

describe("session tokens at rest", () => {
  it("are stored as SHA-256 of the cookie's token, and sign-in, use, refresh and sign-out still work", async () => {
    const { db } = testDatabase();
    const user = await createUser(db, { username: "hashed_session", password: "hashed-session-password", role: "viewer" }, systemActor);
    const cookie = await signInCookie("hashed_session", "hashed-session-password");
    const token = cookieToken(cookie);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    const [row] = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row?.token).toBe(hashToken(token));
    expect(row?.token).not.toBe(token);
    expect((await db.select().from(sessions).where(eq(sessions.token, token))).length).toBe(0);
    expect((await asCookie(cookie)).status).toBe(200);

    // A session last refreshed over an hour ago is extended on use: better-auth updates it by token.
    const stale = new Date(Date.now() - 2 * 3_600_000);
    await db.update(sessions).set({ updatedAt: stale, expiresAt: new Date(Date.now() + 3_600_000) }).where(eq(sessions.id, row!.id));
    expect((await asCookie(cookie)).status).toBe(200);
    const [refreshed] = await db.select().from(sessions).where(eq(sessions.id, row!.id));
    expect(refreshed?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 11 * 3_600_000);
    expect(refreshed?.token).toBe(hashToken(token));

    const out = await signOutPost(jsonRequest("/api/auth/sign-out", "POST", undefined, { cookie, origin }), { params: Promise.resolve({}) });
    expect(out.status).toBe(204);
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await asCookie(cookie)).status).toBe(401);
  });

  it("give nothing usable to someone holding a copy of the database, even with the cookie secret", async () => {
    const { db } = testDatabase();
    const user = await createUser(db, { username: "leaked_session", password: "leaked-session-password", role: "admin" }, systemActor);
    const cookie = await signInCookie("leaked_session", "leaked-session-password");
    const secret = await ensureAuthSecret(db);
    expect((await asCookie(signedCookie(cookieToken(cookie), secret))).status).toBe(200); // the signing is as assumed
    const [row] = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect((await asCookie(signedCookie(row!.token, secret))).status).toBe(401);
    expect((await asCookie(cookie)).status).toBe(200);
  });

  it("of sessions open before the upgrade are hashed by the migration, so their cookies keep working", async () => {
    // Migrate an empty database up to 0011, open a session the old way (the raw token stored), then upgrade.
    const folder = await mkdtemp(path.join(os.tmpdir(), "rankscope-migrations-"));
    const empty = await createEmptyDatabase();
    const handle = connectDatabase(empty.url, { max: 2 });
    try {
      await cp(defaultMigrationsFolder, folder, { recursive: true });
      const journalPath = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
      const upgrade = journal.entries.findIndex((e) => e.tag === "0013_hash_session_tokens");
      expect(upgrade).toBeGreaterThan(0);
      await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upgrade) }));
      await migrate(handle.pool, folder);
      await handle.pool.query("insert into users (id, name, email, username, role) values ('u1', 'Old', 'old@example.invalid', 'old', 'viewer')");
      await handle.pool.query(
        "insert into sessions (id, token, user_id, expires_at, updated_at) values ('s1', 'OldRawToken0123456789abcdefghijk', 'u1', now() + interval '1 hour', now())",
      );
      expect(await migrate(handle.pool)).toContain("0013_hash_session_tokens");
      const { rows } = await handle.pool.query<{ token: string }>("select token from sessions where id = 's1'");
      expect(rows).toEqual([{ token: hashToken("OldRawToken0123456789abcdefghijk") }]);
    } finally {
      await handle.pool.end();
      await empty.drop();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
