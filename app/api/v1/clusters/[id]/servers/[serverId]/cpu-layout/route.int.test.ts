import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import * as shapes from "@/lib/affinity/fixtures/real-shapes";
import { demoClusters } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { testDatabase } from "@/test/database";

withAppDatabase();

let routes: typeof import("./route");
let check: typeof import("@/app/api/v1/affinity/check/route").POST;
let plan: typeof import("@/app/api/v1/affinity/plan/route").POST;
let editor: string;
const servers = demoClusters().find((c) => c.slug === "atlas-a2-demo")!.servers.map((s) => s.serverId);

beforeAll(async () => {
  editor = (await createApiToken(testDatabase().db, { name: "layout-editor", role: "editor" }, systemActor)).token;
  routes = await import("./route");
  ({ POST: check } = await import("@/app/api/v1/affinity/check/route"));
  ({ POST: plan } = await import("@/app/api/v1/affinity/plan/route"));
  await seedDemo(testDatabase().db);
});

const context = (serverId: string, id = "atlas-a2-demo") => ({ params: Promise.resolve({ id, serverId }) });
const json = (method: string, body?: unknown) =>
  new Request("http://localhost/x", {
    method,
    headers: { authorization: `Bearer ${editor}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("server CPU layouts", () => {
  it("answers no layout before one is stored, and 404 for an unknown server", async () => {
    const response = await routes.GET(json("GET"), context(servers[0]!));
    expect(await response.json()).toMatchObject({ serverId: servers[0], model: "Atlas 800T A2", layout: null });
    expect((await routes.GET(json("GET"), context("nope"))).status).toBe(404);
  });

  it("stores a layout for every server of the model, audited, and keeps unknown lines in the answer", async () => {
    const put = await routes.PUT(json("PUT", { lscpu: shapes.kunpeng920Lscpu, topo: shapes.a2TopoNotDefault, scope: "model" }), context(servers[1]!));
    expect(put.status).toBe(200);
    const body = await put.json();
    expect(body.serverIds).toEqual(servers);
    expect(body.topo.unknownLines).toHaveLength(1);
    const stored = await (await routes.GET(json("GET"), context(servers[3]!))).json();
    expect(stored.layout.npus.map((npu: { numaNode: number }) => npu.numaNode)).toEqual([6, 6, 4, 4, 0, 0, 2, 2]);
    const { rows } = await testDatabase().pool.query("select action, target_id, details from audit_log where action = 'server.cpu_layout_update'");
    expect(rows).toEqual([expect.objectContaining({ target_id: `atlas-a2-demo/${servers[1]}`, details: expect.objectContaining({ servers: 4, scope: "model" }) })]);
  });

  it("refuses an lscpu text without NUMA nodes", async () => {
    const response = await routes.PUT(json("PUT", { lscpu: "CPU(s): 4" }), context(servers[0]!));
    expect(response.status).toBe(422);
    expect((await response.json()).error.code).toBe("lscpu_without_numa");
  });

  it("checks and plans against the stored layout of a server", async () => {
    const checked = await (await check(json("POST", { value: "mode:1", cluster: "atlas-a2-demo", server: servers[0] }), {})).json();
    expect(checked.check.findings.map((f: { code: string }) => f.code)).toEqual(Array(8).fill("CA012"));
    const planned = await (await plan(json("POST", { npus: [0, 1], reserve: 2, cluster: "atlas-a2-demo", server: servers[0] }), {})).json();
    expect(planned.plan.value).toBe("mode:1,npu0:146-156,npu1:157-167");
    expect(planned.plan.visibleDevices).toBe("0,1");
  });
});
