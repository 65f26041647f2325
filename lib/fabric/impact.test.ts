import { describe, expect, it } from "vitest";
import { parseSwitchKey } from "./derive";
import { peerOfAssembledCode, switchBlastRadius, switchFaultReach } from "./impact";

const a3 = { planes: 7, uplinksToPlane: 8 };
const at = (assembledCode: string, chipAlarm = false, peerPortId: number | null = 0) => ({ plane: "pod:0/ub:2", chipAlarm, assembledCode, peerPortId });

describe("switch fault reach", () => {
  it("reads the peer from AssembledFaultCode's third field", () => {
    expect(peerOfAssembledCode("[0x08520003,155649,npu,na]")).toBe("npu");
    expect(peerOfAssembledCode("[0x08520003,,L2,na]")).toBe("L2");
    expect(peerOfAssembledCode("[0x00f103b0,155904,na,na]")).toBe("na");
    expect(peerOfAssembledCode("0000002d")).toBeNull();
    expect(peerOfAssembledCode("[0x1,2,gpu,na]")).toBeNull();
  });

  it("puts a chip fault's whole plane at risk for the server (1/7 of its bus) and degrades the plane for the pod", () => {
    expect(switchFaultReach(at("[0x00f103b0,155904,na,na]"), a3)).toEqual({ scope: "chip", plane: "pod:0/ub:2", serverBusShareAtRisk: 1 / 7, npuIndex: null, podDegraded: true });
    // Port 0xFFFF is a chip alarm whatever the code says.
    expect(switchFaultReach(at("[0x08520003,,L2,na]", true), a3).scope).toBe("chip");
  });

  it("puts one of 56 uplinks at risk for an L2 port, one NPU's link for an npu port, nothing of the bus for a cpu port", () => {
    expect(switchFaultReach(at("[0x08520003,,L2,na]"), a3)).toMatchObject({ scope: "uplink", serverBusShareAtRisk: 1 / 56, podDegraded: true });
    expect(switchFaultReach(at("[0x08520003,155649,npu,na]", false, 6), a3)).toMatchObject({ scope: "npu-port", npuIndex: 6, serverBusShareAtRisk: null, podDegraded: false });
    expect(switchFaultReach(at("[0x00f1ff09,155913,cpu,na]"), a3)).toMatchObject({ scope: "cpu-port", podDegraded: false });
    expect(switchFaultReach(at("0000002d"), a3)).toMatchObject({ scope: "port", podDegraded: false });
  });
});

describe("what a switch failure takes down", () => {
  const pod = { superPodId: "1", servers: ["sp1-node00", "sp1-node07", "sp1-node08"].map((serverId) => ({ serverId, dies: 16 })) };
  const fabric = { planes: 7, uplinksPerServerPerPlane: 8 };

  it("reads switch keys: a server's node chip or a bus switch of a plane", () => {
    expect(parseSwitchKey("server:sp1-node07/chip:3")).toEqual({ kind: "node-chip", serverId: "sp1-node07", chipId: 3 });
    expect(parseSwitchKey("pod:1/ub:2/sw:5")).toEqual({ kind: "bus-switch", superPodId: "1", plane: 2, index: 5 });
    expect(parseSwitchKey("pod:1/ub:2")).toBeNull();
  });

  it("a node chip cuts its server from the plane (1/7 of its bus) and degrades the plane for every other server of the pod", () => {
    const radius = switchBlastRadius(parseSwitchKey("server:sp1-node07/chip:3")!, "server:sp1-node07/chip:3", pod, fabric);
    expect(radius.planeKey).toBe("pod:1/ub:3");
    expect(radius.servers).toEqual([
      { serverId: "sp1-node07", effect: "cut", busShareLost: 1 / 7 },
      { serverId: "sp1-node00", effect: "degraded", busShareLost: 0 },
      { serverId: "sp1-node08", effect: "degraded", busShareLost: 0 },
    ]);
    expect([radius.cutDies, radius.degradedDies]).toEqual([16, 32]);
  });

  it("a bus switch cuts no one and takes one of 56 uplinks from every server of the pod", () => {
    const radius = switchBlastRadius(parseSwitchKey("pod:1/ub:2/sw:5")!, "pod:1/ub:2/sw:5", pod, fabric);
    expect(radius.planeKey).toBe("pod:1/ub:2");
    expect(radius.servers.every((s) => s.effect === "degraded" && s.busShareLost === 1 / 56)).toBe(true);
    expect([radius.cutDies, radius.degradedDies]).toEqual([0, 48]);
  });
});
