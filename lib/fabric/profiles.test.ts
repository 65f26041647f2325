import { describe, expect, it } from "vitest";
import { countFabric, deriveFabric, nodeChipKey, busSwitchKey, type FabricServer } from "./derive";
import { defaultProfileFor, fabricProfileSchema, findProfile, profileFacts, shippedProfiles } from "./profiles";

const a3 = findProfile("atlas-900-a3-superpod")!;
const a2 = findProfile("atlas-800t-a2-cluster")!;
const a5 = findProfile("atlas-950-superpod")!;

function pod(superPodId: string | null, count: number, prefix = `sp${superPodId}`): FabricServer[] {
  return Array.from({ length: count }, (_, i) => ({ serverId: `${prefix}-n${i}`, superPodId, npuIndexes: [0, 1, 2, 3, 4, 5, 6, 7] }));
}

describe("fabric profiles", () => {
  it("ships three valid profiles with distinct ids", () => {
    expect(shippedProfiles.map((p) => p.id)).toEqual(["atlas-900-a3-superpod", "atlas-800t-a2-cluster", "atlas-950-superpod"]);
    for (const p of shippedProfiles) expect(fabricProfileSchema.safeParse(p).success).toBe(true);
  });

  it("refuses a known number without a source, a null that is not unknown, and chips that do not match planes", () => {
    const noSource = structuredClone(a3);
    noSource.bus.planes = { value: 7, provenance: "published", source: null };
    expect(fabricProfileSchema.safeParse(noSource).success).toBe(false);

    const nullKnown = structuredClone(a3);
    nullKnown.bus.planes = { value: null, provenance: "assumed", source: "x" };
    expect(fabricProfileSchema.safeParse(nullKnown).success).toBe(false);

    const sixChips = structuredClone(a3);
    sixChips.bus.nodeChips = { value: 6, provenance: "assumed", source: "x" };
    const result = fabricProfileSchema.safeParse(sixChips);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["bus", "nodeChips"]);

    const uneven = structuredClone(a3);
    uneven.bus.uplinksPerServerPerPlane = { value: 9, provenance: "assumed", source: "x" };
    expect(fabricProfileSchema.safeParse(uneven).success).toBe(false);
  });

  it("says which A3 numbers are official, published, derived or assumed", () => {
    const facts = Object.fromEntries(profileFacts(a3).map((f) => [f.path, f]));
    expect(facts["bus.planes"]).toMatchObject({ value: 7, provenance: "published" });
    expect(facts["bus.switchesPerPlane"]).toMatchObject({ value: 8, provenance: "derived" });
    expect(facts["bus.nodeChips"]).toMatchObject({ value: 7, provenance: "official" });
    expect(facts["bus.portsPerNodeChip"]).toMatchObject({ value: 48, provenance: "official" });
    expect(facts["bus.chipPlane"]).toMatchObject({ value: "chip-k-to-plane-k", provenance: "assumed" });
    expect(facts["parameter.shape"]).toMatchObject({ value: null, provenance: "unknown" });
    expect(facts["parameter.portsPerServer"]).toMatchObject({ value: 8, provenance: "published" });
    // A5: nothing about its bus is published yet.
    expect(profileFacts(a5).filter((f) => f.path.startsWith("bus.")).every((f) => f.provenance === "unknown")).toBe(true);
  });

  it("picks the default profile from the servers' model", () => {
    expect(defaultProfileFor(["Atlas 800T A3"])?.id).toBe("atlas-900-a3-superpod");
    expect(defaultProfileFor(["Atlas 800T A2"])?.id).toBe("atlas-800t-a2-cluster");
    expect(defaultProfileFor(["Atlas 300I"])).toBeNull();
  });
});

describe("deriveFabric", () => {
  it("builds a full A3 super pod: 7 planes × 8 switches = 56, 7 chips per server, one uplink per server and switch", () => {
    const fabric = deriveFabric(a3, pod("0", 48));
    expect(countFabric(fabric)).toEqual({
      busPlanes: 7,
      busSwitches: 56,
      nodeChips: 48 * 7,
      uplinks: 48 * 56, // 2,688 × 400G as the wiring analysis counts them
      parameterLinks: 48 * 8,
    });
    expect(fabric.gaps).toEqual([]);
    // Every bus switch has one port to each of the 48 servers.
    expect(fabric.switches.filter((s) => s.kind === "bus-switch").every((s) => s.ports === 48)).toBe(true);
    // Chip 3 of a server reaches the 8 switches of plane 3 and nothing else.
    const chip3 = fabric.links.filter((l) => l.kind === "uplink" && l.switchKey === nodeChipKey("sp0-n5", 3));
    expect(chip3.map((l) => l.peerSwitchKey)).toEqual(Array.from({ length: 8 }, (_, i) => busSwitchKey("0", 3, i)));
    expect(new Set(fabric.links.filter((l) => l.kind === "uplink").map((l) => l.ports))).toEqual(new Set([1]));
  });

  it("gives each super pod its own planes and one parameter plane to the cluster", () => {
    const fabric = deriveFabric(a3, [...pod("0", 4), ...pod("1", 2)]);
    expect(countFabric(fabric)).toMatchObject({ busPlanes: 14, busSwitches: 112, nodeChips: 42, uplinks: 6 * 56 });
    expect(fabric.planes.filter((p) => p.kind === "parameter")).toHaveLength(1);
    expect(fabric.switches.find((s) => s.key === busSwitchKey("1", 0, 0))?.ports).toBe(2);
  });

  it("flags a super pod larger than published instead of refusing it", () => {
    expect(deriveFabric(a3, pod("9", 50)).gaps).toEqual([expect.stringContaining("super pod 9 has 50 servers")]);
  });

  it("gives A2 servers no bus, only the parameter plane", () => {
    const fabric = deriveFabric(a2, pod(null, 3, "a2"));
    expect(countFabric(fabric)).toEqual({ busPlanes: 0, busSwitches: 0, nodeChips: 0, uplinks: 0, parameterLinks: 24 });
    expect(fabric.planes).toEqual([{ key: "param", kind: "parameter", superPodId: null, index: 0, shape: null }]);
  });

  it("derives nothing it does not know for A5 and says so", () => {
    const fabric = deriveFabric(a5, pod("0", 4));
    expect(fabric.planes).toEqual([]);
    expect(fabric.gaps).toEqual([
      expect.stringContaining("bus planes not derived: bus.planes, bus.switchesPerPlane, bus.nodeChips"),
      expect.stringContaining("parameter plane not derived"),
    ]);
  });
});
