/** Jobs from rings-config ConfigMaps posted as they change, through the route handler against PostgreSQL. */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import type { JobSummary as JobDetail } from "@/db/schema/job/ranks";
import { completedA3Table, initializingTable, ringsConfigMap } from "@/lib/jobs/fixtures/rings-config";
import { withAppDatabase } from "@/test/app-database";
import { jsonRequest } from "@/test/auth";
import { testDatabase } from "@/test/database";
import { a2, auth, none, withJobsCluster, type Handler } from "@/test/jobs";

withAppDatabase();
withJobsCluster();

const routes = {} as Record<"rings", Handler<{ id: string }>>;

beforeAll(async () => {
  ({ POST: routes.rings } = (await import("./route")) as unknown as { POST: Handler<{ id: string }> });
});

const postRings = (body: unknown) => routes.rings(jsonRequest("/api/v1/jobs/rings-config?cluster=atlas-a2-demo", "POST", body, auth()), none);

/** The A2 demo's first two servers as the Ascend Operator writes them: server_id is the node's IP. */
const a2Table = () =>
  completedA3Table(a2.servers.slice(0, 2).map((s) => ({ serverId: s.hostIp!, devices: s.npus.map((n) => ({ id: n.dies[0]!.deviceId, ip: n.dies[0]!.deviceIp! })) })));

describe("rings-config ConfigMaps", () => {
  it("creates the job pending, places it when the operator completes the table, and ignores re-sends and older versions", async () => {
    const first = await postRings(ringsConfigMap({ job: "llama-70b", namespace: "training", table: initializingTable, version: "100" }));
    expect(first.status).toBe(201);
    const created = (await first.json()) as { status: string; job: JobDetail };
    expect(created).toMatchObject({ status: "created", job: { name: "llama-70b", namespace: "training", state: "pending", startedAt: null, placement: { ranks: 0 } } });

    expect(await (await postRings(ringsConfigMap({ job: "llama-70b", namespace: "training", table: initializingTable, version: "100" }))).json()).toMatchObject({ status: "unchanged" });

    const completed = await postRings(ringsConfigMap({ job: "llama-70b", namespace: "training", table: a2Table(), version: "200" }));
    expect(completed.status).toBe(200);
    const running = ((await completed.json()) as { job: JobDetail }).job;
    expect(running).toMatchObject({ state: "running", rankTableStatus: "completed", placement: { ranks: 16, placed: 16, unmatched: 0, servers: 2 } });
    expect(running.startedAt).not.toBeNull();
    expect(running.ranks.items[9]).toMatchObject({ rank: 9, dieId: "a2-node1/d1", match: "server-and-device" });

    // An older version of the ConfigMap arriving late changes nothing.
    expect(await (await postRings(ringsConfigMap({ job: "llama-70b", namespace: "training", table: initializingTable, version: "150" }))).json()).toMatchObject({ status: "unchanged" });
    // Rescheduled: back to initializing, pending again, the last placement kept.
    const again = (await (await postRings(ringsConfigMap({ job: "llama-70b", namespace: "training", table: initializingTable, version: "300" }))).json()) as { status: string; job: JobDetail };
    expect(again).toMatchObject({ status: "updated", job: { state: "pending", placement: { placed: 16 } } });

    const audit = await testDatabase().db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.targetType, "job"), eq(auditLog.targetId, String(created.job.id))));
    expect(audit.map((a) => a.action)).toEqual(["job.create", "job.update", "job.update"]);
  });

  it("refuses what is not a rings-config ConfigMap, naming where (422)", async () => {
    const response = await postRings({ kind: "ConfigMap", metadata: { name: "rings-config-x" }, data: { "hccl.json": "{not json" } });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_rings_config", details: { path: "data.hccl.json" } } });
  });
});
