import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase, type DatabaseHandle } from "@/db/client";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { ReadRouter, type ReplicaStatus } from "@/db/read-database";
import { seedDemo } from "@/db/seed";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { readOnlyUrl } from "@/test/urls";
import { dataAsOfHeader, readSourceHeader, writtenCookie } from "./read-routing";

/*
 * The read replica's HTTP wiring through real route handlers: a write answers with the primary's WAL position in a
 * cookie (route()), and a heavy read honours it. The replica is a read-only connection to the test database whose
 * replay position the test sets (db/read-database.int.test.ts says why); test:cluster runs a real one.
 */

withAppDatabase();

const globals = globalThis as typeof globalThis & { rankscopeReadRouter?: ReadRouter };
let readOnly: DatabaseHandle;
let replay = "0/0";
let primaryLsn = "0/0";
let lagMs = 0;
let token: string;
let clusters: typeof import("@/app/api/v1/clusters/route").GET;
let rankTables: typeof import("@/app/api/v1/rank-tables/route");

beforeAll(async () => {
  await seedDemo(testDatabase().db);
  readOnly = connectDatabase(readOnlyUrl(testDatabase().url), { max: 2 });
  const probe = async (): Promise<ReplicaStatus> => ({ state: "standby", at: Date.now(), replayLsn: replay, primaryLsn, replayedAt: new Date(Date.now() - lagMs), lagMs });
  globals.rankscopeReadRouter = new ReadRouter(() => testDatabase(), readOnly, { statusTtlMs: 0, probe });
  token = (await createApiToken(testDatabase().db, { name: "writer", role: "editor" }, systemActor)).token;
  clusters = (await import("@/app/api/v1/clusters/route")).GET;
  rankTables = await import("@/app/api/v1/rank-tables/route");
});
afterAll(async () => {
  globals.rankscopeReadRouter = undefined;
  await readOnly.pool.end();
});

const auth = (cookie = "") => ({ authorization: `Bearer ${token}`, ...(cookie ? { cookie } : {}) });
const context = { params: Promise.resolve({}) };

describe("reads and writes with a read replica", () => {
  it("gives a writer the WAL position of its write, and reads it from the primary until the replica has it", async () => {
    const text = await readFile(new URL("../../lib/rank-table/fixtures/legacy-mindspore-8p.json", import.meta.url), "utf8");
    const created = await rankTables.POST(jsonRequest("/api/v1/rank-tables", "POST", { name: "read-your-write", text }, auth()), context);
    expect(created.status).toBe(201);
    const setCookie = created.headers.getSetCookie().find((c) => c.startsWith(`${writtenCookie}=`));
    expect(setCookie).toMatch(new RegExp(`^${writtenCookie}=[0-9A-F]+/[0-9A-F]+; Path=/; Max-Age=300; HttpOnly; SameSite=Lax$`));
    const cookie = setCookie!.split(";")[0]!;
    const written = cookie.slice(writtenCookie.length + 1);

    // The replica has not replayed the write: the writer reads the primary, and sees its table.
    replay = "0/1";
    primaryLsn = written;
    const own = await rankTables.GET(jsonRequest("/api/v1/rank-tables", "GET", undefined, auth(cookie)), context);
    expect(own.headers.get(readSourceHeader)).toBe("primary");
    expect(((await own.json()) as { items: { name: string }[] }).items.map((t) => t.name)).toContain("read-your-write");
    // Someone who did not write reads the replica.
    expect((await clusters(jsonRequest("/api/v1/clusters", "GET", undefined, auth()), context)).headers.get(readSourceHeader)).toBe("replica");

    // Replayed: the writer reads the replica too.
    replay = written;
    const later = await rankTables.GET(jsonRequest("/api/v1/rank-tables", "GET", undefined, auth(cookie)), context);
    expect(later.headers.get(readSourceHeader)).toBe("replica");
    expect(later.headers.get(dataAsOfHeader)).toBeNull();
  });

  it("dates a replica's answer when it is behind by more than a second", async () => {
    replay = "0/1";
    primaryLsn = "0/2";
    lagMs = 3_000;
    const response = await clusters(jsonRequest("/api/v1/clusters", "GET", undefined, auth()), context);
    expect(response.headers.get(readSourceHeader)).toBe("replica");
    expect(Date.parse(response.headers.get(dataAsOfHeader)!)).toBeLessThanOrEqual(Date.now() - 3_000);
    lagMs = 0;
  });

  it("ignores a cookie that is not a WAL position", async () => {
    replay = "0/1";
    primaryLsn = "0/1";
    const response = await clusters(jsonRequest("/api/v1/clusters", "GET", undefined, auth(`${writtenCookie}=FFFFFFFF/FFFFFFFF%3Bx`)), context);
    expect(response.headers.get(readSourceHeader)).toBe("replica");
  });
});
