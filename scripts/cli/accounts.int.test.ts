/** `rankscope user` and `rankscope token` against a real database. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findActiveToken } from "@/db/queries/tokens";
import { auditLog, sessions, signInThrottle } from "@/db/schema";
import { rankscope } from "@/test/cli";
import { testDatabase } from "@/test/database";
import { parseExpiry } from "./commands/accounts";

beforeAll(() => {
  process.env.DATABASE_URL = testDatabase().url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

describe("rankscope user", () => {
  it("adds a user with a generated password shown once, and refuses a duplicate", async () => {
    const added = await rankscope(["user", "add", "alice", "--role", "editor"]);
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^created user alice with the editor role\npassword \(shown once\): \S{20,}\n$/);
    const again = await rankscope(["user", "add", "alice", "--role", "viewer"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already exists");
    const list = await rankscope(["user", "list"]);
    expect(list.stdout).toMatch(/^alice\teditor\tenabled\t-\n$/);
  });

  it("sets a password from stdin, disables and enables, and records it all in the audit log", async () => {
    const { db } = testDatabase();
    expect((await rankscope(["user", "add", "bob", "--role", "viewer", "--password-stdin"], {}, "bob-first-password\n")).status).toBe(0);
    expect((await rankscope(["user", "passwd", "bob", "--password-stdin"], {}, "short\n")).status).toBe(2);
    const passwd = await rankscope(["user", "passwd", "bob", "--password-stdin"], {}, "bob-second-password\n");
    expect(passwd).toMatchObject({ status: 0, stdout: "set a new password for bob; their sessions have ended\n" });
    expect((await rankscope(["user", "disable", "bob"])).stdout).toBe("disabled bob; their sessions have ended\n");
    expect((await rankscope(["user", "list"])).stdout).toContain("bob\tviewer\tdisabled");
    expect((await rankscope(["user", "enable", "bob"])).status).toBe(0);
    expect((await rankscope(["user", "disable", "nobody"])).status).toBe(1);
    await db.insert(signInThrottle).values([
      { key: "user-ip:bob@198.51.100.1", failures: 7, lastFailureAt: new Date(), lockedUntil: new Date(Date.now() + 60_000) },
      { key: "user:bob", failures: 7, lastFailureAt: new Date(), lockedUntil: null },
      { key: "user-ip:bobby@198.51.100.1", failures: 2, lastFailureAt: new Date(), lockedUntil: null },
    ]);
    expect((await rankscope(["user", "unlock", "bob"])).stdout).toBe("unlocked bob: forgot 14 failed sign-ins\n");
    expect((await db.select().from(signInThrottle)).map((row) => row.key)).toEqual(["user-ip:bobby@198.51.100.1"]);
    expect((await db.select().from(auditLog).where(eq(auditLog.action, "user.unlock")))[0]?.details).toEqual({ failuresCleared: 14, wasLocked: true });
    const actions = (await db.select().from(auditLog)).filter((e) => e.targetType === "user").map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["user.create", "user.update"]));
    expect((await db.select().from(auditLog).where(eq(auditLog.action, "user.create")))[0]?.actorName).toMatch(/^cli:/);
    expect(await db.select().from(sessions)).toEqual([]);
  });

  it("explains its usage", async () => {
    expect((await rankscope(["user", "add", "x"])).status).toBe(2);
    expect((await rankscope(["user", "add", "carol"])).stderr).toContain("--role is required");
    expect((await rankscope(["user", "frobnicate", "carol"])).status).toBe(2);
  });
});

describe("rankscope token", () => {
  it("creates a token and prints it alone on the last line; it works, and revoke stops it", async () => {
    const created = await rankscope(["token", "create", "--role", "editor", "--name", "ci", "--expires", "30d"]);
    expect(created.status).toBe(0);
    const lines = created.stdout.trimEnd().split("\n");
    const token = lines[lines.length - 1]!;
    expect(token).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
    const { db } = testDatabase();
    const found = await findActiveToken(db, token);
    expect(found).toMatchObject({ name: "ci", role: "editor" });
    expect(Date.parse(found!.expiresAt!) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await rankscope(["token", "list"])).stdout).toMatch(new RegExp(`^${found!.id}\tci\teditor\tactive\t`));
    expect((await rankscope(["token", "revoke", String(found!.id)])).status).toBe(0);
    expect(await findActiveToken(db, token)).toBeUndefined();
    expect((await rankscope(["token", "revoke", "999999"])).status).toBe(1);
  });

  it("checks its arguments", async () => {
    expect((await rankscope(["token", "create", "--name", "x"])).status).toBe(2);
    expect((await rankscope(["token", "create", "--role", "root", "--name", "x"])).status).toBe(2);
    expect((await rankscope(["token", "create", "--role", "viewer", "--name", "x", "--expires", "yesterday"])).status).toBe(2);
    const now = new Date("2026-01-01T00:00:00Z");
    expect(parseExpiry("12h", now).toISOString()).toBe("2026-01-01T12:00:00.000Z");
    expect(parseExpiry("2027-02-03", now).toISOString()).toBe("2027-02-03T00:00:00.000Z");
    expect(() => parseExpiry("2025-01-01", now)).toThrow(/future/);
  });
});
