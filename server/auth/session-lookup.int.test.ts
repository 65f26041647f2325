import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createUser, endSessions } from "@/db/queries/users";
import { sessions, users } from "@/db/schema";
import { hashToken } from "@/lib/auth/tokens";
import { withAppDatabase } from "@/test/app-database";
import { origin, signInCookie } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { sessionLifetimeSeconds, sessionRefreshSeconds } from "./better-auth";
import { sessionPrincipal } from "./principal";
import { cookieValue, lookUpSession } from "./session-lookup";

withAppDatabase();

const who = (cookie: string) => sessionPrincipal(new Headers({ cookie }), `${origin}/api/v1/me`);
const tokenOf = (cookie: string) => cookieValue(cookie, "rankscope.session_token")!.split(".")[0]!;
const rowOf = async (cookie: string) => (await testDatabase().db.select().from(sessions).where(eq(sessions.token, hashToken(tokenOf(cookie)))))[0];

async function signedIn(username: string): Promise<{ id: string; cookie: string }> {
  const user = await createUser(testDatabase().db, { username, password: `${username}-password`, role: "editor" }, systemActor);
  return { id: user.id, cookie: await signInCookie(username, `${username}-password`) };
}

describe("the session lookup of every request", () => {
  it("finds a fresh session with one query of its own (not better-auth's), the user's role and name with it", async () => {
    const { id, cookie } = await signedIn("lookup_fresh");
    expect(await lookUpSession(cookie, false)).toMatchObject({ kind: "found", session: { userId: id, role: "editor" } });
    expect(await who(cookie)).toMatchObject({ kind: "user", id, username: "lookup_fresh", role: "editor" });
  });

  it("refuses a cookie whose signature is wrong or missing, and the secure cookie's name over plain HTTP", async () => {
    const { cookie } = await signedIn("lookup_forged");
    const signed = cookieValue(cookie, "rankscope.session_token")!;
    const forged = `${signed.slice(0, -5)}AAAA=`;
    expect(await who(`rankscope.session_token=${encodeURIComponent(forged)}`)).toBeUndefined();
    expect(await who(`rankscope.session_token=${tokenOf(cookie)}`)).toBeUndefined();
    expect(await lookUpSession(`__Secure-${cookie}`, false)).toEqual({ kind: "none" });
    expect(await who(cookie)).toBeDefined();
  });

  it("refuses a session on the very next request once it is ended, or its user disabled: nothing is cached", async () => {
    const ended = await signedIn("lookup_ended");
    expect(await who(ended.cookie)).toBeDefined();
    await endSessions(testDatabase().db, ended.id);
    expect(await who(ended.cookie)).toBeUndefined();

    const disabled = await signedIn("lookup_disabled");
    expect(await who(disabled.cookie)).toBeDefined();
    // Disabling a user also deletes their sessions (updateUser); the lookup refuses a banned user's session by itself.
    await testDatabase().db.update(users).set({ banned: true }).where(eq(users.id, disabled.id));
    expect(await who(disabled.cookie)).toBeUndefined();
  });

  it("leaves a session due for its refresh to better-auth, which moves its expiry on; an expired one is refused and deleted", async () => {
    const { db } = testDatabase();
    const due = await signedIn("lookup_due");
    const stale = new Date(Date.now() + (sessionLifetimeSeconds - sessionRefreshSeconds - 60) * 1000);
    await db.update(sessions).set({ expiresAt: stale }).where(eq(sessions.userId, due.id));
    expect((await lookUpSession(due.cookie, false)).kind).toBe("better-auth");
    expect(await who(due.cookie)).toMatchObject({ id: due.id });
    expect((await rowOf(due.cookie))!.expiresAt.getTime()).toBeGreaterThan(stale.getTime() + 30 * 60_000);
    expect((await lookUpSession(due.cookie, false)).kind).toBe("found");

    const expired = await signedIn("lookup_expired");
    await db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, expired.id));
    expect(await who(expired.cookie)).toBeUndefined();
    expect(await rowOf(expired.cookie)).toBeUndefined();
  });
});
