import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { demoA2Cluster, demoA3Cluster } from "@/lib/inventory/demo";
import { nodeChipKey } from "@/lib/fabric/derive";
import { testDatabase } from "@/test/database";
import { clusters, servers } from "../schema";
import { systemActor } from "./audit";
import { nodeChipsOfServer, podBusPlanes } from "./fabric";
import { setFabricProfile } from "./fabric-build";
import { insertCluster } from "./inventory";

const actor = systemActor;

async function counts(clusterId: number) {
  const { rows } = await testDatabase().pool.query<{ what: string; n: number }>(
    `select 'plane:' || kind as what, count(*)::int as n from fabric_planes where cluster_id = $1 group by kind
     union all select 'switch:' || kind, count(*)::int from fabric_switches where cluster_id = $1 group by kind
     union all select 'link:' || kind, count(*)::int from fabric_links where cluster_id = $1 group by kind`,
    [clusterId],
  );
  return Object.fromEntries(rows.map((r) => [r.what, r.n]));
}

describe("the stored fabric", () => {
  it("is derived when an A3 cluster is created: per 48-server pod 7 planes, 56 bus switches, 336 chips, 2,688 uplinks", async () => {
    const { db } = testDatabase();
    const id = await insertCluster(db, demoA3Cluster(2, 48));
    expect(await counts(id)).toEqual({
      "plane:bus": 14,
      "plane:parameter": 1,
      "switch:bus-switch": 112,
      "switch:node-chip": 2 * 336,
      "link:uplink": 2 * 2688,
      "link:parameter": 2 * 384,
    });
    // Each bus switch has one uplink from each server of its pod, and 48 ports.
    const { rows } = await testDatabase().pool.query<{ links: number; ports: number }>(
      `select count(l.id)::int as links, min(s.ports) as ports from fabric_switches s
       join fabric_links l on l.peer_switch_ref = s.id where s.cluster_id = $1 and s.kind = 'bus-switch' group by s.id`,
      [id],
    );
    expect(new Set(rows.map((r) => `${r.links}/${r.ports}`))).toEqual(new Set(["48/48"]));

    const [server] = await db.select({ ref: servers.id, serverId: servers.serverId }).from(servers).where(eq(servers.clusterId, id)).limit(1);
    const chips = await nodeChipsOfServer(db, id, server!.ref);
    expect([...chips.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(chips.get(3)).toEqual({ key: nodeChipKey(server!.serverId, 3), planeKey: "pod:0/ub:3", ports: 48, uplinks: 8 });

    // What the super pod view draws: per plane of the pod, 8 switches and all 48 servers with 8 uplinks each.
    const planes = await podBusPlanes(db, id, "1");
    expect(planes).toEqual(Array.from({ length: 7 }, (_, p) => ({ key: `pod:1/ub:${p}`, index: p, switches: 8, servers: 48, uplinks: 384 })));
    expect(await podBusPlanes(db, id, "9")).toEqual([]);
  });

  it("gives an A2 cluster only its parameter plane, and follows a profile chosen on demand", async () => {
    const { db } = testDatabase();
    const id = await insertCluster(db, demoA2Cluster(4));
    expect(await counts(id)).toEqual({ "plane:parameter": 1, "link:parameter": 32 });
    expect(await podBusPlanes(db, id, "0")).toEqual([]);

    // The A5 profile knows nothing to draw: the stored fabric is emptied, and the gaps say why.
    const build = await setFabricProfile(db, id, "atlas-950-superpod", actor);
    expect(build).toMatchObject({ profileId: "atlas-950-superpod", defaulted: false });
    expect(build.gaps).toEqual([expect.stringContaining("parameter plane not derived")]);
    expect(await counts(id)).toEqual({});
    expect((await db.select({ p: clusters.fabricProfile }).from(clusters).where(eq(clusters.id, id)))[0]!.p).toBe("atlas-950-superpod");

    expect(await setFabricProfile(db, id, null, actor)).toMatchObject({ profileId: "atlas-800t-a2-cluster", defaulted: true });
    expect(await counts(id)).toEqual({ "plane:parameter": 1, "link:parameter": 32 });
    await expect(setFabricProfile(db, id, "no-such-profile", actor)).rejects.toMatchObject({ kind: "invalid", code: "unknown_fabric_profile" });
  });

  it("goes with its servers when the cluster is deleted", async () => {
    const { db } = testDatabase();
    const id = await insertCluster(db, { ...demoA3Cluster(1, 4), slug: "doomed" });
    expect((await counts(id))["switch:bus-switch"]).toBe(56);
    await db.delete(clusters).where(eq(clusters.id, id));
    expect(await counts(id)).toEqual({});
  });
});
