import { describe, expect, it } from "vitest";
import { healthOf, withFaultHealth, type OpenFault } from "./health";

const faults: OpenFault[] = [
  { superPodId: "0", serverId: "sp0-node03", npuIndex: 2, deviceId: 5, level: "SeparateNPU" },
  { superPodId: "0", serverId: "sp0-node04", npuIndex: 0, deviceId: 1, level: "NotHandleFault" },
  { superPodId: "1", serverId: "sp1-node00", npuIndex: null, deviceId: null, level: "PreSeparateNPU" },
];

describe("live health from open faults", () => {
  it("colours a die by its worst open fault, and healthy without one", () => {
    expect(healthOf({ kind: "die", id: "x", serverId: "sp0-node03", npuIndex: 2, deviceId: 5 }, faults)).toBe("faulty");
    expect(healthOf({ kind: "die", id: "x", serverId: "sp0-node03", npuIndex: 2, deviceId: 4 }, faults)).toBe("healthy");
    expect(healthOf({ kind: "die", id: "x", serverId: "sp0-node04", npuIndex: 0, deviceId: 1 }, faults)).toBe("degraded");
  });

  it("passes a server-wide fault to its dies, and dies' faults up to NPUs, servers and super pods", () => {
    expect(healthOf({ kind: "die", id: "x", serverId: "sp1-node00", npuIndex: 3, deviceId: 7 }, faults)).toBe("degraded");
    expect(healthOf({ kind: "npu", id: "x", serverId: "sp0-node03", npuIndex: 2 }, faults)).toBe("faulty");
    expect(healthOf({ kind: "server", id: "sp0-node03", serverId: "sp0-node03" }, faults)).toBe("faulty");
    expect(healthOf({ kind: "superpod", id: "0", superPodId: "0" }, faults)).toBe("faulty");
    expect(healthOf({ kind: "superpod", id: "1", superPodId: "1" }, faults)).toBe("degraded");
  });

  it("copies the view instead of changing it", () => {
    const view = { nodes: [{ kind: "server", id: "sp0-node04", serverId: "sp0-node04", health: "unknown" }] };
    expect(withFaultHealth(view, faults).nodes[0]!.health).toBe("degraded");
    expect(view.nodes[0]!.health).toBe("unknown");
  });
});
