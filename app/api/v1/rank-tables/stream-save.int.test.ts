import { count, eq } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { conflictCurrent, getRevisionBlob, saveRankTableText } from "@/components/rank-tables/api";
import { rankTableBlob } from "@/components/rank-tables/table-blob";
import { systemActor } from "@/db/queries/audit";
import { createRankTable } from "@/db/queries/rank-table-saves";
import { createApiToken } from "@/db/queries/tokens";
import { rankTableRevisions, rankTables } from "@/db/schema";
import { rankTableTextLimit } from "@/db/schema/rank-table/constants";
import { generateA5Table, writeRankTable, type JsonValue } from "@/lib/rank-table";
import { writeRankTableParts } from "@/lib/rank-table/write-parts";
import { bodyLimitHeader } from "@/server/http/body-limits";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

/**
 * The streamed save (PUT /rank-tables/{id}/text, issue 21): the raw text read in parts in the worker, stored gzipped,
 * read back by GET …/text. 16,384 ranks (256 racks of 64, about 26 MiB of canonical text) stand for the 524,288 of
 * the bench (`npm run bench -- rank-table-stream-save`), which a test cannot wait for.
 */
type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let put: Handler;
let get: Handler;
let getDetail: Handler;
let token = "";
const idOf = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
const auth = () => ({ authorization: `Bearer ${token}` });
const revisionCount = async (id: number) =>
  (await testDatabase().db.select({ n: count() }).from(rankTableRevisions).where(eq(rankTableRevisions.rankTableId, id)))[0]!.n;

