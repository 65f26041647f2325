import { verifyPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accounts, auditLog, users } from "@/db/schema";
import { demoAccounts, seedDemoAccounts } from "@/db/seed";
import { testDatabase } from "@/test/database";
import { systemActor } from "./audit";
import { bootstrapAdmin, createUser, findUserByUsername, updateUser, UserConflictError } from "./users";

describe("first start", () => {
  it("creates one admin with a random password when there is no user, and never again", async () => {
    const { db } = testDatabase();
    const first = await bootstrapAdmin(db, systemActor);
    expect(first?.username).toBe("admin");
    expect(first?.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(await bootstrapAdmin(db, systemActor)).toBeUndefined();
    const admin = await findUserByUsername(db, "admin");
    expect(admin?.role).toBe("admin");
    const [account] = await db.select().from(accounts).where(eq(accounts.userId, admin!.id));
    expect(account?.password).not.toContain(first!.password);
    expect(await verifyPassword({ hash: account!.password!, password: first!.password })).toBe(true);
    const [created] = await db.select().from(auditLog).where(eq(auditLog.targetId, admin!.id));
    expect(created).toMatchObject({ action: "user.create", actorType: "system" });
    expect(JSON.stringify(created)).not.toContain(first!.password);
  });
});

describe("demo accounts", () => {
  it("are added once, with the README's passwords; an existing username is left alone", async () => {
    const { db } = testDatabase();
    expect(await seedDemoAccounts(db)).toEqual(["viewer", "editor"]); // admin exists from the first-start test
    expect(await seedDemoAccounts(db)).toEqual([]);
    const viewer = await findUserByUsername(db, "viewer");
    const [account] = await db.select().from(accounts).where(eq(accounts.userId, viewer!.id));
    expect(await verifyPassword({ hash: account!.password!, password: demoAccounts[0].password })).toBe(true);
  });
});

describe("user changes", () => {
  it("refuse a duplicate username and keep at least one enabled admin", async () => {
    const { db } = testDatabase();
    await expect(createUser(db, { username: "viewer", password: "another-password", role: "admin" }, systemActor)).rejects.toBeInstanceOf(UserConflictError);
    const admins = await db.select().from(users).where(eq(users.role, "admin"));
    expect(admins).toHaveLength(1);
    const only = admins[0]!;
    await expect(updateUser(db, only.id, { role: "viewer" }, systemActor)).rejects.toThrow(/last enabled admin/);
    await expect(updateUser(db, only.id, { disabled: true }, systemActor)).rejects.toThrow(/last enabled admin/);
    const second = await createUser(db, { username: "second_admin", password: "second-admin-pass", role: "admin" }, systemActor);
    expect((await updateUser(db, only.id, { role: "editor" }, systemActor))?.role).toBe("editor");
    await expect(updateUser(db, second.id, { disabled: true }, systemActor)).rejects.toThrow(/last enabled admin/);
    const [change] = await db.select().from(auditLog).where(eq(auditLog.action, "user.update"));
    expect(change).toMatchObject({ before: { role: "admin" }, after: { role: "editor" } });
  });
});
