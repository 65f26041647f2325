import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import type { RankTable } from "@/lib/rank-table";
import { withAppDatabase } from "@/test/app-database";
import { testDatabase } from "@/test/database";
import { inlineLimit } from "@/server/rank-table-worker";
import { parameterPlaneKey } from "@/lib/fabric/derive";

withAppDatabase();

let preview: typeof import("./preview/route").POST;
let put: typeof import("./route").PUT;
let exported: typeof import("./rank-table/route").GET;
let view: typeof import("../topology/route").GET;
let editor: string;
let viewer: string;

beforeAll(async () => {
  ({ POST: preview } = await import("./preview/route"));
  ({ PUT: put } = await import("./route"));
  ({ GET: exported } = await import("./rank-table/route"));
  ({ GET: view } = await import("../topology/route"));
  editor = (await createApiToken(testDatabase().db, { name: "importer", role: "editor" }, systemActor)).token;
  viewer = (await createApiToken(testDatabase().db, { name: "reader", role: "viewer" }, systemActor)).token;
  await seedDemo(testDatabase().db);
});

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const send = (method: string, token: string, body: unknown) =>
  new Request("http://localhost/x", { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
const get = (token: string) => new Request("http://localhost/x", { headers: { authorization: `Bearer ${token}` } });

async function currentTable(): Promise<RankTable> {
  const response = await exported(get(viewer), context("atlas-a2-demo"));
  expect(response.status).toBe(200);
  return (await response.json()) as RankTable;
}

describe("inventory from a rank table", () => {
  it("exports the inventory as a rank table and previews it back as unchanged", async () => {
    const table = await currentTable();
    expect(table.version).toBe("1.0");
    expect(table.server_list).toHaveLength(4);
    const response = await preview(send("POST", editor, { text: JSON.stringify(table) }), context("atlas-a2-demo"));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ revision: 1, valid: true, counts: { superPods: 0, servers: 4, dies: 32 } });
    expect(body.diff.unchanged).toBe(true);
  });

  it("previews a table past the inline limit the same, read in the worker", async () => {
    const text = `${JSON.stringify(await currentTable(), null, 2)}${" ".repeat(inlineLimit)}`;
    const body = await (await preview(send("POST", editor, { text }), context("atlas-a2-demo"))).json();
    expect(body).toMatchObject({ revision: 1, valid: true, counts: { superPods: 0, servers: 4, dies: 32 } });
    expect(body.diff.unchanged).toBe(true);
  });

  it("previews, then writes a changed table in one transaction, bumping the revision the topology is cached under", async () => {
    const table = await currentTable();
    table.server_list.pop();
    table.server_count = "3";
    table.server_list[0]!.host_ip = "172.17.0.99";
    const text = JSON.stringify(table);
    const previewed = await (await preview(send("POST", editor, { text }), context("atlas-a2-demo"))).json();
    expect(previewed.diff.servers).toEqual({
      added: [],
      removed: ["a2-node3"],
      changed: [{ serverId: "a2-node0", changes: [{ field: "hostIp", from: "172.17.0.10", to: "172.17.0.99" }] }],
    });
    expect(previewed.diff.dies.removed).toHaveLength(8);

    const stale = await put(send("PUT", editor, { text, expectedRevision: previewed.revision + 5 }), context("atlas-a2-demo"));
    expect(stale.status).toBe(409);

    const written = await put(send("PUT", editor, { text, expectedRevision: previewed.revision }), context("atlas-a2-demo"));
    expect(written.status).toBe(200);
    expect((await written.json()).revision).toBe(previewed.revision + 1);

    const after = await (await view(get(viewer), context("atlas-a2-demo"))).json();
    expect(after.cluster.inventoryRevision).toBe(previewed.revision + 1);
    expect(after.counts).toEqual({ superPods: 0, servers: 3, npus: 24, dies: 24 });
    expect(after.nodes.find((n: { id: string }) => n.id === "a2-node0").hostIp).toBe("172.17.0.99");
    // The demo's stored fabric has a parameter plane: the servers attach to it instead of RoCE lines between them.
    expect(after.links.filter((l: { kind: string }) => l.kind === "roce")).toHaveLength(0);
    expect(after.nodes.some((n: { id: string }) => n.id === parameterPlaneKey)).toBe(true);
  });

  it("refuses tables with errors (422), and viewers (403)", async () => {
    const table = await currentTable();
    table.server_list[1]!.device[0]!.device_ip = table.server_list[0]!.device[0]!.device_ip!;
    const text = JSON.stringify(table);
    const previewed = await (await preview(send("POST", editor, { text }), context("atlas-a2-demo"))).json();
    expect(previewed.valid).toBe(false);
    expect(previewed.diff).toBeNull();
    const refused = await put(send("PUT", editor, { text, expectedRevision: 2 }), context("atlas-a2-demo"));
    expect(refused.status).toBe(422);
    expect((await refused.json()).error.code).toBe("invalid_rank_table");
    const forbidden = await put(send("PUT", viewer, { text, expectedRevision: 2 }), context("atlas-a2-demo"));
    expect(forbidden.status).toBe(403);
    const missing = await preview(send("POST", editor, { text }), context("no-such-cluster"));
    expect(missing.status).toBe(404);
  });
});
