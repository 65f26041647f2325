/** CL001 on a saved table: its layout against the chips of the linked cluster, in the detail the page and API share. */
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { clusters } from "@/db/schema";
import { demoClusters } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";

withAppDatabase();

type Handler<P = Record<string, string>> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
let create: Handler;
let patch: Handler<{ id: string }>;
let token = "";
let a2 = 0;
let a3 = 0;

beforeAll(async () => {
  ({ POST: create } = await import("./route"));
  ({ PATCH: patch } = await import("./[id]/route"));
  const { db } = testDatabase();
  await seedDemo(db, demoClusters());
  const rows = await db.select({ id: clusters.id, slug: clusters.slug }).from(clusters);
  a2 = rows.find((row) => row.slug === "atlas-a2-demo")!.id;
  a3 = rows.find((row) => row.slug !== "atlas-a2-demo")!.id;
  token = (await createApiToken(db, { name: "fit editor", role: "editor" }, systemActor)).token;
});

const fixture = (name: string) => readFile(`lib/rank-table/fixtures/${name}`, "utf8");

async function createLinked(name: string, text: string, clusterId: number) {
  const response = await create(jsonRequest("/api/v1/rank-tables", "POST", { name, text, clusterId }, { authorization: `Bearer ${token}` }), { params: Promise.resolve({}) });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; hardwareFit: unknown };
}

describe("a linked table whose layout does not suit the cluster's chips", () => {
  it("a 1.2 super pod table on Atlas A2 gets a CL001 warning; linked to the A3 cluster it fits", async () => {
    const table = await createLinked("super pods on A2", await fixture("seed-super-pod.jsonc"), a2);
    expect(table.hardwareFit).toMatchObject({ code: "CL001", severity: "warning" });
    expect((table.hardwareFit as { message: string }).message).toContain("Atlas A2");
    const relinked = await patch(jsonRequest(`/api/v1/rank-tables/${table.id}`, "PATCH", { clusterId: a3 }, { authorization: `Bearer ${token}` }), { params: Promise.resolve({ id: String(table.id) }) });
    expect(await relinked.json()).toMatchObject({ hardwareFit: null });
  });

  it("a 2.0 table on an A2 or A3 cluster is an error (HCCL there rejects it); a 1.0 table is fine on A2", async () => {
    expect((await createLinked("A5 on A3", await fixture("a5-reference-4p.jsonc"), a3)).hardwareFit).toMatchObject({ code: "CL001", severity: "error" });
    expect((await createLinked("1.0 on A2", await fixture("seed-ai-server.jsonc"), a2)).hardwareFit).toBeNull();
  });
});
