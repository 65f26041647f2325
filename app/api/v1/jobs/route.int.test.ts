/** Tracking a saved rank table as a job, through the jobs route handlers against PostgreSQL. */
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createRankTable } from "@/db/queries/rank-table-saves";
import type { JobSummary as JobDetail } from "@/db/schema/job/ranks";
import { completedA3Table } from "@/lib/jobs/fixtures/rings-config";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { auth, none, withJobsCluster, type Handler } from "@/test/jobs";

withAppDatabase();
withJobsCluster();

const routes = {} as Record<"list" | "create", Handler<{ id: string }>>;

beforeAll(async () => {
  ({ GET: routes.list, POST: routes.create } = (await import("./route")) as unknown as { GET: Handler<{ id: string }>; POST: Handler<{ id: string }> });
});

describe("tracking a saved rank table as a job", () => {
  it("places its ranks, lists what does not match, and refuses the same name twice (409)", async () => {
    const table = completedA3Table([{ serverId: "a2-node2", devices: [{ id: 0, ip: "10.20.3.6" }, { id: 9, ip: "10.99.0.1" }] }]);
    const saved = await createRankTable(testDatabase().db, { name: "Bert fine-tune", text: JSON.stringify(table) }, systemActor);
    const response = await routes.create(jsonRequest("/api/v1/jobs", "POST", { cluster: "atlas-a2-demo", rankTableId: saved.id, environment: "export HCCL_CONNECT_TIMEOUT=600\nexport SECRET=1" }, auth()), none);
    expect(response.status).toBe(201);
    const job = (await response.json()) as JobDetail;
    expect(job).toMatchObject({ name: "bert-fine-tune", source: "rank-table", rankTableId: saved.id, rankTableRevision: 1, environment: { HCCL_CONNECT_TIMEOUT: "600" } });
    // The first page lists the ranks that match no die first, as the page shows them.
    expect(job.ranks.items.map((r) => [r.rank, r.dieId, r.unmatched])).toEqual([
      [1, null, "unknown-device"],
      [0, "a2-node2/d0", null],
    ]);
    expect(job.counts).toMatchObject({ total: 2, placed: 1, unmatched: 1, byReason: { "unknown-device": 1 } });
    const twice = await routes.create(jsonRequest("/api/v1/jobs", "POST", { cluster: "atlas-a2-demo", rankTableId: saved.id }, auth()), none);
    expect(twice.status).toBe(409);
    const list = (await (await routes.list(jsonRequest("/api/v1/jobs?cluster=atlas-a2-demo", "GET", undefined, auth()), none)).json()) as { items: JobDetail[] };
    expect(list.items.map((j) => j.name)).toContain("bert-fine-tune");
  });
});
