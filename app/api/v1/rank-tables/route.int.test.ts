import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { rankTableBodyLimit } from "@/db/schema/rank-table/constants";
import { auditLog } from "@/db/schema";
import { generateFromTemplate, writeRankTable } from "@/lib/rank-table";
import { inlineLimit } from "@/server/rank-table-worker";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest, origin } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

type Handler<P = Record<string, string>> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
let list: Handler;
let create: Handler;
let validate: Handler;
let get: Handler<{ id: string }>;
let put: Handler<{ id: string }>;
let remove: Handler<{ id: string }>;
let revisions: Handler<{ id: string }>;
let exportTable: Handler<{ id: string }>;
const tokens = { viewer: "", editor: "" };
let seedExample = "";

beforeAll(async () => {
  const collection = await import("./route");
  ({ GET: list, POST: create } = collection);
  ({ POST: validate } = await import("./validate/route"));
  const item = await import("./[id]/route");
  ({ GET: get, PUT: put, DELETE: remove } = item);
  ({ GET: revisions } = await import("./[id]/revisions/route"));
  ({ GET: exportTable } = await import("./[id]/export/route"));
  const { db } = testDatabase();
  tokens.viewer = (await createApiToken(db, { name: "rt viewer", role: "viewer" }, systemActor)).token;
  tokens.editor = (await createApiToken(db, { name: "rt editor", role: "editor" }, systemActor)).token;
  seedExample = await readFile("lib/rank-table/fixtures/seed-super-pod.jsonc", "utf8");
});

const auth = (role: keyof typeof tokens = "editor", extra: Record<string, string> = {}) => ({ authorization: `Bearer ${tokens[role]}`, ...extra });
const none = { params: Promise.resolve({}) };
/** `bytes` as a stream of `size`-byte chunks: a body without a declared length. */
const chunked = (bytes: Uint8Array, size: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.byteLength; at += size) controller.enqueue(bytes.subarray(at, at + size));
      controller.close();
    },
  });
const idOf = (id: number | string) => ({ params: Promise.resolve({ id: String(id) }) });

async function createTable(name: string, text: string, role: keyof typeof tokens = "editor") {
  return create(jsonRequest("/api/v1/rank-tables", "POST", { name, text, comment: "imported" }, auth(role)), none);
}

async function save(id: number, revision: number | undefined, body: Record<string, unknown>) {
  const headers = revision === undefined ? auth() : auth("editor", { "if-match": `"${revision}"` });
  return put(jsonRequest(`/api/v1/rank-tables/${id}`, "PUT", body, headers), idOf(id));
}

