import { count, eq } from "drizzle-orm";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { uploadHostedTable } from "@/components/rank-tables/api";
import { rankTableBlob } from "@/components/rank-tables/table-blob";
import { systemActor } from "@/db/queries/audit";
import { getRankTableForEditor, loadRevisionTexts } from "@/db/queries/rank-tables";
import { createRankTable } from "@/db/queries/rank-table-saves";
import { createApiToken } from "@/db/queries/tokens";
import { rankTableRevisions, rankTables } from "@/db/schema";
import { rankTableTextLimit } from "@/db/schema/rank-table/constants";
import { generateA5Table, writeRankTable, type JsonValue } from "@/lib/rank-table";
import { HOSTED_FROM_ROWS } from "@/lib/rank-table-workspace/table-host";
import { withAppDatabase } from "@/test/app-database";
import { origin } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

// A small JSON limit, so that the editor's upload takes the streamed route without a 128 MiB table.
vi.mock("@/db/schema/rank-table/constants", async (original) => ({ ...(await original<object>()), rankTableBodyLimit: 4096 }));

/**
 * A new table from its text (POST /rank-tables/text, issue 21): a table too large for POST /rank-tables' JSON body is
 * created through the streamed save (worker, gzip) with its name, comment and cluster from the query; the query, the
 * permission and the declared length are checked before anything of the body is read.
 */
type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let create: (request: Request) => Promise<Response>;
let put: Handler;
let get: Handler;
const tokens = { editor: "", viewer: "" };
const idOf = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
const auth = (role: keyof typeof tokens = "editor") => ({ authorization: `Bearer ${tokens[role]}` });
const tablesNamed = async (name: string) => (await testDatabase().db.select({ n: count() }).from(rankTables).where(eq(rankTables.name, name)))[0]!.n;

/** A body that says whether anything of it was read (highWaterMark 0: nothing is pulled ahead). */
function streamed(text: string) {
  const state = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled++;
        if (state.pulled === 1) controller.enqueue(new TextEncoder().encode(text));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, state };
}

function post(query: string, text: string, headers: Record<string, string> = {}) {
  const { body, state } = streamed(text);
  const request = new Request(`${origin}/api/v1/rank-tables/text?${query}`, { method: "POST", body, headers: { ...auth(), "content-type": "application/json", ...headers }, duplex: "half" } as RequestInit);
  return { answer: create(request), state };
}

const table = generateA5Table({ racks: 8, npusPerRack: 64 }) as unknown as JsonValue;
const text = writeRankTable(table);

beforeAll(async () => {
  ({ POST: create } = (await import("./text/route")) as unknown as { POST: typeof create });
  ({ PUT: put, GET: get } = await import("./[id]/text/route"));
  tokens.editor = (await createApiToken(testDatabase().db, { name: "stream creator", role: "editor" }, systemActor)).token;
  tokens.viewer = (await createApiToken(testDatabase().db, { name: "stream viewer", role: "viewer" }, systemActor)).token;
});

describe("POST /rank-tables/text", () => {
  it("creates revision 1 from the text with the query's name and comment, stored gzipped and read back byte-identical", { timeout: 60_000 }, async () => {
    const { answer } = post(`name=${encodeURIComponent("streamed new & big")}&comment=first`, text);
    const response = await answer;
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: number; revision: number; name: string; comment: string; text?: string };
    expect(created).toMatchObject({ revision: 1, name: "streamed new & big", comment: "first", clusterId: null, summary: { valid: true, stats: { devices: 512 } } });
    expect(created.text).toBeUndefined();
    const [row] = await testDatabase().db.select({ text: rankTableRevisions.text, gzip: rankTableRevisions.textGzip, bytes: rankTableRevisions.textBytes }).from(rankTableRevisions).where(eq(rankTableRevisions.rankTableId, created.id));
    expect(row).toMatchObject({ text: null, bytes: Buffer.byteLength(text) });
    expect(gunzipSync(row!.gzip!).toString("utf8")).toBe(text);
    // The one loader of what each revision stored reads it whichever way it was stored (the fault-injection suite).
    expect(await loadRevisionTexts(testDatabase().db, created.id)).toEqual([{ revision: 1, text }]);
    const read = await get(new Request(`${origin}/api/v1/rank-tables/${created.id}/text`, { headers: auth() }), idOf(created.id));
    expect(Buffer.from(await read.arrayBuffer()).equals(Buffer.from(text, "utf8"))).toBe(true);
  });

  it("refuses without reading the body: no name (400), a viewer (403), a declared length past the limit (413), an unknown cluster (422); nothing created", async () => {
    const name = "streamed refused";
    const cases: [string, Record<string, string>, number, string][] = [
      ["comment=no+name", {}, 400, "invalid_request"],
      [`name=${encodeURIComponent(name)}`, auth("viewer"), 403, "forbidden"],
      [`name=${encodeURIComponent(name)}`, { "content-length": String(rankTableTextLimit + 1) }, 413, "payload_too_large"],
      [`name=${encodeURIComponent(name)}&clusterId=999999`, {}, 422, "unknown_cluster"],
    ];
    for (const [query, headers, status, code] of cases) {
      const { answer, state } = post(query, text, headers);
      const response = await answer;
      expect(response.status, query).toBe(status);
      expect(await response.json(), query).toMatchObject({ error: { code } });
      expect(state.pulled, query).toBe(0);
    }
    expect(await tablesNamed(name)).toBe(0);
  });

  it("refuses text that is not JSON with 422, nothing created", async () => {
    const response = await post("name=broken", text.slice(0, text.length / 2)).answer;
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: "unparseable_rank_table" } });
    expect(await tablesNamed("broken")).toBe(0);
  });
});

