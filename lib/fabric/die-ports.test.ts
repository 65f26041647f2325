import { describe, expect, it } from "vitest";
import { diePlanePorts, weakestProvenance } from "./die-ports";
import { findProfile } from "./profiles";

const a3 = findProfile("atlas-900-a3-superpod")!;
const a2 = findProfile("atlas-800t-a2-cluster")!;
const a5 = findProfile("atlas-950-superpod")!;

describe("which plane ports a die uses", () => {
  it("an A3 die: one bus port per plane through node chip k, and its NPU's RoCE port, marked assumed where it is", () => {
    const ports = diePlanePorts(a3, { serverId: "sp1-node07", superPodId: "1", npuIndex: 6, diesOnNpu: 2, npuCount: 8 });
    expect(ports.bus.map((p) => [p.planeKey, p.chipKey])).toEqual(
      Array.from({ length: 7 }, (_, k) => [`pod:1/ub:${k}`, `server:sp1-node07/chip:${k}`]),
    );
    // 14 UB links per NPU over 7 chips: 2 per chip, one per die (assumed), the server's 8 uplinks into the plane.
    expect(ports.bus[3]).toMatchObject({ chipId: 3, npuLinks: 2, dieLinks: 1, serverUplinks: 8, linkGbps: 400, provenance: "assumed" });
    expect(ports.bus[3]!.basis).toContain("bus.chipPlane assumed");
    expect(ports.parameter).toEqual({
      planeKey: "param",
      portIndex: 6,
      sharedBy: 2,
      portGbps: 400,
      shape: null,
      provenance: "assumed",
      basis: ["parameter.portsPerServer published", "dies share their NPU's port assumed"],
    });
    expect(ports.gaps).toEqual([]);
  });

  it("a die of an NPU with one die owns its NPU's port and its NPU's bus links (no sharing to assume)", () => {
    const ports = diePlanePorts(a3, { serverId: "s", superPodId: "0", npuIndex: 0, diesOnNpu: 1, npuCount: 8 });
    expect(ports.bus[0]).toMatchObject({ npuLinks: 2, dieLinks: 2 });
    expect(ports.parameter).toMatchObject({ portIndex: 0, sharedBy: 1, provenance: "published" });
  });

  it("an A2 die has no bus ports (no bus between servers) and an assumed RoCE port of its NPU", () => {
    const ports = diePlanePorts(a2, { serverId: "a2-node0", superPodId: null, npuIndex: 3, diesOnNpu: 1, npuCount: 8 });
    expect(ports.bus).toEqual([]);
    expect(ports.parameter).toMatchObject({ portIndex: 3, provenance: "assumed", portGbps: null });
  });

  it("an A5 die: nothing drawn from unknown numbers, and the gaps say which", () => {
    const ports = diePlanePorts(a5, { serverId: "x", superPodId: "0", npuIndex: 0, diesOnNpu: 1, npuCount: 8 });
    expect(ports.bus).toEqual([]);
    expect(ports.parameter).toBeNull();
    expect(ports.gaps).toEqual([
      "bus ports not known: bus.nodeChips, bus.chipPlane unknown in profile atlas-950-superpod",
      "parameter port not known: parameter.portsPerServer unknown in profile atlas-950-superpod",
    ]);
  });

  it("a port is as documented as its least documented fact", () => {
    expect(weakestProvenance(["official", "derived", "published"])).toBe("derived");
    expect(weakestProvenance([])).toBe("official");
  });
});