describe("POST /api/v1/rank-tables/validate", () => {
  it("takes the raw text whatever the content type and answers the spec's report, in the asked language", async () => {
    const broken = seedExample.replace('"device_ip": "192.168.2.6"', '"device_ip": "192.168.1.6"');
    for (const type of ["text/plain", "application/json", "application/octet-stream"]) {
      const response = await validate(new Request(`${origin}/api/v1/rank-tables/validate`, { method: "POST", body: broken, headers: { ...auth("viewer"), "content-type": type } }), none);
      expect(response.status).toBe(200);
      const report = await response.json();
      expect(report).toMatchObject({ valid: false, version: "1.2", mode: "super-pod" });
      const duplicate = report.issues.find((issue: { code: string }) => issue.code === "RT036");
      expect(duplicate).toMatchObject({ severity: "error", path: "/server_list/1/device/0/device_ip", line: expect.any(Number), column: expect.any(Number) });
    }
    const zh = await validate(new Request(`${origin}/api/v1/rank-tables/validate?lang=zh`, { method: "POST", body: "{", headers: auth("viewer") }), none);
    const report = await zh.json();
    expect(report.issues[0].code).toBe("RT000");
    expect(report.issues[0].message).toMatch(/[\u4e00-\u9fff]/);
  });

  it("accepts a 16,384-rank table (several MB), with its length declared or sent chunked (moved to the worker's port)", async () => {
    const big = writeRankTable(generateFromTemplate({ superPods: 16, serversPerSuperPod: 64, basePort: 20000 }));
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    const bytes = Buffer.from(big);
    const declared = { ...auth("viewer"), "content-length": String(bytes.byteLength) };
    const reports = [];
    for (const [body, headers] of [[bytes, declared], [chunked(bytes, 64 * 1024), auth("viewer")]] as const) {
      const response = await validate(new Request(`${origin}/api/v1/rank-tables/validate`, { method: "POST", body, headers, duplex: "half" } as RequestInit), none);
      expect(response.status).toBe(200);
      reports.push(await response.json());
    }
    expect(reports[0].stats.devices).toBe(16384);
    expect(reports[1]).toEqual(reports[0]);
  });

  it("answers 413 in the error shape to a chunked body past the limit", async () => {
    const over = Buffer.alloc(rankTableBodyLimit + 1, 0x20);
    const response = await validate(new Request(`${origin}/api/v1/rank-tables/validate`, { method: "POST", body: chunked(over, 1024 * 1024), headers: auth("viewer"), duplex: "half" } as RequestInit), none);
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("payload_too_large");
  });

  it("caps the report of a table with millions of broken elements and counts what it left out (issue 13)", async () => {
    const zeros = `{"version":"1.0","server_list":[${new Array(3_000_000).fill("0").join(",")}]}`;
    const response = await validate(new Request(`${origin}/api/v1/rank-tables/validate`, { method: "POST", body: zeros, headers: auth("viewer") }), none);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThan(100_000);
    const report = JSON.parse(text);
    expect(report.valid).toBe(false);
    expect(report.issues.filter((issue: { code: string }) => issue.code === "RT004")).toHaveLength(100);
    expect(report.omitted).toEqual({ count: 2_999_900, byCode: { RT004: 2_999_900 } });
  });

  it("needs credentials", async () => {
    const response = await validate(new Request(`${origin}/api/v1/rank-tables/validate`, { method: "POST", body: "{}" }), none);
    expect(response.status).toBe(401);
  });
});