/** A body that streams `parts` and says whether anything of it was read (highWaterMark 0: nothing is pulled ahead). */
function streamed(parts: string[]) {
  const state = { pulled: 0 };
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled++;
        if (next < parts.length) controller.enqueue(encoder.encode(parts[next++]!));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

function save(id: number, revision: number, parts: string[], extra: Record<string, string> = {}) {
  const { body, state } = streamed(parts);
  const request = new Request(`${origin}/api/v1/rank-tables/${id}/text?comment=streamed`, {
    method: "PUT",
    body,
    headers: { ...auth(), "content-type": "application/json", "if-match": `"${revision}"`, ...extra },
    duplex: "half",
  } as RequestInit);
  return { answer: put(request, idOf(id)), state };
}

beforeAll(async () => {
  ({ PUT: put, GET: get } = await import("./[id]/text/route"));
  ({ GET: getDetail } = await import("./[id]/route"));
  token = (await createApiToken(testDatabase().db, { name: "stream saver", role: "editor" }, systemActor)).token;
});

describe("PUT /rank-tables/{id}/text", () => {
  it("saves a 16,384-rank table sent in parts and reads it back identical, gzipped or decoded", { timeout: 180_000 }, async () => {
    const table = generateA5Table({ racks: 256, npusPerRack: 64 }) as unknown as JsonValue;
    const parts = writeRankTableParts(table);
    const text = parts.join("");
    const { id } = await createRankTable(testDatabase().db, { name: "streamed 16k", text: writeRankTable({ version: "2.0", rank_count: "0", rank_list: [] } as unknown as JsonValue) }, systemActor);

    // Not cut where the parser's pieces are: 64 KiB pieces.
    const pieces = [];
    for (let at = 0; at < text.length; at += 65_536) pieces.push(text.slice(at, at + 65_536));
    const { answer } = save(id, 1, pieces);
    const response = await answer;
    expect(response.status).toBe(200);
    const saved = (await response.json()) as { revision: number; text?: string; summary: { valid: boolean } };
    expect(saved).toMatchObject({ revision: 2, summary: { valid: expect.any(Boolean) } });
    expect(saved.text).toBeUndefined();
    const [row] = await testDatabase().db.select({ text: rankTableRevisions.text, gzip: rankTableRevisions.textGzip, bytes: rankTableRevisions.textBytes, comment: rankTableRevisions.comment }).from(rankTableRevisions).where(eq(rankTableRevisions.revision, 2));
    expect(row).toMatchObject({ text: null, bytes: Buffer.byteLength(text), comment: "streamed" });
    expect(row!.gzip!.byteLength).toBeLessThan(text.length / 5);

    const gzipped = await get(new Request(`${origin}/api/v1/rank-tables/${id}/text`, { headers: { ...auth(), accept: "application/gzip, application/json;q=0.9" } }), idOf(id));
    expect(gzipped.headers.get("content-type")).toBe("application/gzip");
    expect(gzipped.headers.get("etag")).toBe('"2"');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString("utf8") === text).toBe(true);
    const decoded = await get(new Request(`${origin}/api/v1/rank-tables/${id}/text`, { headers: { ...auth(), "accept-encoding": "gzip, br" } }), idOf(id));
    expect(decoded.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(decoded.headers.get("content-encoding")).toBeNull();
    expect((await decoded.text()) === text).toBe(true);
    // The JSON detail decodes a compressed revision of this size; the first revision is still plain text.
    const detail = (await (await getDetail(new Request(`${origin}/api/v1/rank-tables/${id}`, { headers: auth() }), idOf(id))).json()) as { text: string; largeText?: unknown };
    expect(detail.text === text).toBe(true);
    expect(detail.largeText).toBeUndefined();
    const first = await get(new Request(`${origin}/api/v1/rank-tables/${id}/text?revision=1`, { headers: { ...auth(), accept: "application/gzip" } }), idOf(id));
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(await first.text())).toMatchObject({ version: "2.0", rank_list: [] });
  });

  it("answers a stale If-Match with 409 before reading the body, a body past the limit with 413, text that is not JSON with 422; nothing written", { timeout: 60_000 }, async () => {
    const text = writeRankTable(generateA5Table({ racks: 2, npusPerRack: 64 }) as unknown as JsonValue);
    const { id } = await createRankTable(testDatabase().db, { name: "streamed checks", text }, systemActor);
    expect((await save(id, 1, [text]).answer).status).toBe(200);

    const stale = save(id, 1, [text]);
    const conflict = await stale.answer;
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ error: { code: "revision_conflict", details: { expectedRevision: 1, currentRevision: 2 } } });
    expect(stale.state.pulled).toBe(0);

    const declared = save(id, 2, [text], { "content-length": String(rankTableTextLimit + 1) });
    const refused = await declared.answer;
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: "payload_too_large", details: { limit: rankTableTextLimit } } });
    expect(declared.state.pulled).toBe(0);
    // Past the limit while reading (no declared length; the server's preload stamps a lower limit here).
    const cut = await save(id, 2, [text.slice(0, 600), text.slice(600)], { [bodyLimitHeader]: "1000" }).answer;
    expect(cut.status).toBe(413);

    const broken = await save(id, 2, [text.slice(0, text.length / 2)]).answer;
    expect(broken.status).toBe(422);
    expect(await broken.json()).toMatchObject({ error: { code: "unparseable_rank_table" } });
    expect(await revisionCount(id)).toBe(2);

    // The worker is free again after the refusals.
    expect((await save(id, 2, [text]).answer).status).toBe(200);
  });

  it("takes the editor's upload (saveRankTableText with rankTableBlob's parts) with its rename, and answers its stale one with the conflict it shows, the name unchanged", { timeout: 60_000 }, async () => {
    const table = generateA5Table({ racks: 4, npusPerRack: 64 }) as unknown as JsonValue;
    const { id } = await createRankTable(testDatabase().db, { name: "editor upload", text: writeRankTable({ version: "2.0", rank_count: "0", rank_list: [] } as unknown as JsonValue) }, systemActor);
    // The browser's fetch, with the session's credentials, answered by the route handler.
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => put(new Request(`${origin}${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...auth() } }), idOf(id)));
    try {
      const saved = await saveRankTableText({ id, revision: 1 }, rankTableBlob(table), { name: "editor upload, renamed", comment: "from the editor", clusterId: null });
      expect(saved).toMatchObject({ id, revision: 2, name: "editor upload, renamed", comment: "from the editor" });
      const stored = await get(new Request(`${origin}/api/v1/rank-tables/${id}/text`, { headers: auth() }), idOf(id));
      expect(await stored.text()).toBe(writeRankTable(table));
      const stale = await saveRankTableText({ id, revision: 1 }, rankTableBlob(table), { name: "stale name", comment: "", clusterId: null }).catch((error: unknown) => error);
      expect(conflictCurrent(stale)).toMatchObject({ revision: 2, name: "editor upload, renamed" });
      expect(await revisionCount(id)).toBe(2);
      const [head] = await testDatabase().db.select({ name: rankTables.name }).from(rankTables).where(eq(rankTables.id, id));
      expect(head!.name).toBe("editor upload, renamed");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("restores as the hosted editor does: a revision stored gzipped read as a Blob (getRevisionBlob) is saved as the newest with the restore's comment, and a stale restore is the conflict", { timeout: 60_000 }, async () => {
    const [first, second] = [2, 3].map((racks) => generateA5Table({ racks, npusPerRack: 64 }) as unknown as JsonValue);
    const { id } = await createRankTable(testDatabase().db, { name: "hosted restore", text: writeRankTable({ version: "2.0", rank_count: "0", rank_list: [] } as unknown as JsonValue) }, systemActor);
    // The browser's fetch, with the session's credentials: GET …/text and PUT …/text answered by their handlers.
    vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
      const request = new Request(`${origin}${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...auth() } });
      return (request.method === "PUT" ? put : get)(request, idOf(id));
    });
    try {
      await saveRankTableText({ id, revision: 1 }, rankTableBlob(first!), { name: "hosted restore", comment: "", clusterId: null });
      await saveRankTableText({ id, revision: 2 }, rankTableBlob(second!), { name: "hosted restore", comment: "", clusterId: null });
      const text = await getRevisionBlob(id, 2);
      expect(await text.text()).toBe(writeRankTable(first!));
      const restored = await saveRankTableText({ id, revision: 3 }, text, { name: "hosted restore", comment: "Restored revision 2", clusterId: null });
      expect(restored).toMatchObject({ id, revision: 4, comment: "Restored revision 2" });
      const [row] = await testDatabase().db.select({ comment: rankTableRevisions.comment, gzip: rankTableRevisions.textGzip }).from(rankTableRevisions).where(eq(rankTableRevisions.revision, 4));
      expect(row!.comment).toBe("Restored revision 2");
      expect(gunzipSync(row!.gzip!).toString()).toBe(writeRankTable(first!));

      const stale = await saveRankTableText({ id, revision: 3 }, await getRevisionBlob(id, 1), { name: "hosted restore", comment: "Restored revision 1", clusterId: null }).catch((error: unknown) => error);
      expect(conflictCurrent(stale)).toMatchObject({ revision: 4 });
      expect(await revisionCount(id)).toBe(4);
      expect(await getRevisionBlob(id, 9).catch((error: Error) => error.message)).toBe("revision 9 could not be read");
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
