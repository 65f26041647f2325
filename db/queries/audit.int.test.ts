import { beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { testDatabase } from "@/test/database";
import { systemActor } from "./audit";
import { createUser } from "./users";

// The test reads that the refused statements left the entries of a user's creation in place.
beforeAll(async () => {
  await createUser(testDatabase().db, { username: "audited", password: "audited-password", role: "viewer" }, systemActor);
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