describe("rank tables: create, read, save, revisions, export, delete", () => {
  it("stores the canonical form as revision 1 and lists it with its summary", async () => {
    const response = await createTable("seed super pod", seedExample);
    expect(response.status).toBe(201);
    expect(response.headers.get("etag")).toBe('"1"');
    const created = await response.json();
    expect(created).toMatchObject({ name: "seed super pod", revision: 1, clusterId: null, comment: "imported", updatedBy: "rt editor" });
    expect(created.text).toBe(writeRankTable(JSON.parse(created.text)));
    expect(created.text).not.toContain("//");
    expect(created.summary).toMatchObject({ valid: true, errors: 0, version: "1.2", mode: "super-pod" });

    const listed = await (await list(jsonRequest("/api/v1/rank-tables", "GET", undefined, auth("viewer")), none)).json();
    expect(listed.items.map((item: { id: number; name: string }) => [item.id, item.name])).toContainEqual([created.id, "seed super pod"]);
    expect(listed.items[0]).not.toHaveProperty("text");

    const fetched = await get(jsonRequest(`/api/v1/rank-tables/${created.id}`, "GET", undefined, auth("viewer")), idOf(created.id));
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("etag")).toBe('"1"');
    expect((await fetched.json()).text).toBe(created.text);
  });

  it("saves a table past the inline limit through the worker, and the worker's refusals are the same 422s", async () => {
    const big = writeRankTable(generateFromTemplate({ superPods: 4, serversPerSuperPod: 16, basePort: 20000 }));
    expect(big.length).toBeGreaterThan(inlineLimit);
    const response = await createTable("large", big);
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created.text).toBe(big);
    expect(created.summary).toMatchObject({ valid: true, errors: 0 });
    const saved = await save(created.id, 1, { text: big.replace('"host_port": "20000"', '"host_port": "20001"') });
    expect(saved.status).toBe(200);
    expect((await saved.json()).revision).toBe(2);

    const broken = await createTable("large broken", `${big},`);
    expect(broken.status).toBe(422);
    expect((await broken.json()).error).toMatchObject({ code: "unparseable_rank_table", details: { issues: [{ code: "RT000" }] } });
    const unstorable = await save(created.id, 2, { text: big.replace('"status": "completed"', '"status": "completed\\u0000"') });
    expect(unstorable.status).toBe(422);
    expect((await unstorable.json()).error.code).toBe("invalid_text");
  });

  it("refuses a large body that is not the right JSON in the worker as readJson does on the request thread: invalid UTF-8, invalid JSON, the wrong shape, unstorable text", async () => {
    const padding = " ".repeat(inlineLimit);
    const post = (body: BodyInit) => create(new Request(`${origin}/api/v1/rank-tables`, { method: "POST", body, headers: auth("editor", { "content-type": "application/json" }) }), none);
    const invalidUtf8 = Buffer.concat([Buffer.from(`{"name":"x","text":"${padding}`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const cases: [BodyInit, number, string][] = [
      [invalidUtf8, 400, "invalid_utf8"],
      [`{"name":"x","text":"${padding}"`, 400, "invalid_json"],
      [JSON.stringify({ text: `{}${padding}` }), 400, "invalid_request"],
      [JSON.stringify({ name: "nul\u0000", text: `{}${padding}` }), 422, "invalid_text"],
    ];
    for (const [body, status, code] of cases) {
      const response = await post(body);
      expect([code, response.status, (await response.json()).error.code]).toEqual([code, status, code]);
    }
    const notJson = await create(new Request(`${origin}/api/v1/rank-tables`, { method: "POST", body: `{}${padding}`, headers: auth("editor", { "content-type": "text/plain" }) }), none);
    expect(notJson.status).toBe(415);
  });

  it("refuses text that is not JSON (422, with the position), a viewer (403), and a missing name (400)", async () => {
    const broken = await createTable("broken", '{"status": ');
    expect(broken.status).toBe(422);
    expect((await broken.json()).error).toMatchObject({ code: "unparseable_rank_table", details: { issues: [{ code: "RT000", line: 1 }] } });
    expect((await createTable("as viewer", seedExample, "viewer")).status).toBe(403);
    const nameless = await create(jsonRequest("/api/v1/rank-tables", "POST", { text: seedExample }, auth()), none);
    expect(nameless.status).toBe(400);
    expect((await nameless.json()).error.code).toBe("invalid_request");
  });

  it("saves with If-Match: the new revision, 428 without it, 409 with a stale one (details carry the current table)", async () => {
    const created = await (await createTable("to edit", seedExample)).json();
    const edited = created.text.replace('"host_port": "16666"', '"host_port": "16000"');
    expect((await save(created.id, undefined, { text: edited })).status).toBe(428);

    const saved = await save(created.id, 1, { text: edited, comment: "host port" });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("etag")).toBe('"2"');
    expect(await saved.json()).toMatchObject({ revision: 2, comment: "host port" });

    const stale = await save(created.id, 1, { text: created.text, comment: "stale" });
    expect(stale.status).toBe(409);
    const body = await stale.json();
    expect(body.error).toMatchObject({ code: "revision_conflict", details: { expectedRevision: 1, currentRevision: 2, current: { revision: 2, text: writeRankTable(JSON.parse(edited)) } } });

    const history = await (await revisions(jsonRequest(`/api/v1/rank-tables/${created.id}/revisions`, "GET", undefined, auth("viewer")), idOf(created.id))).json();
    expect(history.items.map((item: { revision: number; comment: string; author: { name: string } }) => [item.revision, item.comment, item.author.name])).toEqual([
      [2, "host port", "rt editor"],
      [1, "imported", "rt editor"],
    ]);
    expect(history.items[0].summary).toMatchObject({ valid: expect.any(Boolean), stats: { devices: expect.any(Number) } });

    const missing = await save(999999, 1, { text: edited });
    expect(missing.status).toBe(404);
  });

  it("two saves from the same revision at once: exactly one wins, the other gets 409, nothing is lost", async () => {
    const created = await (await createTable("race", seedExample)).json();
    const mine = created.text.replace('"host_port": "16666"', '"host_port": "17001"');
    const theirs = created.text.replace('"host_port": "16666"', '"host_port": "17002"');
    for (let round = 0; round < 5; round++) {
      const current = (await (await get(jsonRequest(`/api/v1/rank-tables/${created.id}`, "GET", undefined, auth()), idOf(created.id))).json()).revision as number;
      const a = mine.replace("17001", String(18000 + round));
      const b = theirs.replace("17002", String(19000 + round));
      const results = await Promise.all([save(created.id, current, { text: a, comment: `a${round}` }), save(created.id, current, { text: b, comment: `b${round}` })]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = await results.find((r) => r.status === 200)!.json();
      expect(winner.revision).toBe(current + 1);
      const head = await (await get(jsonRequest(`/api/v1/rank-tables/${created.id}`, "GET", undefined, auth()), idOf(created.id))).json();
      expect(head.revision).toBe(current + 1);
      expect(head.text).toBe(winner.text);
      const loser = await results.find((r) => r.status === 409)!.json();
      expect(loser.error.details.currentRevision).toBe(current + 1);
    }
    const history = await (await revisions(jsonRequest(`/api/v1/rank-tables/${created.id}/revisions`, "GET", undefined, auth()), idOf(created.id))).json();
    expect(history.items.map((item: { revision: number }) => item.revision)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("exports JSON and the Ascend Operator ConfigMap, for the current or an older revision", async () => {
    const created = await (await createTable("Llama 7B pretrain", seedExample)).json();
    const edited = created.text.replace('"host_port": "16666"', '"host_port": "16001"');
    await save(created.id, 1, { text: edited });

    const json = await exportTable(jsonRequest(`/api/v1/rank-tables/${created.id}/export?format=json`, "GET", undefined, auth("viewer")), idOf(created.id));
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(json.headers.get("content-disposition")).toContain('filename="hccl.json"');
    const text = await json.text();
    expect(text).toBe(writeRankTable(JSON.parse(edited)));

    const old = await exportTable(jsonRequest(`/api/v1/rank-tables/${created.id}/export?revision=1`, "GET", undefined, auth("viewer")), idOf(created.id));
    expect(await old.text()).toBe(created.text);
    expect(old.headers.get("x-rank-table-revision")).toBe("1");

    const configmap = await exportTable(jsonRequest(`/api/v1/rank-tables/${created.id}/export?format=configmap&namespace=train`, "GET", undefined, auth("viewer")), idOf(created.id));
    expect(configmap.status).toBe(200);
    const object = parseYaml(await configmap.text());
    expect(object).toMatchObject({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "rings-config-llama-7b-pretrain", namespace: "train", labels: { "ring-controller.atlas": "ascend-910" } } });
    expect(object.data["hccl.json"]).toBe(text);

    const job = await exportTable(jsonRequest(`/api/v1/rank-tables/${created.id}/export?format=configmap&job=mnist`, "GET", undefined, auth("viewer")), idOf(created.id));
    expect(parseYaml(await job.text()).metadata.name).toBe("rings-config-mnist");

    expect((await exportTable(jsonRequest(`/api/v1/rank-tables/${created.id}/export?revision=9`, "GET", undefined, auth("viewer")), idOf(created.id))).status).toBe(404);
    expect((await exportTable(jsonRequest(`/api/v1/rank-tables/${created.id}/export?format=xml`, "GET", undefined, auth("viewer")), idOf(created.id))).status).toBe(400);
  });

  it("deletes (editor only), then answers 404; every change is in the audit log", async () => {
    const created = await (await createTable("doomed", seedExample)).json();
    const asViewer = await remove(jsonRequest(`/api/v1/rank-tables/${created.id}`, "DELETE", undefined, auth("viewer")), idOf(created.id));
    expect(asViewer.status).toBe(403);
    const deleted = await remove(jsonRequest(`/api/v1/rank-tables/${created.id}`, "DELETE", undefined, auth()), idOf(created.id));
    expect(deleted.status).toBe(200);
    expect((await get(jsonRequest(`/api/v1/rank-tables/${created.id}`, "GET", undefined, auth()), idOf(created.id))).status).toBe(404);
    expect((await remove(jsonRequest(`/api/v1/rank-tables/${created.id}`, "DELETE", undefined, auth()), idOf(created.id))).status).toBe(404);
    expect((await get(jsonRequest(`/api/v1/rank-tables/abc`, "GET", undefined, auth()), idOf("abc"))).status).toBe(404);

    const entries = await testDatabase().db.select().from(auditLog);
    const mine = entries.filter((entry) => entry.targetType === "rank_table" && entry.targetId === String(created.id));
    expect(mine.map((entry) => entry.action)).toEqual(["rank_table.create", "rank_table.delete"]);
    expect(entries.some((entry) => entry.action === "rank_table.update")).toBe(true);
  });
});
