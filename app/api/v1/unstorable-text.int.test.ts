import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { createPrincipals, jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { postedEvents } from "@/test/fault-events";

/**
 * Issue 13: text PostgreSQL cannot store (NUL, a lone surrogate) and `raw` nested 5,000 deep gave 500s and sank a
 * whole per-item batch. Now: 422 naming the field, and in `atomic=item` batches only that item is invalid.
 */
withAppDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
const none = { params: Promise.resolve({}) };
let postEvents: Handler;
let createTable: Handler;
let audit: Handler;
let tokens: Record<"viewer" | "editor" | "admin", string>;

beforeAll(async () => {
  ({ POST: postEvents } = await import("./fault-events/route"));
  ({ POST: createTable } = await import("./rank-tables/route"));
  ({ GET: audit } = await import("./audit/route"));
  const { db } = testDatabase();
  await seedDemo(db, [demoA3Cluster(1, 2)]);
  ({ tokens } = await createPrincipals(db));
});

const bearer = (role: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[role]}` });
const { linkDown } = postedEvents(Date.parse("2026-11-20T08:00:00Z"));

/** JSON nested `levels` deep, as text (JSON.stringify itself overflows the stack on such a value). */
const deepJson = (levels: number) => `${'{"next":'.repeat(levels)}"bottom"${"}".repeat(levels)}`;

describe("text the database cannot store", () => {
  it("refuses only the bad items of a 1,000-item atomic=item batch, naming the field, and stores the rest", async () => {
    const items: unknown[] = Array.from({ length: 1000 }, (_, i) => linkDown("sp0-node01", i % 8, i, i + 5));
    items[10] = linkDown("sp0-node01", 2, 10, 15, { message: "link\u0000down" });
    items[20] = linkDown("sp0-node01", 4, 20, 25, { raw: { note: "half a pair \ud800" } });
    items[30] = linkDown("sp0-node01", 6, 30, 35, { raw: "DEEP" });
    items[40] = linkDown("sp0-node01", 0, 40, 45, { job: "\udc00" });
    const body = JSON.stringify(items).replace('"DEEP"', deepJson(5000));
    const request = new Request(`${origin}/api/v1/fault-events?atomic=item`, { method: "POST", body, headers: { ...bearer("editor"), "content-type": "application/json" } });
    const response = await postEvents(request, none);
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.counts).toMatchObject({ created: 996, invalid: 4 });
    const invalid = answer.items.filter((item: { status: string }) => item.status === "invalid");
    expect(invalid.map((item: { index: number; error: { path: string; reason: string } }) => [item.index, item.error.path, item.error.reason])).toEqual([
      [10, "message", "unstorable_text"],
      [20, "raw", "unstorable_json"],
      [30, "raw", "unstorable_json"],
      [40, "job", "unstorable_text"],
    ]);
    expect(invalid[2].error.message).toMatch(/nested deeper than 32 levels/);
  });

  it("refuses a whole atomic batch with 422 when one item holds a NUL", async () => {
    const response = await postEvents(jsonRequest("/api/v1/fault-events", "POST", [linkDown("sp0-node02", 1, 100, 105, { message: "\u0000" })], bearer("editor")), none);
    expect(response.status).toBe(422);
  });

  it("answers 422 invalid_text for a rank table name with a NUL or a lone surrogate, and for a NUL in a query parameter", async () => {
    for (const name of ["bad\u0000name", "bad\ud800name"]) {
      const response = await createTable(jsonRequest("/api/v1/rank-tables", "POST", { name, text: '{"version":"1.0"}' }, bearer("editor")), none);
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.error).toMatchObject({ code: "invalid_text", message: expect.stringMatching(/^name: /) });
    }
    const table = await createTable(jsonRequest("/api/v1/rank-tables", "POST", { name: "nul inside", text: '{"version":"1.0\\u0000"}' }, bearer("editor")), none);
    expect(table.status).toBe(422);
    expect((await table.json()).error).toMatchObject({ code: "invalid_text", message: expect.stringMatching(/\/version contains a NUL/) });
    const filtered = await audit(new Request(`${origin}/api/v1/audit?action=%00`, { headers: bearer("admin") }), none);
    expect(filtered.status).toBe(422);
    expect((await filtered.json()).error).toMatchObject({ code: "invalid_text", details: { parameter: "action" } });
  });
});
