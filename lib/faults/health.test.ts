import { describe, expect, it } from "vitest";
import { healthOf, withFaultHealth, type OpenFault } from "./health";

const faults: OpenFault[] = [
  { superPodId: "0", serverId: "sp0-node03", npuIndex: 2, deviceId: 5, planeKey: null, level: "SeparateNPU" },
  { superPodId: "0", serverId: "sp0-node04", npuIndex: 0, deviceId: 1, planeKey: null, level: "NotHandleFault" },
  { superPodId: "1", serverId: "sp1-node00", npuIndex: null, deviceId: null, planeKey: null, level: "PreSeparateNPU" },
  // A switch-chip fault: on its server, and on its bus plane for every server of the pod.
  { superPodId: "0", serverId: "sp0-node05", npuIndex: null, deviceId: null, planeKey: "pod:0/ub:3", switchKey: "server:sp0-node05/chip:3", level: "PreSeparateNPU" },
  // A fault on a port of chip 1 facing one NPU: the chip and its server, not the plane (planeKey null).
  { superPodId: "0", serverId: "sp0-node06", npuIndex: null, deviceId: null, planeKey: null, switchKey: "server:sp0-node06/chip:1", level: "SeparateNPU" },
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

  it("colours a bus plane by the switch faults on it, and only on it", () => {
    expect(healthOf({ kind: "plane", id: "pod:0/ub:3", superPodId: "0" }, faults)).toBe("degraded");
    expect(healthOf({ kind: "plane", id: "pod:0/ub:2", superPodId: "0" }, faults)).toBe("healthy");
    expect(healthOf({ kind: "plane", id: "pod:1/ub:3", superPodId: "1" }, faults)).toBe("healthy");
  });

  it("colours a node chip by the faults on it, an NPU-facing port's too, without the plane; the parameter plane stays unknown", () => {
    expect(healthOf({ kind: "switch", id: "server:sp0-node06/chip:1", serverId: "sp0-node06" }, faults)).toBe("faulty");
    expect(healthOf({ kind: "switch", id: "server:sp0-node06/chip:2", serverId: "sp0-node06" }, faults)).toBe("healthy");
    expect(healthOf({ kind: "switch", id: "server:sp0-node05/chip:3", serverId: "sp0-node05" }, faults)).toBe("degraded");
    expect(healthOf({ kind: "plane", id: "pod:0/ub:1", superPodId: "0" }, faults)).toBe("healthy");
    expect(healthOf({ kind: "server", id: "sp0-node06", serverId: "sp0-node06" }, faults)).toBe("faulty");
    expect(healthOf({ kind: "plane", id: "param", superPodId: null }, faults)).toBe("unknown");
  });

  it("copies the view instead of changing it", () => {
    const view = { nodes: [{ kind: "server", id: "sp0-node04", serverId: "sp0-node04", health: "unknown" }] };
    expect(withFaultHealth(view, faults).nodes[0]!.health).toBe("degraded");
    expect(view.nodes[0]!.health).toBe("unknown");
  });
});
