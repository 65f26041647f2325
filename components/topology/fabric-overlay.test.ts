import { describe, expect, it } from "vitest";
import { findProfile } from "@/lib/fabric/profiles";
import { demoA3Cluster } from "@/lib/inventory/demo";
import { nodeDetails, switchImpactOf } from "@/lib/topology/details";
import { indexOf } from "@/lib/topology/test-support";
import { buildTopologyView } from "@/lib/topology/view";
import { fabricOverlay } from "./fabric-overlay";

const index = indexOf(demoA3Cluster());
const nodeChips = Array.from({ length: 7 }, (_, k) => ({ key: `server:sp1-node07/chip:${k}`, chipId: k, planeKey: `pod:1/ub:${k}`, ports: 48, uplinks: 8 }));
const busPlanes = nodeChips.map((c) => ({ key: c.planeKey, index: c.chipId, switches: 8, servers: 48, uplinks: 384 }));

describe("fabric overlay", () => {
  it("keeps a die, its node chips, planes and parameter plane lit, and dims the other dies", () => {
    const view = buildTopologyView(index, "server", "sp1-node07", { nodeChips, busPlanes, parameter: { shape: null, servers: 96, ports: 768 } });
    const details = nodeDetails(index, "die", "sp1-node07/d13", { profile: findProfile("atlas-900-a3-superpod") });
    const overlay = fabricOverlay(view, "ports", details)!;
    expect([...overlay.dies.keys()]).toEqual(["sp1-node07/d13"]);
    expect([...overlay.fabric!.keys()].sort()).toEqual([...nodeChips.flatMap((c) => [c.key, c.planeKey]), "param"].sort());
    // Without a profile there is nothing to light.
    expect(fabricOverlay(view, "ports", nodeDetails(index, "die", "sp1-node07/d13"))).toBeNull();
  });

  it("outlines the dies of the server a switch cuts red and the rest of its pod amber", () => {
    const view = buildTopologyView(index, "superpod", "1", { busPlanes });
    const details = { ...nodeDetails(index, "switch", "server:sp1-node07/chip:2"), impact: { ...switchImpactOf(index, "server:sp1-node07/chip:2", { planes: 7, uplinksPerServerPerPlane: 8 })!, jobs: [] } };
    const overlay = fabricOverlay(view, "impact", details)!;
    expect(overlay.dies.get("sp1-node07/d13")).toBe("suspect");
    expect(overlay.dies.get("sp1-node08/d0")).toBe("timeout");
    expect(overlay.dies.size).toBe(768);
    expect(fabricOverlay(buildTopologyView(index, "superpod", "0", { busPlanes }), "impact", details)).toBeNull();
  });
});
