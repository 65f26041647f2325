import { describe, expect, it } from "vitest";
import { peerOfAssembledCode, switchFaultReach } from "./impact";

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
