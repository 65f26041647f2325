import { describe, expect, it } from "vitest";
import { chipAlarmPortId, placeSwitchFault, type KnownNodeChip } from "./switch-faults";

const chips = new Map<number, KnownNodeChip>(
  Array.from({ length: 7 }, (_, c) => [c, { key: `server:n1/chip:${c}`, planeKey: `pod:0/ub:${c}`, ports: 48, uplinks: 8 }]),
);

describe("placeSwitchFault", () => {
  it("puts a port fault on the chip it names, with its plane and port", () => {
    expect(placeSwitchFault(chips, 3, 12)).toEqual({ mapped: true, chipKey: "server:n1/chip:3", planeKey: "pod:0/ub:3", port: 12, portOutOfRange: false });
  });

  it("reads port 0xFFFF as a chip alarm", () => {
    expect(placeSwitchFault(chips, 6, chipAlarmPortId)).toMatchObject({ mapped: true, planeKey: "pod:0/ub:6", port: null, portOutOfRange: false });
  });

  it("keeps a port past the chip's 48 on the chip, flagged", () => {
    expect(placeSwitchFault(chips, 0, 48)).toMatchObject({ mapped: true, chipKey: "server:n1/chip:0", port: null, portOutOfRange: true });
  });

  it("leaves an unknown chip, or a server without a bus fabric, unmapped", () => {
    expect(placeSwitchFault(chips, 7, 1)).toEqual({ mapped: false, reason: "unknown-chip" });
    expect(placeSwitchFault(new Map(), 0, 1)).toEqual({ mapped: false, reason: "no-fabric" });
  });
});
