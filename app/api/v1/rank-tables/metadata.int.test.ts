/**
 * The table's name and linked cluster: set when it is created, changed with PATCH without a new revision, so open
 * editors keep their If-Match; every change is audited.
 */
import { readFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { auditLog, clusters } from "@/db/schema";
import { demoClusters } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

type Handler<P = Record<string, string>> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
let list: Handler;
let create: Handler;
let get: Handler<{ id: string }>;
let put: Handler<{ id: string }>;
let patch: Handler<{ id: string }>;
let revisions: Handler<{ id: string }>;
const tokens = { viewer: "", editor: "" };
let tableText = "";
let a2 = { id: 0, name: "" };

beforeAll(async () => {
  ({ GET: list, POST: create } = await import("./route"));
  ({ GET: get, PUT: put, PATCH: patch } = await import("./[id]/route"));
  ({ GET: revisions } = await import("./[id]/revisions/route"));
  const { db } = testDatabase();
  await seedDemo(db, demoClusters().filter((cluster) => cluster.slug === "atlas-a2-demo"));
  const [cluster] = await db.select({ id: clusters.id, name: clusters.name }).from(clusters).where(eq(clusters.slug, "atlas-a2-demo"));
  a2 = cluster!;
  tokens.viewer = (await createApiToken(db, { name: "link viewer", role: "viewer" }, systemActor)).token;
  tokens.editor = (await createApiToken(db, { name: "link editor", role: "editor" }, systemActor)).token;
  tableText = await readFile("lib/rank-table/fixtures/seed-ai-server.jsonc", "utf8");
});

const auth = (role: keyof typeof tokens = "editor", extra: Record<string, string> = {}) => ({ authorization: `Bearer ${tokens[role]}`, ...extra });
const none = { params: Promise.resolve({}) };
const idOf = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });
const patchTable = (id: number, body: unknown, role: keyof typeof tokens = "editor") => patch(jsonRequest(`/api/v1/rank-tables/${id}`, "PATCH", body, auth(role)), idOf(id));
const fetchTable = async (id: number) => (await get(jsonRequest(`/api/v1/rank-tables/${id}`, "GET", undefined, auth("viewer")), idOf(id))).json();

async function createTable(body: Record<string, unknown>) {
  return create(jsonRequest("/api/v1/rank-tables", "POST", { text: tableText, ...body }, auth()), none);
}

describe("a rank table's linked cluster", () => {
  it("is set at creation and listed with the cluster's name; an unknown cluster is refused (422) and nothing is saved", async () => {
    const created = await createTable({ name: "built from a2", clusterId: a2.id });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ clusterId: a2.id, clusterName: a2.name, revision: 1 });

    const unknown = await createTable({ name: "nowhere", clusterId: 999_999 });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error).toMatchObject({ code: "unknown_cluster", message: "there is no cluster 999999" });
    const listed = (await (await list(jsonRequest("/api/v1/rank-tables", "GET", undefined, auth("viewer")), none)).json()).items as { name: string; clusterName: string | null }[];
    expect(listed.find((item) => item.name === "built from a2")?.clusterName).toBe(a2.name);
    expect(listed.some((item) => item.name === "nowhere")).toBe(false);
  });

  it("PATCH links and unlinks without a new revision, so an editor's If-Match stays valid and a later save keeps the link", async () => {
    const created = await (await createTable({ name: "to link" })).json();
    expect(created.clusterId).toBeNull();

    const linked = await patchTable(created.id, { clusterId: a2.id });
    expect(linked.status).toBe(200);
    expect(linked.headers.get("etag")).toBe('"1"');
    expect(await linked.json()).toMatchObject({ id: created.id, revision: 1, clusterId: a2.id, clusterName: a2.name, updatedAt: created.updatedAt, text: created.text });
    const history = await (await revisions(jsonRequest(`/api/v1/rank-tables/${created.id}/revisions`, "GET", undefined, auth("viewer")), idOf(created.id))).json();
    expect(history.items).toHaveLength(1);

    // The editor that opened revision 1 before the link still saves with If-Match "1"; not sending clusterId keeps the link.
    const edited = created.text.replace('"device_ip": "192.168.1.8"', '"device_ip": "192.168.1.18"');
    expect(edited).not.toBe(created.text);
    const saved = await put(jsonRequest(`/api/v1/rank-tables/${created.id}`, "PUT", { text: edited }, auth("editor", { "if-match": '"1"' })), idOf(created.id));
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ revision: 2, clusterId: a2.id, clusterName: a2.name });

    const unlinked = await patchTable(created.id, { clusterId: null });
    expect(unlinked.status).toBe(200);
    expect(await unlinked.json()).toMatchObject({ revision: 2, clusterId: null, clusterName: null });
    expect(await fetchTable(created.id)).toMatchObject({ revision: 2, clusterId: null });
  });

  it("PATCH renames; refuses an unknown cluster (422), an empty or content-changing body (400), a viewer (403), a missing table (404), and changes nothing then", async () => {
    const created = await (await createTable({ name: "to rename", clusterId: a2.id })).json();
    const renamed = await patchTable(created.id, { name: "  renamed  " });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: "renamed", clusterId: a2.id, revision: 1 });

    const unknown = await patchTable(created.id, { clusterId: 999_999 });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error.code).toBe("unknown_cluster");
    const empty = await patchTable(created.id, {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({ code: "invalid_request", details: [expect.objectContaining({ message: expect.stringContaining("nothing to change") })] });
    const content = await patchTable(created.id, { text: tableText });
    expect(content.status).toBe(400);
    expect((await content.json()).error.code).toBe("invalid_request");
    expect((await patchTable(created.id, { clusterId: null }, "viewer")).status).toBe(403);
    expect((await patchTable(999_999, { clusterId: null })).status).toBe(404);

    expect(await fetchTable(created.id)).toMatchObject({ name: "renamed", clusterId: a2.id, revision: 1 });
  });

  it("records every change of the link in the audit log (before and after), and nothing for a change to the same value", async () => {
    const created = await (await createTable({ name: "audited" })).json();
    await patchTable(created.id, { clusterId: a2.id });
    await patchTable(created.id, { clusterId: a2.id });
    await patchTable(created.id, { clusterId: null });
    const entries = await testDatabase().db.select().from(auditLog).where(eq(auditLog.targetId, String(created.id)));
    const mine = entries.filter((entry) => entry.targetType === "rank_table").sort((a, b) => a.id - b.id);
    expect(mine.map((entry) => [entry.action, entry.actorName, entry.before, entry.after])).toEqual([
      ["rank_table.create", "link editor", null, expect.objectContaining({ clusterId: null })],
      ["rank_table.update_metadata", "link editor", { clusterId: null }, { clusterId: a2.id }],
      ["rank_table.update_metadata", "link editor", { clusterId: a2.id }, { clusterId: null }],
    ]);
  });
});
