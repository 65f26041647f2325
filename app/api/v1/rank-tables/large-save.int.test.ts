import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { rankTableRevisions } from "@/db/schema";
import { inventoryBodyLimit, rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { generateA5Table, writeRankTable, type JsonValue } from "@/lib/rank-table";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

/**
 * Saving a "2.0" table past the old 32 MiB limit (issue 21): 24,576 ranks (384 racks of 64) as canonical text is about
 * 39 MiB, its save body more (the text's quotes are escaped), so it is read into one buffer and worked on in the
 * rank-table worker. The 131,072- and 524,288-rank figures are in the README (editor at scale).
 */
type Handler<P = Record<string, string>> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
let create: Handler;
let put: Handler<{ id: string }>;
let get: Handler<{ id: string }>;
let token = "";
const none = { params: Promise.resolve({}) };
const idOf = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
const headers = (revision?: number) => ({ authorization: `Bearer ${token}`, ...(revision === undefined ? {} : { "if-match": `"${revision}"` }) });
const revisionCount = async (id: number) =>
  (await testDatabase().db.select({ n: count() }).from(rankTableRevisions).where(eq(rankTableRevisions.rankTableId, id)))[0]!.n;

beforeAll(async () => {
  ({ POST: create } = await import("./route"));
  ({ PUT: put, GET: get } = await import("./[id]/route"));
  token = (await createApiToken(testDatabase().db, { name: "large saver", role: "editor" }, systemActor)).token;
});

describe("saving a rank table larger than 32 MiB", () => {
  it("saves it, reads it back equal, 409 on a stale revision, 413 (error shape, nothing written) past the limit", { timeout: 180_000 }, async () => {
    const text = writeRankTable(generateA5Table({ racks: 384, npusPerRack: 64 }) as unknown as JsonValue);
    const body = JSON.stringify({ name: "SuperPoD 24k", text, comment: "large" });
    expect(Buffer.byteLength(body)).toBeGreaterThan(inventoryBodyLimit);
    expect(Buffer.byteLength(body)).toBeLessThan(rankTableBodyLimit);

    const response = await create(new Request(`${origin}/api/v1/rank-tables`, { method: "POST", body, headers: { ...headers(), "content-type": "application/json" } }), none);
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: number; revision: number; text: string; summary: { valid: boolean } };
    expect(created.revision).toBe(1);
    expect(created.text === text).toBe(true);
    const fetched = await get(jsonRequest(`/api/v1/rank-tables/${created.id}`, "GET", undefined, headers()), idOf(created.id));
    expect(((await fetched.json()) as { text: string }).text === text).toBe(true);

    const edited = text.replace('"net_attr": ""', '"net_attr": "edited"');
    expect(edited).not.toBe(text);
    // As the editor saves: the answer leaves out the text it sent (Prefer: return=minimal).
    const saved = await put(jsonRequest(`/api/v1/rank-tables/${created.id}`, "PUT", { text: edited }, { ...headers(1), prefer: "return=minimal" }), idOf(created.id));
    expect(saved.status).toBe(200);
    expect(saved.headers.get("preference-applied")).toBe("return=minimal");
    const minimal = (await saved.json()) as { revision: number; text?: string; summary: { valid: boolean } };
    expect(minimal).toMatchObject({ revision: 2, summary: { valid: expect.any(Boolean) } });
    expect(minimal.text).toBeUndefined();
    const reread = await get(jsonRequest(`/api/v1/rank-tables/${created.id}`, "GET", undefined, headers()), idOf(created.id));
    expect(((await reread.json()) as { text: string }).text === edited).toBe(true);

    const stale = await put(jsonRequest(`/api/v1/rank-tables/${created.id}`, "PUT", { text }, headers(1)), idOf(created.id));
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe("revision_conflict");
    expect(await revisionCount(created.id)).toBe(2);

    // A declared length past the limit is refused before the body is read (body.test.ts covers a body that lies).
    const tooLarge = await put(
      new Request(`${origin}/api/v1/rank-tables/${created.id}`, {
        method: "PUT",
        body: "{}",
        headers: { ...headers(2), "content-type": "application/json", "content-length": String(rankTableBodyLimit + 1) },
      }),
      idOf(created.id),
    );
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { code: "payload_too_large", message: expect.stringContaining("128 MiB"), details: { limit: rankTableBodyLimit } } });
    expect(await revisionCount(created.id)).toBe(2);
  });
});
