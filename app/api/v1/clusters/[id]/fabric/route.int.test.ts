import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "@/db/queries/audit";
import { createApiToken } from "@/db/queries/tokens";
import { seedDemo } from "@/db/seed";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { withAppDatabase } from "@/test/app-database";
import { testDatabase } from "@/test/database";

withAppDatabase();

let routes: typeof import("./route");
let deviceInfo: typeof import("@/app/api/v1/fault-events/device-info/route").POST;
let editor: string;

beforeAll(async () => {
  editor = (await createApiToken(testDatabase().db, { name: "fabric-editor", role: "editor" }, systemActor)).token;
  routes = await import("./route");
  ({ POST: deviceInfo } = await import("@/app/api/v1/fault-events/device-info/route"));
  await seedDemo(testDatabase().db, [demoA3Cluster(2, 4)]);
});

const context = { params: Promise.resolve({ id: "atlas-a3-demo" }) };
const json = (method: string, body?: unknown) =>
  new Request("http://localhost/x", {
    method,
    headers: { authorization: `Bearer ${editor}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

type Plane = { key: string; kind: string; superPodId: string | null; busSwitches: number; servers: number; openSwitchFaults: number };

describe("a cluster's fabric", () => {
  it("answers the A3 profile with its sources and 7 bus planes of 8 switches per super pod, plus the parameter plane", async () => {
    const response = await routes.GET(json("GET"), context);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { chosen: string | null; profile: { id: string }; facts: { path: string; provenance: string }[]; planes: Plane[] };
    expect(body).toMatchObject({ chosen: null, profile: { id: "atlas-900-a3-superpod" } });
    expect(body.facts.find((f) => f.path === "bus.planes")).toMatchObject({ provenance: "published" });
    expect(body.planes.map((p) => p.key)).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6].map((p) => `pod:0/ub:${p}`),
      ...[0, 1, 2, 3, 4, 5, 6].map((p) => `pod:1/ub:${p}`),
      "param",
    ]);
    expect(body.planes[0]).toMatchObject({ kind: "bus", superPodId: "0", busSwitches: 8, servers: 4, openSwitchFaults: 0 });
    expect(body.planes.at(-1)).toMatchObject({ kind: "parameter", superPodId: null, busSwitches: 0, servers: 8 });
  });

  it("counts a SwitchInfoCfg fault against the plane of the chip it names (the plane is degraded for the pod)", async () => {
    const configMap = JSON.parse(await readFile("lib/faults/fixtures/device-info-a3-switch-configmap.json", "utf8")) as { metadata: { name: string } };
    configMap.metadata.name = "mindx-dl-deviceinfo-sp1-node02";
    const posted = await deviceInfo(
      new Request("http://localhost/api/v1/fault-events/device-info?cluster=atlas-a3-demo", {
        method: "POST",
        headers: { authorization: `Bearer ${editor}`, "content-type": "application/json" },
        body: JSON.stringify(configMap),
      }),
      { params: Promise.resolve({}) },
    );
    expect(posted.status).toBe(200);
    const planes = ((await (await routes.GET(json("GET"), context)).json()) as { planes: Plane[] }).planes;
    const degraded = planes.filter((p) => p.openSwitchFaults > 0).map((p) => [p.key, p.openSwitchFaults, p.servers]);
    // The fixture's faults name chip 0 port 5 and chip 1 port 12 of sp1-node02.
    expect(degraded).toEqual([
      ["pod:1/ub:0", 1, 4],
      ["pod:1/ub:1", 1, 4],
    ]);
  });

  it("follows the profile an editor chooses, refuses an unknown one, and goes back to the default", async () => {
    const a5 = await routes.PUT(json("PUT", { profile: "atlas-950-superpod" }), context);
    expect(a5.status).toBe(200);
    const body = (await a5.json()) as { chosen: string; planes: Plane[]; gaps: string[] };
    expect(body).toMatchObject({ chosen: "atlas-950-superpod", planes: [] });
    expect(body.gaps).toHaveLength(2);

    const unknown = await routes.PUT(json("PUT", { profile: "atlas-9000" }), context);
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("unknown_fabric_profile");

    const back = (await (await routes.PUT(json("PUT", { profile: null }), context)).json()) as { chosen: null; planes: Plane[] };
    expect(back.chosen).toBeNull();
    expect(back.planes).toHaveLength(15);
  });
});
