/** The sign-in back-off (server/auth/sign-in.ts, rate-limit.ts) through the sign-in route handler against PostgreSQL. */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { createUser } from "@/db/queries/users";
import { systemActor } from "@/db/queries/audit";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin, signInAttempt, signInCookie } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { peerAddressHeader } from "./request";

withAppDatabase();

let signInPost: typeof import("@/app/api/auth/sign-in/route").POST;
let limits: typeof import("./rate-limit").limits;

beforeAll(async () => {
  ({ POST: signInPost } = await import("@/app/api/auth/sign-in/route"));
  ({ limits } = await import("./rate-limit"));
});

describe("sign-in back-off", () => {
  it("locks a username after five failures, doubles the lock, and records every failure", async () => {
    await limits.signIn.reset();
    const { db } = testDatabase();
    await createUser(db, { username: "target", password: "target-password", role: "viewer" }, systemActor);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await signInAttempt("target", `wrong-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const locked = await signInAttempt("target", "target-password");
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