describe("the editor's streamed saves (uploadHostedTable past the JSON limit)", () => {
  it("creates a new table, then saves a revision with a rename; a stale one is a 409 that keeps the name", { timeout: 60_000 }, async () => {
    const calls: string[] = [];
    // The browser's fetch, with the session's credentials, answered by the route handlers.
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      const request = new Request(`${origin}${url}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...auth() } });
      const id = /rank-tables\/(\d+)\/text/.exec(url)?.[1];
      return id ? put(request, idOf(Number(id))) : create(request);
    });
    try {
      const write = async (jsonString: boolean) => rankTableBlob(table, jsonString);
      const created = await uploadHostedTable(undefined, { name: "hosted new", comment: "", clusterId: null }, write);
      expect(created).toMatchObject({ revision: 1, name: "hosted new" });
      const saved = await uploadHostedTable({ id: created.id, revision: 1 }, { name: "hosted renamed", comment: "second", clusterId: null }, write);
      expect(saved).toMatchObject({ id: created.id, revision: 2, name: "hosted renamed", comment: "second" });
      const stale = await put(
        new Request(`${origin}/api/v1/rank-tables/${created.id}/text?name=stale`, { method: "PUT", body: text, headers: { ...auth(), "if-match": '"1"' } }),
        idOf(created.id),
      );
      expect(stale.status).toBe(409);
      expect(await stale.json()).toMatchObject({ error: { code: "revision_conflict", details: { currentRevision: 2, current: { name: "hosted renamed" } } } });
      expect(calls).toEqual(["POST /api/v1/rank-tables/text?name=hosted+new", `PUT /api/v1/rank-tables/${created.id}/text?name=hosted+renamed&comment=second`]);
      const read = await get(new Request(`${origin}/api/v1/rank-tables/${created.id}/text`, { headers: auth() }), idOf(created.id));
      expect(await read.text()).toBe(text);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("the editor's page (getRankTableForEditor)", () => {
  it("carries the text of a table the page edits, and leaves out that of one the worker keeps (largeText, its length in bytes, plain or gzipped)", { timeout: 60_000 }, async () => {
    const db = testDatabase().db;
    const small = await createRankTable(db, { name: "page small", text }, systemActor);
    expect(await getRankTableForEditor(db, small.id)).toMatchObject({ text, revision: 1 });
    expect((await getRankTableForEditor(db, small.id))!.largeText).toBeUndefined();

    const large = writeRankTable(generateA5Table({ racks: HOSTED_FROM_ROWS / 64, npusPerRack: 64 }) as unknown as JsonValue);
    const plain = await createRankTable(db, { name: "page hosted", text: large }, systemActor);
    expect(await getRankTableForEditor(db, plain.id)).toMatchObject({ text: "", largeText: { bytes: Buffer.byteLength(large) }, summary: { stats: { devices: HOSTED_FROM_ROWS } } });
    const response = await post("name=page+hosted+streamed", large).answer;
    const { id } = (await response.json()) as { id: number };
    expect(await getRankTableForEditor(db, id)).toMatchObject({ text: "", largeText: { bytes: Buffer.byteLength(large) } });
    expect(await getRankTableForEditor(db, 999_999)).toBeUndefined();
  });
});
